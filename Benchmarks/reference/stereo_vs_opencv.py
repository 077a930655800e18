#!/usr/bin/env python3
"""Parallax semi-global matching versus OpenCV's StereoSGBM, side by side in one run.

Takes any Middlebury-layout folder (im0.png, im1.png, disp0.pfm or disp0GT.pfm, calib.txt with
ndisp=; the 2014 layout): both matchers get the same rectified pair and as many disparities
(calib.txt's ndisp rounded up to 16, or --disparities), one thread each. OpenCV runs as
../shared/REFERENCE.md measured it: MODE_SGBM_3WAY on the color images, blockSize 5,
P1 = 8·3·25, P2 = 32·3·25, uniquenessRatio 10, speckleWindowSize 100, speckleRange 2,
disp12MaxDiff 1. Scores over every pixel with ground truth, an invalid prediction counting as
bad: bad-1.0 / 2.0 / 4.0 (%), and the average absolute error over the valid predictions; then
the same without the left band x < disparities (which OpenCV leaves empty). Time: median of
all calls, each matcher called --repeats times in one process (warm, as on a stream of
frames), in two alternating rounds, and the ratio; Parallax also on two threads (bit-identical
to one: checked here), OpenCV's ratio to that too (OpenCV's SGBM on one thread, as REFERENCE.md).

    swift build -c release --package-path Benchmarks --product stereo-benchmark
    pip install opencv-python-headless
    python3 Benchmarks/reference/stereo_vs_opencv.py FOLDER [--disparities N] [--repeats 5]

For the bundled-in-shared Motorcycle (scikit-image's layout) make a Middlebury folder first:
    scripts/reference/middlebury-from-skimage ../shared/data/stereo/motorcycle /tmp/motorcycle
"""
import argparse, json, os, re, statistics, subprocess, sys, tempfile, time
import numpy as np
import cv2

cv2.setNumThreads(1)
here = os.path.dirname(os.path.abspath(__file__))
binary = os.path.join(here, "..", ".build", "release", "stereo-benchmark")


def read_pfm(path):
    with open(path, "rb") as f:
        header = f.readline().strip()
        if header != b"Pf":
            sys.exit(f"{path}: not a gray PFM")
        w, h = map(int, f.readline().split())
        scale = float(f.readline())
        data = np.frombuffer(f.read(4 * w * h), "<f4" if scale < 0 else ">f4").reshape(h, w)
    d = np.flipud(data).astype(np.float64)
    d[~np.isfinite(d)] = np.nan
    return d


def scores(pred, gt, band):
    known = np.isfinite(gt)
    if band:
        known[:, :band] = False
    valid = known & np.isfinite(pred)
    err = np.abs(pred - gt)
    out = {}
    for t in (1.0, 2.0, 4.0):
        bad = known & ~(valid & (err <= t))
        out[f"bad{t:.1f}"] = 100.0 * bad.sum() / known.sum()
    out["avgerr"] = float(np.nanmean(err[valid]))
    out["invalid"] = 100.0 * (known & ~valid).sum() / known.sum()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--disparities", type=int)
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    f = a.folder
    gt_path = next((os.path.join(f, n) for n in ("disp0.pfm", "disp0GT.pfm") if os.path.exists(os.path.join(f, n))), None)
    if gt_path is None or not os.path.exists(os.path.join(f, "im0.png")):
        sys.exit(f"{f}: expected a Middlebury folder (im0.png, im1.png, disp0.pfm, calib.txt)")
    calib = open(os.path.join(f, "calib.txt")).read() if os.path.exists(os.path.join(f, "calib.txt")) else ""
    m = re.search(r"ndisp\s*=\s*(\d+)", calib)
    nd = a.disparities or (int(m.group(1)) if m else 64)
    nd = (nd + 15) // 16 * 16
    gt = read_pfm(gt_path)
    left, right = cv2.imread(os.path.join(f, "im0.png")), cv2.imread(os.path.join(f, "im1.png"))
    sgbm = cv2.StereoSGBM_create(minDisparity=0, numDisparities=nd, blockSize=5, P1=8 * 3 * 25, P2=32 * 3 * 25,
                                 disp12MaxDiff=1, uniquenessRatio=10, speckleWindowSize=100, speckleRange=2,
                                 mode=cv2.STEREO_SGBM_MODE_SGBM_3WAY)
    if not os.path.exists(binary):
        sys.exit(f"{binary} is missing: swift build -c release --package-path Benchmarks --product stereo-benchmark")
    ours_times, ours2_times, cv_times = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "disp.pfm")
        # Both matchers run `repeats` times in one process (warm, as on a stream of frames: the
        # first call of either pays for its buffers), alternating rounds of that.
        for _ in range(2):
            for _ in range(a.repeats):
                t0 = time.perf_counter()
                raw = sgbm.compute(left, right)
                cv_times.append((time.perf_counter() - t0) * 1000)
            r = subprocess.run([binary, os.path.join(f, "im0.png"), os.path.join(f, "im1.png"), out, str(nd), str(a.repeats)],
                               capture_output=True, text=True, check=True)
            ours_times += json.loads(r.stdout)["times_ms"]
            out2 = os.path.join(tmp, "disp2.pfm")
            r = subprocess.run([binary, os.path.join(f, "im0.png"), os.path.join(f, "im1.png"), out2, str(nd), str(a.repeats), "2"],
                               capture_output=True, text=True, check=True)
            ours2_times += json.loads(r.stdout)["times_ms"]
        ours = read_pfm(out)
        if open(out, "rb").read() != open(out2, "rb").read():
            sys.exit("two threads gave other disparities than one")
    theirs = raw.astype(np.float64) / 16.0
    theirs[raw < 0] = np.nan
    h, w = gt.shape
    print(f"{os.path.basename(os.path.normpath(f))}: {w}×{h}, {nd} disparities, {np.isfinite(gt).sum()} pixels with ground truth")
    print("                          bad-1.0   bad-2.0   bad-4.0   avg err (px)  invalid    time p50 (ms, 1 thread)")
    for name, d, t in (("OpenCV SGBM_3WAY", theirs, cv_times), ("Parallax SGM", ours, ours_times)):
        for label, band in (("all", 0), (f"x ≥ {nd}", nd)):
            s = scores(d, gt, band)
            timing = f"{statistics.median(t):8.1f}" if band == 0 else ""
            print(f"{name:17s} {label:7s} {s['bad1.0']:7.2f}%  {s['bad2.0']:7.2f}%  {s['bad4.0']:7.2f}%  {s['avgerr']:8.3f}     {s['invalid']:6.2f}%  {timing}")
    print(f"time ratio Parallax / OpenCV (p50): {statistics.median(ours_times) / statistics.median(cv_times):.2f}")
    print(f"Parallax on 2 threads (same disparities): {statistics.median(ours2_times):.1f} ms, "
          f"ratio to OpenCV's one thread {statistics.median(ours2_times) / statistics.median(cv_times):.2f}")


if __name__ == "__main__":
    main()
