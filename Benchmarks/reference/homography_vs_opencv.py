#!/usr/bin/env python3
"""Parallax ORB matching versus OpenCV's, side by side in one run, on HPatches-style pairs
with a ground-truth homography (../shared/data/homography/churchill: 1.ppm → k.ppm, H_1_k).

Both sides: 1000 ORB features per image (8 levels, scale 1.2, FAST threshold 20), brute-force
Hamming matching with Lowe's ratio 0.8 and a mutual check, RANSAC homography with a 3 px
threshold. Reported per pair: matches, matches within 3 px of the true position, RANSAC inliers,
median true error of the inliers (px), mean corner error of the estimated homography (px),
and the time of one ORB extraction (768×1024, one thread). OpenCV's SIFT (same matching) is
shown for orientation: it is the stronger, slower descriptor.

    swift build -c release --package-path Benchmarks --product klt-benchmark
    pip install opencv-python-headless
    python3 Benchmarks/reference/homography_vs_opencv.py
"""
import json, os, statistics, subprocess, time
import numpy as np
import cv2

cv2.setNumThreads(1)
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "..", ".."))
data = os.path.normpath(os.path.join(root, "..", "shared", "data", "homography", "churchill"))
binary = os.path.join(root, "Benchmarks", ".build", "release", "klt-benchmark")

def transfer(h, pts):
    p = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    return p[:, :2] / p[:, 2:3]

def evaluate(detector, a, b, truth, norm):
    ts = []
    for _ in range(5):
        t = time.perf_counter(); ka, da = detector.detectAndCompute(a, None); ts.append((time.perf_counter() - t) * 1000)
    kb, db = detector.detectAndCompute(b, None)
    knn = cv2.BFMatcher(norm).knnMatch(da, db, k=2)
    back = {m.queryIdx: m.trainIdx for m in cv2.BFMatcher(norm).match(db, da)}
    good = [p[0] for p in knn if len(p) == 2 and p[0].distance < 0.8 * p[1].distance and back.get(p[0].trainIdx) == p[0].queryIdx
            and (norm != cv2.NORM_HAMMING or p[0].distance <= 64)]
    pa = np.float64([ka[m.queryIdx].pt for m in good]); pb = np.float64([kb[m.trainIdx].pt for m in good])
    errors = np.linalg.norm(transfer(truth, pa) - pb, axis=1) if len(good) else np.array([])
    out = dict(features=(len(ka), len(kb)), matches=len(good), correct=int((errors <= 3).sum()), inliers=0,
               median=float("nan"), corner=float("nan"), ms=statistics.median(ts))
    if len(good) >= 4:
        h, mask = cv2.findHomography(pa, pb, cv2.RANSAC, 3.0)
        if h is not None:
            inl = mask.ravel().astype(bool)
            out["inliers"] = int(inl.sum()); out["median"] = float(np.median(errors[inl]))
            w, hh = a.shape[1], a.shape[0]
            corners = np.float64([[0, 0], [w - 1, 0], [0, hh - 1], [w - 1, hh - 1]])
            out["corner"] = float(np.linalg.norm(transfer(h, corners) - transfer(truth, corners), axis=1).mean())
    return out

def fmt(x, d=2): return "—" if x is None or (isinstance(x, float) and (np.isnan(x) or np.isinf(x))) else f"{x:.{d}f}"

orb = cv2.ORB_create(nfeatures=1000, scaleFactor=1.2, nlevels=8, fastThreshold=20)
sift = cv2.SIFT_create(nfeatures=1000)
print("| pair | tool | matches | correct ≤ 3 px | RANSAC inliers | inlier median error (px) | corner error (px) | extraction (ms) |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
ratios = []
for k in range(2, 7):
    pa, pb, ph = (os.path.join(data, f) for f in ("1.ppm", f"{k}.ppm", f"H_1_{k}"))
    a, b = cv2.imread(pa, cv2.IMREAD_GRAYSCALE), cv2.imread(pb, cv2.IMREAD_GRAYSCALE)
    truth = np.loadtxt(ph)
    cv_orb = evaluate(orb, a, b, truth, cv2.NORM_HAMMING)
    cv_sift = evaluate(sift, a, b, truth, cv2.NORM_L2)
    ours = json.loads(subprocess.run([binary, "homography", pa, pb, ph, "1000", "5"], capture_output=True, text=True, check=True).stdout)
    ratios.append(ours["extractMs"] / cv_orb["ms"])
    for name, r in (("OpenCV ORB", cv_orb), ("Parallax ORB", None), ("OpenCV SIFT", cv_sift)):
        if r is None:
            print(f"| 1→{k} | {name} | {ours['matches']} | {ours['correct3px']} | {ours['inliers']} | {fmt(ours['inlierMedianError'])} | "
                  f"{fmt(ours['cornerError'])} | {ours['extractMs']:.1f} |")
        else:
            print(f"| 1→{k} | {name} | {r['matches']} | {r['correct']} | {r['inliers']} | {fmt(r['median'])} | {fmt(r['corner'])} | {r['ms']:.1f} |")
print(f"\nParallax ORB extraction / OpenCV ORB extraction: median ratio {statistics.median(ratios):.2f}")
