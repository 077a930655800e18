"""parallax.Run, Bench and Results on what the executable writes (skipped when it is not
built) and on small hand-written folders and databases."""
import json
import os
import sqlite3

import numpy as np
import pytest

import parallax
from conftest import DATASET, run_parallax


def test_run_events_hold_one_brightness_per_frame(brightness_run):
    run = parallax.Run(brightness_run)
    bright = run.stream("cam0/brightness")
    frames = [e for e in run.events if e["stream"] == "cam0/tracks"]
    assert len(bright) == len(frames) == 6
    assert all(set(e) == {"stream", "t", "producer", "payload"} for e in run.events)
    assert [e["t"] for e in bright] == [e["t"] for e in frames]
    t, values = run.values("cam0/brightness")
    assert t.dtype == np.int64 and values.dtype == np.float64 and np.all((values > 0) & (values < 255))
    timing = [a for a in run.report["report"]["analyzers"] if a["instance"] == "brightness"][0]
    assert timing["calls"] == 6 and timing["analyzer"] == "python:python/examples/brightness.py"


def test_poses_equal_the_tum_file(pose_run):
    run = parallax.Run(pose_run)
    poses = run.poses("py/pose")
    rows = [l.split() for l in open(os.path.join(pose_run, "py", "pose.tum")) if l.strip() and not l.startswith("#")]
    assert poses.shape == (6, 8) and len(rows) == 6
    assert np.array_equal(poses, np.array(rows, dtype=np.float64))
    # The TUM columns: time in s, the translation emitted, the rotation's quaternion (about z).
    t = np.array([e["t"] for e in run.stream("py/pose")], dtype=np.int64)
    assert np.allclose(poses[:, 0], t * 1e-9)
    assert np.allclose(poses[:, 1:4], [[n, 2.0 * n, -0.5] for n in range(1, 7)])
    a = 0.1 * np.arange(1, 7)
    assert np.allclose(np.abs(poses[:, 6]), np.abs(np.sin(a / 2)), atol=1e-9) and np.allclose(np.abs(poses[:, 7]), np.cos(a / 2), atol=1e-9)


def test_poses_read_a_tum_file_and_stay_in_the_folder(tmp_path):
    (tmp_path / "vio").mkdir()
    (tmp_path / "vio" / "pose.tum").write_text("# timestamp tx ty tz qx qy qz qw\n1.5 1 2 3 0 0 0 1\n2.5 4 5 6 0 0 0.6 0.8\n")
    poses = parallax.Run(str(tmp_path)).poses("vio/pose")
    assert poses.shape == (2, 8) and poses[1, 0] == 2.5 and poses[1, 7] == 0.8
    # A name that would leave the folder is read where Parallax wrote it: `..` parts became `_`.
    with pytest.raises(FileNotFoundError, match="_/_/etc/passwd.tum"):
        parallax.Run(str(tmp_path)).poses("../../etc/passwd")
    (tmp_path / "_" / "_").mkdir(parents=True)
    (tmp_path / "_" / "_" / "escaped.tum").write_text("1 0 0 0 0 0 0 1\n")
    assert parallax.Run(str(tmp_path)).poses("../../escaped").shape == (1, 8)
    assert parallax.stream_path("a b/../c") == "a_b/_/c"
    with pytest.raises(FileNotFoundError):
        parallax.Run(str(tmp_path)).poses("other/pose")


def test_values_of_a_silent_stream_are_empty_arrays_and_of_an_unknown_one_an_error(tmp_path):
    (tmp_path / "run.json").write_text(json.dumps({"report": {"streams": [{"stream": "x/val"}, {"stream": "cam0"}]}}))
    (tmp_path / "events.jsonl").write_text('{"stream":"cam0/other","t":1,"producer":"p","payload":"a"}\n')
    run = parallax.Run(str(tmp_path))
    t, v = run.values("x/val")
    assert t.dtype == np.int64 and v.dtype == np.float64 and len(t) == len(v) == 0
    with pytest.raises(KeyError, match="x/vla"):
        run.values("x/vla")


def test_corrupt_files_are_named(tmp_path):
    (tmp_path / "run.json").write_text("[1, 2")
    with pytest.raises(ValueError, match="run.json"):
        parallax.Run(str(tmp_path)).report
    (tmp_path / "run.json").write_text("[1, 2]")
    with pytest.raises(ValueError, match="not an object"):
        parallax.Run(str(tmp_path)).report
    (tmp_path / "events.jsonl").write_bytes(b'{"stream":"a","t":1}\n\xff\xfe\n')
    with pytest.raises(ValueError, match="events.jsonl line 2"):
        parallax.Run(str(tmp_path)).events


def test_a_bad_events_line_names_its_line(tmp_path):
    (tmp_path / "events.jsonl").write_text('{"stream":"a","t":1,"producer":"p","payload":1}\n{"stream":\n')
    with pytest.raises(ValueError, match="line 2"):
        parallax.Run(str(tmp_path)).events


def test_results_list_the_bench_runs_recorded(parallax_bin, tmp_path):
    db, out = str(tmp_path / "results.sqlite"), str(tmp_path / "bench")
    p = run_parallax(parallax_bin, "bench", "--chain", "klt camera=cam0 ! python:python/examples/brightness.py", "--dataset", DATASET,
                     "--evaluate", "none", "--out", out, "--results-db", db, check=False)
    assert p.returncode == 0, p.stderr
    runs = parallax.Results(db).runs
    assert len(runs) == 1
    assert [c["name"] for c in runs[0]["cases"]] == ["euroc_v1_01_cut"]
    assert any(t["analyzer"].startswith("python:") or t["analyzer"] == "brightness" for t in runs[0]["cases"][0]["timings"])
    bench = parallax.Bench(out)
    assert [r["name"] for r in bench.runs] == ["euroc_v1_01_cut"] and bench.case("euroc_v1_01_cut")["status"] == "ok"


def test_results_read_metrics_as_records(tmp_path):
    db = str(tmp_path / "r.sqlite")
    c = sqlite3.connect(db)
    c.executescript("""
        CREATE TABLE runs(id INTEGER PRIMARY KEY, recorded_at TEXT NOT NULL, suite TEXT NOT NULL, suite_file TEXT NOT NULL,
            suite_sha256 TEXT NOT NULL, parallax_version TEXT NOT NULL, parallax_commit TEXT NOT NULL, machine TEXT NOT NULL,
            options TEXT NOT NULL, shards TEXT NOT NULL);
        CREATE TABLE cases(run_id INTEGER NOT NULL, name TEXT NOT NULL, grp TEXT NOT NULL, chain TEXT NOT NULL, chain_sha256 TEXT NOT NULL,
            chain_commit TEXT NOT NULL, dataset TEXT NOT NULL, dataset_sha256 TEXT NOT NULL, status TEXT NOT NULL, note TEXT NOT NULL,
            realtime_factor REAL NOT NULL, PRIMARY KEY(run_id, name));
        CREATE TABLE metrics(run_id INTEGER NOT NULL, case_name TEXT NOT NULL, name TEXT NOT NULL, value REAL NOT NULL, lower_is_better INTEGER,
            PRIMARY KEY(run_id, case_name, name));
        CREATE TABLE timings(run_id INTEGER NOT NULL, case_name TEXT NOT NULL, analyzer TEXT NOT NULL, calls INTEGER NOT NULL,
            p50_ms REAL NOT NULL, p95_ms REAL NOT NULL);
        INSERT INTO runs VALUES (1, '2026-11-27T10:00:00Z', 's', 's.yaml', 'x', '0.1', 'abc', 'm', '{"seed":1}', '[]');
        INSERT INTO cases VALUES (1, 'a', '', 'klt', 'x', 'abc', 'd', 'x', 'passed', '', 2.0);
        INSERT INTO metrics VALUES (1, 'a', 'ape_m', 0.01, 1), (1, 'a', 'rpe_m', 0.02, 1);
        INSERT INTO timings VALUES (1, 'a', 'klt', 10, 1.5, 2.0);
    """)
    c.commit()
    c.close()
    with parallax.Results(db) as results:
        runs = results.runs
        assert runs[0]["options"] == {"seed": 1} and runs[0]["cases"][0]["metrics"] == {"ape_m": 0.01, "rpe_m": 0.02}
        assert runs[0]["cases"][0]["timings"] == [{"analyzer": "klt", "calls": 10, "p50_ms": 1.5, "p95_ms": 2.0}]
        m = results.metrics()
        assert list(m.metric) == ["ape_m", "rpe_m"] and m.value[1] == 0.02


def test_results_open_the_file_named_even_with_uri_characters(tmp_path, monkeypatch):
    # `#` and `?` in a folder's name are not URI syntax: the database read is that file, read-only,
    # and nothing is created beside it (a `db` file where the `#` would have cut the path).
    folder = tmp_path / "db#1?x"
    folder.mkdir()
    db = str(folder / "results.sqlite")
    c = sqlite3.connect(db)
    c.executescript("CREATE TABLE runs(id INTEGER PRIMARY KEY, recorded_at TEXT NOT NULL, suite TEXT NOT NULL, suite_file TEXT NOT NULL,"
                    " suite_sha256 TEXT NOT NULL, parallax_version TEXT NOT NULL, parallax_commit TEXT NOT NULL, machine TEXT NOT NULL,"
                    " options TEXT NOT NULL, shards TEXT NOT NULL);"
                    "CREATE TABLE cases(run_id INTEGER, name TEXT, grp TEXT, chain TEXT, chain_sha256 TEXT, chain_commit TEXT, dataset TEXT,"
                    " dataset_sha256 TEXT, status TEXT, note TEXT, realtime_factor REAL);"
                    "CREATE TABLE metrics(run_id INTEGER, case_name TEXT, name TEXT, value REAL, lower_is_better INTEGER);"
                    "CREATE TABLE timings(run_id INTEGER, case_name TEXT, analyzer TEXT, calls INTEGER, p50_ms REAL, p95_ms REAL);"
                    "INSERT INTO runs VALUES (7, 't', 's', 's.yaml', 'x', '0.1', 'abc', 'm', '{}', '[]');")
    c.commit()
    c.close()
    monkeypatch.chdir(tmp_path)
    with parallax.Results(os.path.relpath(db)) as results:
        assert [r["id"] for r in results.runs] == [7]
    assert sorted(os.listdir(tmp_path)) == ["db#1?x"]


def test_bench_metrics_are_records(tmp_path):
    (tmp_path / "report.json").write_text(json.dumps({"runs": [
        {"name": "a", "status": "ok", "evaluations": [{"evaluation": "matches", "result": {
            "statistics": {"median": 0.7, "rmse": 11.8}, "metrics": {"inliers_within_3px_percent": 97.8}}}]},
        {"name": "b", "status": "failed", "evaluations": []}]}))
    m = parallax.Bench(str(tmp_path)).metrics()
    assert list(m.case) == ["a", "a", "a"] and list(m.metric) == ["inliers_within_3px_percent", "median", "rmse"]
    assert m.value[1] == 0.7
    with pytest.raises(KeyError, match="cases: a, b"):
        parallax.Bench(str(tmp_path)).case("c")
