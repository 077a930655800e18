#!/usr/bin/env python3
"""Reference pictures on real data: the HPatches-style churchill viewpoint sequence, the first
image as the reference picture, the ground-truth homographies H_1_k giving where its corners
are in image k. Compares, in one run, Parallax's `image-track` (its CSV of corners) with
OpenCV's ORB + BFMatcher (ratio 0.8) + findHomography(RANSAC, 3 px) on the same pairs:
per image, the mean corner error (px).

    .build/release/parallax run "image-track camera=cam0 reference=[D/1.ppm] width=1" D --out /tmp/church
    python3 Benchmarks/reference/image_track_vs_opencv.py D /tmp/church/cam0/images/1.csv
"""
import sys, time
import numpy as np, cv2

folder, csv = sys.argv[1], sys.argv[2]
ref = cv2.imread(f"{folder}/1.ppm", cv2.IMREAD_GRAYSCALE)
h, w = ref.shape
corners = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]])

def apply(H, pts):
    p = np.c_[pts, np.ones(len(pts))] @ H.T
    return p[:, :2] / p[:, 2:]

rows = [l.strip().split(",") for l in open(csv).read().splitlines()[1:]]
ours = {}
for k, r in enumerate(rows):
    if r[1] == "1" and r[10]:
        ours[k + 1] = np.array([float(v) for v in r[10:18]]).reshape(4, 2)

orb = cv2.ORB_create(nfeatures=1500)
kr, dr = orb.detectAndCompute(ref, None)
matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
print(f"{'image':>5} {'Parallax (px)':>14} {'OpenCV ORB (px)':>16}")
for k in range(2, 7):
    truth = apply(np.loadtxt(f"{folder}/H_1_{k}"), corners)
    img = cv2.imread(f"{folder}/{k}.ppm", cv2.IMREAD_GRAYSCALE)
    ki, di = orb.detectAndCompute(img, None)
    good = [m for m, n in (p for p in matcher.knnMatch(dr, di, k=2) if len(p) == 2) if m.distance < 0.8 * n.distance]
    cv = float("nan")
    if len(good) >= 4:
        H, _ = cv2.findHomography(np.float32([kr[m.queryIdx].pt for m in good]), np.float32([ki[m.trainIdx].pt for m in good]), cv2.RANSAC, 3.0)
        if H is not None:
            # OpenCV's pixel centres are at integers too: the same corner convention.
            cv = float(np.linalg.norm(apply(H, corners) - truth, axis=1).mean())
    par = float(np.linalg.norm(ours[k] - truth, axis=1).mean()) if k in ours else float("nan")
    print(f"{k:>5} {par:>14.2f} {cv:>16.2f}")
