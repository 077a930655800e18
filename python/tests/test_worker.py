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


def start(tmp_path, source):
    path = tmp_path / "analyzer.py"
    path.write_text(textwrap.dedent(source))
    parent, child = socket.socketpair()
    env = dict(os.environ, PYTHONPATH=os.path.join(HERE, ".."))
    proc = subprocess.Popen([sys.executable, "-c", "from parallax._worker import main; main()", str(path), str(child.fileno())],
                            pass_fds=[child.fileno()], env=env)
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
    proc, sock = start(tmp_path, BRIGHT)
    fd = sock.fileno()
    kind, hello, _ = P.read_frame(fd)
    assert kind == P.HELLO and hello["protocol"] == P.PROTOCOL_VERSION
    P.write_frame(fd, P.DESCRIBE, {})
    kind, d, _ = P.read_frame(fd)
    assert kind == P.DESCRIPTION and d["name"] == "mean" and [p["name"] for p in d["inputs"]] == ["frames", "imu"]
    assert d["options"] == [{"name": "gain", "default": 2, "doc": "gain", "type": "int", "range": [1, 5], "choices": None}]
    shm = tmp_path / "shm"
    image = np.arange(12, dtype=np.uint8).reshape(3, 4)
    shm.write_bytes(image.tobytes() + bytes(4096 - 12))
    P.write_frame(fd, P.OPEN, {"options": {"gain": 3}, "shm": str(shm), "calibrations": {"frames": {"fx": 458.0}}, "instance": "mean", "streams": {}})
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
