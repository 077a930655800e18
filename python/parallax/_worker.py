"""The worker process behind `python:FILE.py`: started by Parallax as
`python3 -c 'from parallax._worker import main; main()' FILE FD`, it speaks protocol version 1
(see `_protocol`) on the socket FD, hosting the one `parallax.Analyzer` subclass of FILE.

It answers HELLO first, then DESCRIBE, OPEN, PROCESS (once per trigger, in the bus's order)
and CLOSE; an exception becomes an ERROR frame with its traceback, never a silent answer.
It exits when CLOSE is done or the socket closes (Parallax ended or died).
"""
import hashlib
import importlib.util
import json
import mmap
import os
import signal
import sys
import traceback

import numpy as np

from . import _protocol as P
from .analyzer import (Analyzer, Frame, Depth, IMU, PoseSample, Item, CAMERA, DEPTH, IMU_SAMPLES, POSE, NUMBER,
                       BETWEEN, BETWEEN_FIRST_AFTER)

_DTYPES = {"uint8": np.uint8, "uint16": np.uint16, "float32": np.float32}


_HERE = os.path.dirname(os.path.abspath(__file__))


def _user_traceback(e):
    """The traceback from the first frame of the user's code on (the worker's own frames and
    importlib's are left out: they say nothing about the analyzer)."""
    tb = e.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if not (name.startswith("<frozen") or os.path.dirname(os.path.abspath(name)) == _HERE):
            break
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(e), e, tb))


def _text(s):
    """`s` as text any JSON reader takes: a lone surrogate (from undecodable bytes) written as
    its escape, so a message or traceback naming such a file still arrives."""
    return s.encode("utf-8", "backslashreplace").decode("utf-8") if isinstance(s, str) else s


# The worker's memory limit (bytes; 0: none), set by `main` from Parallax's `memory_mb=`.
_memory_limit = 0


def _limit_memory(limit):
    """Limits the worker's data (RLIMIT_DATA: its heap and private mappings, numpy's arrays
    included; not the frames Parallax shares) to `limit` bytes, so an analyzer that keeps growing
    gets a MemoryError instead of the machine's memory. 0: no limit."""
    global _memory_limit
    if limit <= 0:
        return
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))
        _memory_limit = limit
    except (ImportError, ValueError, OSError):
        pass


def _describe(e):
    """`TYPE: message` of an exception, also when its `__str__` raises."""
    if isinstance(e, (SystemExit, KeyboardInterrupt)):
        return type(e).__name__
    try:
        text = str(e)
    except BaseException as inner:
        text = "(its message could not be made: %s)" % type(inner).__name__
    if isinstance(e, MemoryError) and _memory_limit > 0:
        text += " (the worker's memory is limited to %d MiB: option memory_mb=)" % (_memory_limit // (1 << 20))
    return "%s: %s" % (type(e).__name__, text)


def _declared(cls):
    """What `cls` declares, checked (see `Analyzer._check`), with its `digest` (SHA-256 of the
    declaration's JSON): a declaration that cannot work is the file's fault, said as such
    (exit 2), not a protocol fault."""
    try:
        d = cls._check()
    except (TypeError, ValueError) as e:
        raise _Failure("no-analyzer", "%s declares %s" % (cls.__name__, e))
    d["digest"] = hashlib.sha256(json.dumps(d, sort_keys=True, default=str).encode("utf-8", "backslashreplace")).hexdigest()
    return d


_LONGEST_MESSAGE = 65536


def _clip(text):
    """`text` cut to 64 KiB of characters, saying how much was left out (a 20 MB message would
    otherwise be printed whole, twice)."""
    if not isinstance(text, str) or len(text) <= _LONGEST_MESSAGE:
        return text
    return text[:_LONGEST_MESSAGE] + " … (%d more characters)" % (len(text) - _LONGEST_MESSAGE)


class _Failure(Exception):
    def __init__(self, kind, message, tb=""):
        super().__init__(message)
        self.kind, self.message, self.tb = kind, message, tb


def _load(path):
    """The Analyzer subclass FILE declares; _Failure('import' | 'no-analyzer') otherwise."""
    directory = os.path.dirname(os.path.abspath(path))
    if directory not in sys.path:
        sys.path.insert(0, directory)
    stem = os.path.splitext(os.path.basename(path))[0]
    modname = "parallax_user_" + "".join(c if c.isalnum() else "_" for c in stem)
    try:
        spec = importlib.util.spec_from_file_location(modname, path)
        if spec is None or spec.loader is None:
            raise ImportError("not a Python source file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[modname] = module
        spec.loader.exec_module(module)
    except BaseException as e:  # SyntaxError, ImportError, anything the module raises
        raise _Failure("import", "%s: %s" % (type(e).__name__, e), _user_traceback(e))
    found = [v for v in vars(module).values()
             if isinstance(v, type) and issubclass(v, Analyzer) and v is not Analyzer and v.__module__ == modname]
    if not found:
        imported = sorted("%s (from %s)" % (v.__name__, v.__module__) for v in vars(module).values()
                          if isinstance(v, type) and issubclass(v, Analyzer) and v is not Analyzer)
        if imported:
            raise _Failure("no-analyzer", "declares no subclass of parallax.Analyzer of its own (it imports %s): declare the "
                           "analyzer in this file, e.g. `class Mine(%s): pass`" % (", ".join(imported), imported[0].split(" ")[0]))
        raise _Failure("no-analyzer", "declares no subclass of parallax.Analyzer")
    if len(found) > 1:
        raise _Failure("no-analyzer", "declares %d subclasses of parallax.Analyzer (%s); declare one per file"
                       % (len(found), ", ".join(c.__name__ for c in found)))
    return found[0]


class _Shared:
    """The shared-memory file Parallax writes images into: a descriptor the worker inherits
    (its name is gone already)."""

    def __init__(self, fd):
        if not isinstance(fd, int) or isinstance(fd, bool) or fd < 0:
            raise _Failure("protocol", "the shared memory is a descriptor number, got %r" % (fd,))
        self.fd = fd
        self.map, self.size = None, 0

    def view(self, size):
        if size > self.size:
            self.map = mmap.mmap(self.fd, size, prot=mmap.PROT_READ)  # the old map lives on in arrays that use it
            self.size = size
        return self.map


class Worker:
    def __init__(self, path, fd):
        self.path, self.fd = path, fd
        self.cls = None
        self.analyzer = None
        self.shared = None
        self.ports = {}
        self.calibrations = {}

    def send(self, kind, header, blob=b""):
        P.write_frame(self.fd, kind, header, blob)

    def run(self):
        self.send(P.HELLO, {"protocol": P.PROTOCOL_VERSION, "python": sys.version.split()[0], "numpy": np.__version__})
        while True:
            frame = P.read_frame(self.fd)
            if frame is None:
                return 0
            kind, header, _ = frame
            try:
                if kind == P.DESCRIBE:
                    self.cls = self.cls or _load(self.path)
                    self.send(P.DESCRIPTION, _declared(self.cls))
                elif kind == P.OPEN:
                    self.open(header)
                elif kind == P.PROCESS:
                    self.process(header)
                elif kind == P.CLOSE:
                    if self.analyzer is None:       # open failed: nothing to close
                        self.send(P.RESULT, {"emits": [], "warnings": [], "notes": []})
                    else:
                        self.call(lambda: self.analyzer.close(), None)
                    return 0
                else:
                    raise _Failure("protocol", "unexpected frame kind %d" % kind)
            except _Failure as f:
                self.send(P.ERROR, {"kind": f.kind, "message": _clip(_text(f.message)), "traceback": _clip(_text(f.tb))})

    def open(self, header):
        self.cls = self.cls or _load(self.path)
        expected = header.get("digest")
        if expected is not None and _declared(self.cls)["digest"] != expected:
            raise _Failure("no-analyzer", "declares other ports or options now than when Parallax asked a moment before: the file changed "
                           "in between, or its declarations depend on chance (a random name, the time); declare them the same every time")
        inputs, outputs, options = self.cls._declarations()
        self.ports = {p.name: p for p in inputs}
        self.calibrations = header.get("calibrations", {})
        if header.get("shm") is not None:
            self.shared = _Shared(header["shm"])
        try:
            analyzer = self.cls.__new__(self.cls)
            analyzer._emitted, analyzer._warnings, analyzer._notes, analyzer._now = [], [], [], None
            values = header.get("options", {})
            for o in options:
                value = values.get(o.name, o.default)
                setattr(analyzer, o.name, float(value) if o.type == "float" else value)
            analyzer.instance_name = header.get("instance", "")
            analyzer.streams = header.get("streams", {})
            init = getattr(self.cls, "__init__")
            if init is not object.__init__ and init is not Analyzer.__init__:
                analyzer.__init__()
        except BaseException as e:
            raise _Failure("exception", _describe(e), _user_traceback(e))
        self.analyzer = analyzer
        self.call(lambda: analyzer.open(), None)

    def call(self, body, now):
        a = self.analyzer
        a._emitted, a._warnings, a._notes, a._now = [], [], [], now
        blobs = []
        try:
            body()
            emits = [self.encode(port, t, value, blobs) for port, t, value in a._emitted]
            header = {"emits": emits, "warnings": [_text(w) for w in a._warnings], "notes": [_text(n) for n in a._notes]}
            blob = b"".join(blobs)
            P.write_frame(self.fd, P.RESULT, header, blob, integers_checked=True)
        except _Failure:
            raise
        except BaseException as e:
            raise _Failure("exception", _describe(e), _user_traceback(e))

    @staticmethod
    def encode(port, t, value, blobs):
        out = {"port": port.name, "t": t}
        if port.type == NUMBER:
            v = float(value)
            if not np.isfinite(v):
                raise ValueError("emit on %r: %r is not a finite number" % (port.name, v))
            out["value"] = v
        elif port.type == POSE:
            if isinstance(value, PoseSample):
                m, cov, state = value.matrix, value.covariance, value.state
            elif isinstance(value, dict):
                m, cov, state = value["matrix"], value.get("covariance"), value.get("state", "normal")
            else:
                m, cov, state = value, None, "normal"
            m = np.asarray(m, dtype=np.float64)
            if m.shape != (4, 4):
                raise ValueError("emit on %r: a pose is a 4×4 matrix, got shape %s" % (port.name, m.shape))
            out["matrix"] = [float(x) for x in m.reshape(-1)]
            if cov is not None:
                c = np.asarray(cov, dtype=np.float64)
                if c.shape != (6, 6):
                    raise ValueError("emit on %r: a pose covariance is 6×6, got shape %s" % (port.name, c.shape))
                out["covariance"] = [float(x) for x in c.reshape(-1)]
            out["state"] = state
        elif port.type == DEPTH:
            kind = "depth"
            if isinstance(value, Depth):
                value, kind = value.values, value.kind
            d = np.ascontiguousarray(value, dtype=np.float32)
            if d.ndim != 2 or d.size == 0:
                raise ValueError("emit on %r: a depth map is H×W with H, W ≥ 1, got shape %s" % (port.name, d.shape))
            offset = sum(len(b) for b in blobs)
            data = d.tobytes()
            blobs.append(data)
            out.update({"blob": [offset, len(data)], "shape": list(d.shape), "kind": kind})
        else:
            out["value"] = value
        return out

    # --- inputs ---

    def item(self, port, raw, size):
        t, stream = raw["t"], port.stream
        if port.type in (CAMERA, DEPTH):
            offset, nbytes = raw["shm"]
            dtype = _DTYPES[raw["dtype"]]
            shape = tuple(raw["shape"])
            if self.shared is None or offset + nbytes > size:
                raise _Failure("protocol", "image outside the shared memory")
            array = np.frombuffer(self.shared.view(size), dtype=dtype, count=nbytes // np.dtype(dtype).itemsize,
                                  offset=offset).reshape(shape)
            calib = self.calibrations.get(port.name)
            if port.type == CAMERA:
                return Frame(t, stream, array, calib, raw.get("exposure"))
            return Depth(t, stream, array, raw.get("kind", "depth"), calib)
        if port.type == IMU_SAMPLES:
            return IMU(t, stream, np.asarray(raw["gyro"], dtype=np.float64), np.asarray(raw["accel"], dtype=np.float64))
        if port.type == POSE:
            cov = raw.get("covariance")
            return PoseSample(t, stream, np.asarray(raw["matrix"], dtype=np.float64).reshape(4, 4),
                              None if cov is None else np.asarray(cov, dtype=np.float64).reshape(6, 6), raw.get("state", "normal"))
        return Item(t, stream, raw.get("value"))

    def process(self, header):
        size = header.get("shm_size", 0)
        trigger, inputs = None, {}
        for name, port in self.ports.items():
            raw = header["inputs"].get(name)
            if port.policy in (BETWEEN, BETWEEN_FIRST_AFTER):
                raws = raw or []
                if port.type == IMU_SAMPLES:
                    value = IMU(np.asarray([r["t"] for r in raws], dtype=np.int64), port.stream,
                                np.asarray([r["gyro"] for r in raws], dtype=np.float64).reshape(-1, 3),
                                np.asarray([r["accel"] for r in raws], dtype=np.float64).reshape(-1, 3))
                else:
                    value = [self.item(port, r, size) for r in raws]
            else:
                value = None if raw is None else self.item(port, raw, size)
            inputs[name] = value
            if name == header["trigger"]:
                trigger = value
        t = header["t"]
        self.call(lambda: self.analyzer.process(trigger, inputs), t)


def _exit_with_parent():
    """Ends the worker when Parallax is gone (killed with -9: no end-of-file reaches a worker
    busy in the analyzer's code). A thread of the worker could not: code that holds the GIL (a
    regular expression, a C extension) would starve it. So a small watcher process, forked before
    the analyzer's file is imported and running no user code, looks twice a second whether the
    worker's parent is still Parallax; once it is not, it kills the worker's process group (the
    worker, what it started, and itself). It exits when the worker is gone."""
    parent, worker = os.getppid(), os.getpid()
    try:
        pid = os.fork()
    except OSError:
        return
    if pid != 0:
        return
    # The watcher: none of the worker's descriptors (the socket, the shared memory).
    try:
        os.closerange(3, 1 << 16)
    except OSError:
        pass
    import time
    while True:
        time.sleep(0.5)
        if os.getppid() != worker:          # the worker is gone: nothing to watch
            os._exit(0)
        try:
            with open("/proc/%d/stat" % worker, "rb") as f:
                # pid (comm) state ppid …: comm may hold spaces and parentheses, so read after its last ')'.
                ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            os._exit(0)
        if ppid != parent:
            try:
                # Parallax makes the worker a process group's leader: the group is the worker's
                # own. Started otherwise (by hand, by a test), only the worker is killed.
                if os.getpgid(worker) == worker:
                    os.killpg(worker, signal.SIGKILL)
                else:
                    os.kill(worker, signal.SIGKILL)
            finally:
                os._exit(1)


def main():
    # Ctrl-C is Parallax's to handle: it closes the worker, which must not die of it first.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with_parent()
    path, fd = sys.argv[1], int(sys.argv[2])
    if len(sys.argv) > 3:
        _limit_memory(int(sys.argv[3]))
    # What the analyzer prints goes to stderr: stdout is Parallax's.
    sys.stdout = sys.stderr
    try:
        code = Worker(path, fd).run()
    except (BrokenPipeError, ConnectionResetError):
        code = 0
    except P.ProtocolError as e:
        sys.stderr.write("parallax worker: %s\n" % e)
        code = 3
    os._exit(code)
