#!/usr/bin/env python3
"""Parallax's head-pose fit (face-pose's solver) against OpenCV's solvePnP, side by side in one
run, on AFLW2000-3D faces (the folder given: the 8-face subset in ../shared, or the full 2000).

Same input for both: the true 68 landmarks' x, y (`pt3d_68`), the same 3D model (MediaPipe's
canonical face at the iBUG points, Sources/ParallaxFace/CanonicalFace.swift), a pinhole camera
with focal length = scale × image width and the principal point at the centre, for several
scales (AFLW2000's poses are weak-perspective fits: the focal length is an assumption).
OpenCV: SQPNP, ITERATIVE (no guess), and SQPNP refined by solvePnPRefineLM. Parallax: the
rigidity-weighted fit (face-pose's default) and the uniform one. Reported: MAE of pitch, yaw,
roll (AFLW's convention, differences wrapped) and poses more than 90° off (flipped); then the
time of one solve for 68 and 468 points on the same noisy synthetic face (one thread).

    swift build -c release --package-path Benchmarks --product face-benchmark
    pip install opencv-python-headless scipy
    python3 Benchmarks/reference/face_pose_vs_opencv.py ../shared/data/faces/aflw2000_subset
"""
import glob, json, os, re, subprocess, sys, time
import numpy as np
import cv2
import scipy.io as sio

cv2.setNumThreads(1)
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "..", ".."))
binary = os.path.join(root, "Benchmarks", ".build", "release", "face-benchmark")
folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", "shared", "data", "faces", "aflw2000_subset")
scales = [0.75, 1.0, 1.5, 2.0]

swift = open(os.path.join(root, "Sources", "ParallaxFace", "CanonicalFace.swift")).read()
indices = [int(i) for i in re.search(r"ibug68: \[Int\] = \[(.*?)\]", swift, re.S).group(1).replace("\n", " ").split(",") if i.strip()]
vertices = np.array([[float(x) for x in l.split()[1:4]] for l in open(os.path.join(root, "datasets", "face_model", "face_model_with_iris.obj")) if l.startswith("v ")]) * 0.01
model68 = vertices[indices]

def angles(rotation):
    """AFLW2000 (3DDFA) pitch, yaw, roll (degrees) of R_CH: diag(1,-1,-1)·R = Rx(-p)·Ry(-y)·Rz(-r)."""
    m = np.diag([1, -1, -1]) @ rotation
    yaw = -np.arcsin(np.clip(m[0, 2], -1, 1))
    return np.degrees([-np.arctan2(-m[1, 2], m[2, 2]), yaw, -np.arctan2(-m[0, 1], m[0, 0])])

def wrapped(d): return (d + 180) % 360 - 180

def opencv(points, K, method):
    if method == "SQPNP+LM":
        ok, rv, tv = cv2.solvePnP(model68, points, K, None, flags=cv2.SOLVEPNP_SQPNP)
        rv, tv = cv2.solvePnPRefineLM(model68, points, K, None, rv, tv)
    else:
        ok, rv, tv = cv2.solvePnP(model68, points, K, None, flags={"SQPNP": cv2.SOLVEPNP_SQPNP, "ITERATIVE": cv2.SOLVEPNP_ITERATIVE}[method])
    return angles(cv2.Rodrigues(rv)[0])

def score(estimates, truths):
    e = np.abs(wrapped(np.array(estimates) - np.array(truths)))
    flips = int(sum(1 for a, b in zip(estimates, truths) if geodesic(a, b) > 90))
    return e.mean(axis=0), flips

def rotation_of(a):
    p, y, r = np.radians(a)
    rx = lambda t: np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])
    ry = lambda t: np.array([[np.cos(t), 0, np.sin(t)], [0, 1, 0], [-np.sin(t), 0, np.cos(t)]])
    rz = lambda t: np.array([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0], [0, 0, 1]])
    return rx(-p) @ ry(-y) @ rz(-r)

def geodesic(a, b):
    r = rotation_of(a).T @ rotation_of(b)
    return np.degrees(np.arccos(np.clip((np.trace(r) - 1) / 2, -1, 1)))

mats = sorted(glob.glob(os.path.join(folder, "image*.mat")))
parallax = json.loads(subprocess.run([binary, "aflw", folder] + [str(s) for s in scales], check=True, capture_output=True, text=True).stdout)["faces"]
print(f"{len(mats)} faces from {folder}; MAE pitch / yaw / roll (mean), flipped poses")
print(f"{'f / width':>9} {'method':<22} {'pitch':>6} {'yaw':>6} {'roll':>6} {'mean':>6} {'flips':>5}")
for scale in scales:
    rows = {m: [] for m in ["OpenCV SQPNP", "OpenCV ITERATIVE", "OpenCV SQPNP+LM", "Parallax rigid", "Parallax uniform"]}
    truths = []
    for path, ours in zip(mats, parallax):
        m = sio.loadmat(path)
        assert os.path.splitext(os.path.basename(path))[0] == os.path.splitext(ours["image"])[0]
        truths.append(np.degrees(m["Pose_Para"][0][:3].astype(np.float64)))
        points = m["pt3d_68"][:2].T.astype(np.float64)
        h, w = cv2.imread(os.path.splitext(path)[0] + ".jpg", cv2.IMREAD_GRAYSCALE).shape if os.path.exists(os.path.splitext(path)[0] + ".jpg") else (450, 450)
        K = np.array([[scale * w, 0, (w - 1) / 2], [0, scale * w, (h - 1) / 2], [0, 0, 1.0]])
        for method in ["SQPNP", "ITERATIVE", "SQPNP+LM"]:
            rows["OpenCV " + method].append(opencv(points, K, method))
        rows["Parallax rigid"].append(ours[f"rigid@{scale}"])
        rows["Parallax uniform"].append(ours[f"uniform@{scale}"])
    for method, estimates in rows.items():
        mae, flips = score(estimates, truths)
        print(f"{scale:>9} {method:<22} {mae[0]:6.2f} {mae[1]:6.2f} {mae[2]:6.2f} {mae.mean():6.2f} {flips:>5}")

# Speed: one solve, the same noisy synthetic face (the points Parallax used), f = 600 px.
speed = json.loads(subprocess.run([binary, "speed"], check=True, capture_output=True, text=True).stdout)
K = np.array([[600, 0, 319.5], [0, 600, 239.5], [0, 0, 1.0]])
print("\nper-solve time (one thread), same points and camera")
for name, model in [("68", model68), ("468", vertices[:468])]:
    points = np.array(speed[name]["points"], dtype=np.float64)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(2000): cv2.solvePnP(model, points, K, None, flags=cv2.SOLVEPNP_SQPNP)
        times.append((time.perf_counter() - start) / 2000 * 1e6)
    ocv = sorted(times)[2]
    ours = speed[name]["us_per_solve"]
    # The face-benchmark's true pose: pitch 10°, yaw 30°, roll −5° (R_CH = diag(1,−1,−1)·Rx(−p)Ry(−y)Rz(−r)).
    ok, rv, tv = cv2.solvePnP(model, points, K, None, flags=cv2.SOLVEPNP_SQPNP)
    truth = np.diag([1, -1, -1]) @ rotation_of([10, 30, -5])
    r = truth.T @ cv2.Rodrigues(rv)[0]
    ocv_error = np.degrees(np.arccos(np.clip((np.trace(r) - 1) / 2, -1, 1)))
    print(f"{name:>4} points: OpenCV SQPNP {ocv:7.1f} µs (error {ocv_error:.2f}°), Parallax {ours:7.1f} µs (error {speed[name]['error_deg']:.2f}°), ratio {ours / ocv:.2f}")
