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


@pytest.fixture(scope="session")
def vio_run(parallax_bin, tmp_path_factory):
    out = str(tmp_path_factory.mktemp("runs") / "vio")
    run_parallax(parallax_bin, "run", "klt ! vio", DATASET, "--out", out, "--quiet")
    return out
