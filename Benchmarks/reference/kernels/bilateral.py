"""Bilateral depth filter: Parallax `DepthFiltering.bilateral` against OpenCV's cv2.bilateralFilter.

A kernel module of `kernels_vs_opencv.py`: `measure(args)` returns one row. Both filter the
same 640×480 depth image, SHARED/rgbd/tum_fr3_office_frame/TUM_depth.png (16-bit, 5000 units
per metre), in metres, with the `depth-filter` analyzer's defaults and the parameters that
`depth_vs_open3d.py` gives OpenCV: a 7×7 window (radius 3, d = 7), σs = 2 px; the depth
tolerance is 3 σ of the Kinect noise at each pixel's range for Parallax (about 1–4 cm over this
frame) and σr = 3 cm for OpenCV (which takes one value). Invalid pixels are NaN for Parallax
(skipped) and 0 for OpenCV (as the file stores them). Parallax runs in-process in the
release-built `bilateral-benchmark` (warm: one untimed call first); each round times both sides
(median of `calls` calls each), alternating which goes first, one thread.

    swift build -c release --package-path Benchmarks --product bilateral-benchmark
"""
import json, os, statistics, subprocess, tempfile, time

import cv2
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
binary = os.path.join(here, "..", "..", ".build", "release", "bilateral-benchmark")


def parallax_round(depth_path, calls, out):
    r = subprocess.run([binary, depth_path, out, str(calls), "1"], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)["median_ms"] / 1000


def opencv_round(depth_m, calls):
    cv2.bilateralFilter(depth_m, 7, 0.03, 2)
    times = []
    for _ in range(calls):
        t0 = time.perf_counter()
        cv2.bilateralFilter(depth_m, 7, 0.03, 2)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def measure(args):
    cv2.setNumThreads(1)
    if not os.path.exists(binary):
        raise SystemExit(f"{binary} is missing: swift build -c release --package-path Benchmarks --product bilateral-benchmark")
    depth_path = os.path.join(args.shared, "rgbd", "tum_fr3_office_frame", "TUM_depth.png")
    raw = cv2.imread(depth_path, cv2.IMREAD_UNCHANGED)
    if raw is None:
        raise SystemExit(f"{depth_path}: missing")
    depth_m = raw.astype(np.float32) / 5000
    calls = max(1, getattr(args, "calls", 9) or 9)
    ours, theirs = [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "filtered.pfm")
        for k in range(args.rounds):
            if k % 2 == 0:
                theirs.append(opencv_round(depth_m, calls))
                ours.append(parallax_round(depth_path, calls, out))
            else:
                ours.append(parallax_round(depth_path, calls, out))
                theirs.append(opencv_round(depth_m, calls))
    return [{"kernel": f"bilateral depth filter, TUM 640×480, 7×7", "parallax_seconds": ours, "opencv_seconds": theirs,
             "note": f"cv2.bilateralFilter(d=7, σr=3 cm, σs=2) vs DepthFiltering.bilateral(radius 3, σs 2, 3σ Kinect noise); "
                     f"median of {calls} warm calls per round"}]
