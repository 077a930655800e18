"""The worker speaks the protocol: hello, describe, open, process (an image read from shared
memory), close; and its errors are answers, not crashes."""
import mmap
import os
import socket
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import parallax
from parallax import _protocol as P

HERE = os.path.dirname(os.path.abspath(__file__))


def start(tmp_path, source, extra_fds=()):
    path = tmp_path / "analyzer.py"
    path.write_text(textwrap.dedent(source))
    parent, child = socket.socketpair()
    env = dict(os.environ, PYTHONPATH=os.path.join(HERE, ".."))
    proc = subprocess.Popen([sys.executable, "-c", "from parallax._worker import main; main()", str(path), str(child.fileno())],
                            pass_fds=[child.fileno(), *extra_fds], env=env)
    child.close()
    return proc, parent


BRIGHT = """
    import parallax
    class Mean(parallax.Analyzer):
        summary = "mean"
        frames = parallax.Input("cam0", parallax.CAMERA)
        imu = parallax.Input("imu0", parallax.IMU_SAMPLES, parallax.BETWEEN)
        mean = parallax.Output("cam0/mean", parallax.JSON)
        gain = parallax.Option(2, doc="gain", range=(1, 5))
        def process(self, trigger, inputs):
            self.emit(self.mean, {"mean": float(trigger.image.mean()) * self.gain, "imu": len(inputs["imu"]),
                                  "fx": trigger.calibration["fx"], "shape": list(trigger.image.shape)})
"""


def test_a_worker_answers_each_request_in_order(tmp_path):
    # The shared memory as Parallax hands it over: an inherited descriptor whose name is gone.
    shm = tmp_path / "shm"
    image = np.arange(12, dtype=np.uint8).reshape(3, 4)
    shm.write_bytes(image.tobytes() + bytes(4096 - 12))
    shm_fd = os.open(shm, os.O_RDONLY)
    shm.unlink()
    proc, sock = start(tmp_path, BRIGHT, extra_fds=[shm_fd])
    os.close(shm_fd)
    fd = sock.fileno()
    kind, hello, _ = P.read_frame(fd)
    assert kind == P.HELLO and hello["protocol"] == P.PROTOCOL_VERSION
    P.write_frame(fd, P.DESCRIBE, {})
    kind, d, _ = P.read_frame(fd)
    assert kind == P.DESCRIPTION and d["name"] == "mean" and [p["name"] for p in d["inputs"]] == ["frames", "imu"]
    assert d["options"] == [{"name": "gain", "default": 2, "doc": "gain", "type": "int", "range": [1, 5], "choices": None}]
    P.write_frame(fd, P.OPEN, {"options": {"gain": 3}, "shm": shm_fd, "calibrations": {"frames": {"fx": 458.0}}, "instance": "mean", "streams": {}})
    assert P.read_frame(fd)[0] == P.RESULT
    P.write_frame(fd, P.PROCESS, {"t": 5, "trigger": "frames", "shm_size": 4096, "inputs": {
        "frames": {"t": 5, "shm": [0, 12], "shape": [3, 4], "dtype": "uint8"},
        "imu": [{"t": 4, "gyro": [0, 0, 1], "accel": [0, 0, 9.8]}]}})
    kind, result, _ = P.read_frame(fd)
    assert kind == P.RESULT
    assert result["emits"] == [{"port": "mean", "t": 5, "value": {"mean": 16.5, "imu": 1, "fx": 458.0, "shape": [3, 4]}}]
    P.write_frame(fd, P.CLOSE, {})
    assert P.read_frame(fd)[0] == P.RESULT
    assert proc.wait(timeout=30) == 0


def test_an_exception_is_an_error_answer_with_the_users_traceback(tmp_path):
    proc, sock = start(tmp_path, """
        import parallax
        class Boom(parallax.Analyzer):
            frames = parallax.Input("cam0", parallax.ANY)
            def process(self, trigger, inputs):
                raise RuntimeError("boom")
    """)
    fd = sock.fileno()
    P.read_frame(fd)
    P.write_frame(fd, P.OPEN, {"options": {}, "instance": "boom"})
    assert P.read_frame(fd)[0] == P.RESULT
    P.write_frame(fd, P.PROCESS, {"t": 1, "trigger": "frames", "inputs": {"frames": {"t": 1}}})
    kind, err, _ = P.read_frame(fd)
    assert kind == P.ERROR and err["kind"] == "exception" and err["message"] == "RuntimeError: boom"
    assert "analyzer.py" in err["traceback"] and "_worker.py" not in err["traceback"]
    sock.close()
    assert proc.wait(timeout=30) == 0


def test_declarations_are_checked_when_written():
    with pytest.raises(TypeError):
        parallax.Input("cam0", "video")
    with pytest.raises(TypeError):
        parallax.Input("depth0", parallax.DEPTH, parallax.LATEST)  # no tolerance
    with pytest.raises(TypeError):
        parallax.Option([1, 2])


def test_a_length_beyond_the_limit_is_refused(tmp_path):
    r, w = os.pipe()
    os.write(w, (P.MAX_FRAME + 1).to_bytes(4, "little") + bytes([P.RESULT]) + (0).to_bytes(4, "little"))
    with pytest.raises(P.ProtocolError):
        P.read_frame(r)


def answer_to_one_packet(tmp_path, source, options=None):
    """Starts a worker on `source`, opens it with `options`, sends one packet on `frames` and
    returns (kind, answer) of its reply; the worker must then exit cleanly."""
    proc, sock = start(tmp_path, source)
    fd = sock.fileno()
    P.read_frame(fd)
    P.write_frame(fd, P.OPEN, {"options": options or {}, "instance": "x"})
    assert P.read_frame(fd)[0] == P.RESULT
    P.write_frame(fd, P.PROCESS, {"t": 1, "trigger": "frames", "inputs": {"frames": {"t": 1}}})
    kind, answer, _ = P.read_frame(fd)
    sock.close()
    assert proc.wait(timeout=30) == 0
    return kind, answer


def error_of_describe(tmp_path, source):
    proc, sock = start(tmp_path, source)
    fd = sock.fileno()
    P.read_frame(fd)
    P.write_frame(fd, P.DESCRIBE, {})
    kind, answer, _ = P.read_frame(fd)
    sock.close()
    assert proc.wait(timeout=30) == 0
    return kind, answer


@pytest.mark.parametrize("option, expected", [
    ('parallax.Option(float("nan"))', "a default must be finite"),
    ("parallax.Option(200.0, range=(0.0, 100.0))", "outside its range"),
    ("parallax.Option(5, range=(10, 0))", "the low end is above the high end"),
    ('parallax.Option("a", choices=[])', "with no choices"),
    ('parallax.Option("c", choices=["a", "b"])', "not one of its choices"),
    ('parallax.Option("a", range=("a", "z"))', "a range is two finite numbers"),
])
def test_declarations_that_cannot_work_are_refused_as_the_files_fault(tmp_path, option, expected):
    kind, answer = error_of_describe(tmp_path, """
        import parallax
        class Odd(parallax.Analyzer):
            frames = parallax.Input("cam0", parallax.CAMERA)
            k = %s
            def process(self, trigger, inputs):
                pass
    """ % option)
    assert kind == P.ERROR and answer["kind"] == "no-analyzer" and expected in answer["message"] and "'k'" in answer["message"]


def test_an_option_named_like_a_method_is_refused(tmp_path):
    kind, answer = error_of_describe(tmp_path, """
        import parallax
        class Odd(parallax.Analyzer):
            frames = parallax.Input("cam0", parallax.CAMERA)
            emit = parallax.Option(1)
            def process(self, trigger, inputs):
                pass
    """)
    assert kind == P.ERROR and answer["kind"] == "no-analyzer" and "'emit'" in answer["message"]


SURROGATE = """
    import os, parallax
    class Names(parallax.Analyzer):
        frames = parallax.Input("cam0", parallax.ANY)
        out = parallax.Output("names", parallax.JSON)
        undeclared = None
        mode = parallax.Option("raise", choices=["raise", "warn", "emit", "undeclared"])
        def process(self, trigger, inputs):
            name = os.fsdecode(b"frame-\\xff.png")
            if self.mode == "raise":
                raise ValueError("cannot read " + name)
            if self.mode == "warn":
                self.warn("skipped " + name)
            if self.mode == "emit":
                self.emit(self.out, {"file": name})
            if self.mode == "undeclared":
                self.emit(parallax.Output("other", parallax.JSON), 1)
"""


@pytest.mark.parametrize("mode", ["raise", "warn", "emit", "undeclared"])
def test_text_that_is_not_unicode_and_undeclared_outputs_are_answered_not_crashed(tmp_path, mode):
    kind, answer = answer_to_one_packet(tmp_path, SURROGATE, {"mode": mode})
    if mode == "warn":
        # A warning is text: the undecodable byte arrives as its escape.
        assert kind == P.RESULT and answer["warnings"] == ["skipped frame-\\udcff.png"]
    elif mode == "raise":
        assert kind == P.ERROR and answer["message"] == "ValueError: cannot read frame-\\udcff.png"
    elif mode == "emit":
        # A value is data: refused, saying why, rather than changed.
        assert kind == P.ERROR and "not valid Unicode" in answer["message"]
    else:
        assert kind == P.ERROR and "not declared on Names" in answer["message"]


def test_close_after_a_failed_open_is_answered(tmp_path):
    proc, sock = start(tmp_path, """
        import parallax
        class Early(parallax.Analyzer):
            frames = parallax.Input("cam0", parallax.ANY)
            out = parallax.Output("x", parallax.NUMBER)
            def __init__(self):
                self.emit(self.out, 1.0)
            def process(self, trigger, inputs):
                pass
    """)
    fd = sock.fileno()
    P.read_frame(fd)
    P.write_frame(fd, P.OPEN, {"options": {}, "instance": "early"})
    kind, answer, _ = P.read_frame(fd)
    assert kind == P.ERROR and "give t (ns) outside process" in answer["message"]
    P.write_frame(fd, P.CLOSE, {})
    kind, answer, _ = P.read_frame(fd)
    assert kind == P.RESULT and answer["emits"] == []
    assert proc.wait(timeout=30) == 0


def _alive(pid):
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
    except OSError:
        return False


def test_a_worker_holding_the_gil_ends_when_its_parent_is_killed(tmp_path):
    # A parent (standing in for Parallax) starts a worker whose process() runs a regular
    # expression that holds the GIL for minutes, then is killed with SIGKILL: the worker's
    # watcher process, which runs no user code, kills it within a second or so.
    analyzer = tmp_path / "gil.py"
    analyzer.write_text(textwrap.dedent("""
        import re, parallax
        class Gil(parallax.Analyzer):
            frames = parallax.Input("cam0", parallax.ANY)
            def process(self, trigger, inputs):
                re.match(r"(a+)+$", "a" * 40 + "b")
    """))
    pidfile = tmp_path / "worker.pid"
    parent_code = textwrap.dedent("""
        import os, socket, subprocess, sys, time
        sys.path.insert(0, %r)
        from parallax import _protocol as P
        a, b = socket.socketpair()
        w = subprocess.Popen([sys.executable, "-c", "from parallax._worker import main; main()", %r, str(b.fileno())],
                             pass_fds=[b.fileno()], env=dict(os.environ, PYTHONPATH=%r))
        b.close()
        fd = a.fileno()
        P.read_frame(fd)
        P.write_frame(fd, P.OPEN, {"options": {}, "instance": "gil"})
        P.read_frame(fd)
        P.write_frame(fd, P.PROCESS, {"t": 1, "trigger": "frames", "inputs": {"frames": {"t": 1}}})
        open(%r, "w").write(str(w.pid))
        time.sleep(600)
    """) % (os.path.join(HERE, ".."), str(analyzer), os.path.join(HERE, ".."), str(pidfile))
    parent = subprocess.Popen([sys.executable, "-c", parent_code])
    import time
    deadline = time.time() + 60
    while not pidfile.exists() or not pidfile.read_text():
        assert time.time() < deadline, "the parent did not start its worker"
        time.sleep(0.05)
    worker = int(pidfile.read_text())
    time.sleep(0.3)          # the worker is in process(), holding the GIL
    assert _alive(worker)
    parent.kill()
    parent.wait()
    deadline = time.time() + 5
    while _alive(worker) and time.time() < deadline:
        time.sleep(0.05)
    alive = _alive(worker)
    if alive:
        os.kill(worker, 9)
    assert not alive, "the worker outlived its parent by 5 s"


def test_a_file_that_declares_otherwise_at_open_is_refused(tmp_path):
    # Described with one declaration (its digest), opened after the file changed: refused.
    proc, sock = start(tmp_path, BRIGHT)
    fd = sock.fileno()
    P.read_frame(fd)
    P.write_frame(fd, P.DESCRIBE, {})
    kind, d, _ = P.read_frame(fd)
    assert kind == P.DESCRIPTION and len(d["digest"]) == 64
    P.write_frame(fd, P.OPEN, {"options": {}, "instance": "mean", "digest": "0" * 64})
    kind, answer, _ = P.read_frame(fd)
    assert kind == P.ERROR and answer["kind"] == "no-analyzer" and "declares other ports or options" in answer["message"]
    sock.close()
    assert proc.wait(timeout=30) == 0


def test_a_huge_message_is_clipped(tmp_path):
    kind, answer = answer_to_one_packet(tmp_path, """
        import parallax
        class Loud(parallax.Analyzer):
            frames = parallax.Input("cam0", parallax.ANY)
            def process(self, trigger, inputs):
                raise ValueError("x" * 5000000)
    """)
    assert kind == P.ERROR and len(answer["message"]) < 70000 and answer["message"].endswith("more characters)")
    assert len(answer["traceback"]) < 70000


@pytest.mark.parametrize("value, refused", [(2 ** 63 - 1, False), (-(2 ** 63), False), (2 ** 63, True), (-(2 ** 63) - 1, True),
                                            (10 ** 30, True), ("1" * 40, False)])
def test_integers_parallax_cannot_keep_exactly_are_refused(tmp_path, value, refused):
    kind, answer = answer_to_one_packet(tmp_path, """
        import parallax
        class Big(parallax.Analyzer):
            frames = parallax.Input("cam0", parallax.ANY)
            out = parallax.Output("big", parallax.JSON)
            def process(self, trigger, inputs):
                self.emit(self.out, {"n": [%r]})
    """ % (value,))
    if refused:
        assert kind == P.ERROR and "beyond ±2^63" in answer["message"] and "['n'][0]" in answer["message"]
    else:
        assert kind == P.RESULT and answer["emits"][0]["value"] == {"n": [value]}


def test_payload_helpers_refuse_what_does_not_add_up():
    with pytest.raises(ValueError, match="3 ids, 1 pixels"):
        parallax.tracks("cam0", 640, 480, [1, 2, 3], [[1.0, 2.0]])
    with pytest.raises(ValueError, match="ids repeat"):
        parallax.tracks("cam0", 640, 480, [1, 1], [[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(ValueError, match="at least 1"):
        parallax.boxes(-5, 480, [[0, 0, 1, 1]])
    with pytest.raises(ValueError, match="negative width"):
        parallax.boxes(640, 480, [[0, 0, -1, 1]])
    with pytest.raises(ValueError, match="not finite"):
        parallax.tracks("cam0", 640, 480, [1], [[1e400, 2.0]])
    t = parallax.tracks("cam0", 640, 480, [4, 5], [[1.0, 2.0], [3.0, 4.0]], ages=[1, 2])
    assert [f["id"] for f in t["features"]] == [4, 5] and t["features"][1]["age"] == 2
