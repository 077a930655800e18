"""Reading what Parallax wrote: run folders, bench folders and the results database.

    run = parallax.Run("out")          # parallax run … --out out
    run.events                         # [{"stream", "t", "producer", "payload"}, …] from events.jsonl
    run.poses("vio/pose")              # N×8 float64: t (s), tx ty tz, qx qy qz qw (TUM columns)
    run.report                         # run.json as a dict
    parallax.Bench("bench-out").runs   # report.json's cases
    parallax.Results("results.sqlite").runs   # every recorded bench run, its cases and metrics
"""
import json
import os
import pathlib
import sqlite3

import numpy as np


class Run:
    """A run's output folder (`parallax run … --out DIR`)."""

    def __init__(self, path):
        self.path = os.fspath(path)
        if not os.path.isdir(self.path):
            raise FileNotFoundError("%s: not a folder" % self.path)
        self._events = None

    def _file(self, name):
        p = os.path.join(self.path, name)
        if not os.path.isfile(p):
            raise FileNotFoundError("%s: no %s (is it a parallax run's --out folder?)" % (self.path, name))
        return p

    @property
    def report(self):
        """run.json as a dict (chain, dataset, report: timings per analyzer, warnings, …)."""
        path = self._file("run.json")
        try:
            with open(path, encoding="utf-8") as f:
                report = json.load(f)
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ValueError("%s: not a run report (%s)" % (path, e)) from None
        if not isinstance(report, dict):
            raise ValueError("%s: not a run report (a JSON %s, not an object)" % (path, type(report).__name__))
        return report

    @property
    def events(self):
        """Every line of events.jsonl as a dict: stream, t (ns), producer, payload."""
        if self._events is None:
            out = []
            path = self._file("events.jsonl")
            with open(path, "rb") as f:
                for number, raw in enumerate(f, 1):
                    if not raw.strip():
                        continue
                    try:
                        event = json.loads(raw.decode("utf-8"))
                    except (UnicodeDecodeError, json.JSONDecodeError) as e:
                        raise ValueError("%s line %d: %s" % (path, number, e)) from None
                    if not isinstance(event, dict):
                        raise ValueError("%s line %d: an event is a JSON object" % (path, number))
                    out.append(event)
            self._events = out
        return self._events

    def stream(self, name):
        """The events of one stream, in order."""
        return [e for e in self.events if e.get("stream") == name]

    def streams(self):
        """The names of the streams the run carried (run.json's list, else those with events)."""
        names = []
        try:
            names = [s.get("stream") for s in self.report.get("report", {}).get("streams", []) if isinstance(s, dict)]
        except (FileNotFoundError, ValueError, AttributeError):
            pass
        seen = set(names)
        for e in self.events:
            if e.get("stream") not in seen:
                seen.add(e.get("stream"))
                names.append(e.get("stream"))
        return [n for n in names if isinstance(n, str)]

    def values(self, name):
        """(t in ns as int64, payloads) of one stream: numbers as a float64 array (also when there
        are none), others as a list. A stream the run did not carry is a KeyError."""
        ev = self.stream(name)
        if not ev and name not in self.streams():
            raise KeyError("%s: no stream %r (the run's streams: %s)" % (self.path, name, ", ".join(self.streams())))
        t = np.array([e["t"] for e in ev], dtype=np.int64)
        payloads = [e["payload"] for e in ev]
        if all(isinstance(p, (int, float)) and not isinstance(p, bool) for p in payloads):
            return t, np.array(payloads, dtype=np.float64)
        return t, payloads

    def poses(self, stream):
        """The pose stream's TUM file (`STREAM.tum` in the folder) as an N×8 float64 array:
        timestamp (s), tx ty tz (m), qx qy qz qw."""
        return read_tum(self._file(stream_path(stream) + ".tum"))


def _file_name(part):
    """A name part as Parallax makes it a file name: letters, digits, `-`, `_`, `.` kept, the
    rest `_`; empty, `.` and `..` become `_` (so the path stays in its folder)."""
    kept = "".join(c if c.isalpha() or c.isnumeric() or c in "-_." else "_" for c in part)
    return "_" if kept in ("", ".", "..") else kept


def stream_path(stream):
    """The path (inside the run folder, without extension) Parallax writes a stream's files at:
    `vio/pose` → `vio/pose`, `../../x` → `_/_/x`."""
    return "/".join(_file_name(p) for p in stream.split("/"))


def read_tum(path):
    """A TUM trajectory file as an N×8 float64 array (comments skipped)."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.replace(",", " ").split()
            if len(fields) != 8:
                raise ValueError("%s line %d: %d columns, a TUM line has 8" % (path, number, len(fields)))
            rows.append([float(x) for x in fields])
    return np.array(rows, dtype=np.float64).reshape(-1, 8)


class Bench:
    """A bench output folder (`parallax bench … --out DIR`): report.json."""

    def __init__(self, path):
        self.path = os.fspath(path)
        p = os.path.join(self.path, "report.json")
        if not os.path.isfile(p):
            raise FileNotFoundError("%s: no report.json (is it a parallax bench's --out folder?)" % self.path)
        with open(p, encoding="utf-8") as f:
            self.report = json.load(f)

    @property
    def runs(self):
        """The cases as dicts: name, chain, dataset, status, evaluations, timing, …"""
        return self.report.get("runs", [])

    def metrics(self):
        """Every case's evaluation figures as a numpy record array: case, evaluation, metric, value
        (the error statistics as `median`, `rmse`, … and the evaluation's own metrics)."""
        rows = []
        for r in self.runs:
            for e in r.get("evaluations", []):
                result = e.get("result") or {}
                figures = dict((result.get("statistics") or {}))
                figures.update(result.get("metrics") or {})
                for name in sorted(figures):
                    if isinstance(figures[name], (int, float)) and not isinstance(figures[name], bool):
                        rows.append((r.get("name", ""), e.get("evaluation", ""), name, float(figures[name])))
        dtype = [("case", "O"), ("evaluation", "O"), ("metric", "O"), ("value", "f8")]
        return np.rec.fromrecords(rows, dtype=dtype) if rows else np.rec.fromrecords([], dtype=dtype)

    def case(self, name):
        for r in self.runs:
            if r.get("name") == name:
                return r
        raise KeyError("%s: no case %r (cases: %s)" % (self.path, name, ", ".join(r.get("name", "?") for r in self.runs)))


class Results:
    """The results database `parallax bench` records into (SQLite; read-only here)."""

    def __init__(self, path):
        self.path = os.fspath(path)
        if not os.path.isfile(self.path):
            raise FileNotFoundError("%s: no such results database" % self.path)
        # A URI whose path is quoted (`#`, `?` and `%` in a folder's name are not URI syntax) and
        # absolute: read-only, on this file and no other.
        self._db = sqlite3.connect(pathlib.Path(os.path.abspath(self.path)).as_uri() + "?mode=ro", uri=True)
        self._db.row_factory = sqlite3.Row

    def close(self):
        self._db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def runs(self):
        """Every recorded bench run, oldest first: dicts with the run's columns (id, recorded_at,
        suite, parallax_version, machine, …), `options` and `shards` decoded when JSON, and
        `cases`: per case its columns and `metrics` (name → value) and `timings` (records)."""
        out = []
        for run in self._db.execute("SELECT * FROM runs ORDER BY id"):
            r = dict(run)
            for key in ("options", "shards"):
                try:
                    r[key] = json.loads(r[key])
                except (TypeError, ValueError):
                    pass
            r["cases"] = self.cases(r["id"])
            out.append(r)
        return out

    def cases(self, run_id):
        cases = []
        for row in self._db.execute("SELECT * FROM cases WHERE run_id = ? ORDER BY name", (run_id,)):
            c = dict(row)
            c["metrics"] = {m["name"]: m["value"] for m in
                            self._db.execute("SELECT name, value FROM metrics WHERE run_id = ? AND case_name = ? ORDER BY name", (run_id, c["name"]))}
            c["timings"] = [dict(t) for t in
                            self._db.execute("SELECT analyzer, calls, p50_ms, p95_ms FROM timings WHERE run_id = ? AND case_name = ? ORDER BY analyzer",
                                             (run_id, c["name"]))]
            cases.append(c)
        return cases

    def metrics(self):
        """Every metric as a record array: run_id, case, metric, value."""
        rows = list(self._db.execute("SELECT run_id, case_name, name, value FROM metrics ORDER BY run_id, case_name, name"))
        return np.rec.fromrecords([tuple(r) for r in rows], names="run_id,case,metric,value") if rows else \
            np.rec.fromrecords([], dtype=[("run_id", "i8"), ("case", "O"), ("metric", "O"), ("value", "f8")])
