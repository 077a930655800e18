"""Shared fixtures: the repository, the built `parallax` executable (tests that need it skip
when it is not built), and runs made with it once per session."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATASET = os.path.join(ROOT, "datasets", "euroc_v1_01_cut")


def _binary():
    explicit = os.environ.get("PARALLAX_BIN")
    if explicit:
        return explicit
    for kind in ("debug", "release"):
        p = os.path.join(ROOT, ".build", kind, "parallax")
        if os.access(p, os.X_OK):
            return p
    return shutil.which("parallax")


@pytest.fixture(scope="session")
def parallax_bin():
    b = _binary()
    if not b:
        pytest.skip("the parallax executable is not built (swift build), nor PARALLAX_BIN set")
    return b


def run_parallax(binary, *args, check=True):
    env = dict(os.environ)
    # The workers run the interpreter running these tests, which has the package.
    env["PARALLAX_PYTHON"] = sys.executable
    p = subprocess.run([binary, *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError("parallax %s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr))
    return p


@pytest.fixture(scope="session")
def brightness_run(parallax_bin, tmp_path_factory):
    out = str(tmp_path_factory.mktemp("runs") / "brightness")
    run_parallax(parallax_bin, "run", "klt camera=cam0 ! python:python/examples/brightness.py", DATASET, "--out", out, "--quiet")
    return out


POSES = """
import numpy as np
import parallax

class Turning(parallax.Analyzer):
    frames = parallax.Input("cam0", parallax.CAMERA)
    pose = parallax.Output("py/pose", parallax.POSE)
    n = 0

    def process(self, trigger, inputs):
        self.n += 1
        a = 0.1 * self.n
        m = np.eye(4)
        m[:3, :3] = [[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]]
        m[:3, 3] = [self.n, 2.0 * self.n, -0.5]
        self.emit(self.pose, m)
"""


@pytest.fixture(scope="session")
def pose_run(parallax_bin, tmp_path_factory):
    """A run whose Python analyzer emits 6 poses (turning about z), written as py/pose.tum."""
    folder = tmp_path_factory.mktemp("runs")
    (folder / "turning.py").write_text(POSES)
    out = str(folder / "poses")
    run_parallax(parallax_bin, "run", "python:%s" % (folder / "turning.py"), DATASET, "--out", out, "--quiet")
    return out
