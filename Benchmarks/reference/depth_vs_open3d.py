#!/usr/bin/env python3
"""Parallax's depth family against Open3D (and OpenCV's bilateral filter), side by side in one run.

On 640×480 depth (the bundled TUM freiburg3 frame, replayed as FRAMES frames of a TUM folder,
or any TUM RGB-D folder given with --tum), per frame:
  - filter:      Parallax `depth-filter` (bilateral, radius 3, noise-scaled depth tolerance)
                 vs OpenCV `cv2.bilateralFilter` on the float depth (d = 7, σs = 2 px, σr = 3 cm);
  - point cloud: Parallax `point-cloud` vs Open3D `PointCloud.create_from_depth_image`
                 (same intrinsics, depth scale 5000, every valid pixel);
  - planes:      Parallax `planes` (every 4th pixel, up to 8 planes, 500 RANSAC iterations)
                 vs Open3D `segment_plane` (distance 2 cm, 3 points, 500 iterations) run
                 repeatedly on the same every-4th-pixel cloud, each plane's inliers removed,
                 as many times as Parallax found planes.
Parallax runs `parallax run … --single-thread` (release) and its per-analyzer times come from
run.json (decoding excluded); Open3D and OpenCV are timed around their calls, one thread
(OMP_NUM_THREADS=1). Printed: p50 per frame (ms) and the ratio Open3D/OpenCV ÷ Parallax (> 1:
Parallax faster), and the angle between the two sides' plane normals.

    swift build -c release --product parallax
    pip install open3d opencv-python-headless
    python3 Benchmarks/reference/depth_vs_open3d.py [--frames 30] [--tum FOLDER] [--json out.json]
"""
import argparse, json, os, shutil, subprocess, sys, tempfile, time
os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np
import cv2
import open3d as o3d

cv2.setNumThreads(1)
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "..")
parallax = os.path.join(root, ".build", "release", "parallax")
bundled = os.path.join(root, "datasets", "tum_rgbd_frame")
FX, FY, CX, CY = 535.4, 539.2, 320.1, 247.6


def replay_folder(source, frames, out):
    """A TUM folder playing the source's first depth (and rgb) image `frames` times, 1/30 s apart."""
    os.makedirs(os.path.join(out, "depth"))
    os.makedirs(os.path.join(out, "rgb"))
    depth_name = open(os.path.join(source, "depth.txt")).read().split("\n")
    depth_file = next(l.split()[1] for l in depth_name if l and not l.startswith("#"))
    rgb_name = open(os.path.join(source, "rgb.txt")).read().split("\n")
    rgb_file = next(l.split()[1] for l in rgb_name if l and not l.startswith("#"))
    with open(os.path.join(out, "depth.txt"), "w") as d, open(os.path.join(out, "rgb.txt"), "w") as r:
        for k in range(frames):
            t = 1000 + k / 30
            shutil.copy(os.path.join(source, depth_file), os.path.join(out, "depth", f"{k}.png"))
            shutil.copy(os.path.join(source, rgb_file), os.path.join(out, "rgb", f"{k}.png"))
            d.write(f"{t:.6f} depth/{k}.png\n")
            r.write(f"{t:.6f} rgb/{k}.png\n")
    if os.path.exists(os.path.join(source, "sensor.yaml")):
        shutil.copy(os.path.join(source, "sensor.yaml"), out)
    return os.path.join(source, depth_file)


def run_parallax(folder):
    out = tempfile.mkdtemp(prefix="parallax-depth-")
    shutil.rmtree(out)
    chain = "depth-filter ! point-cloud ! planes"
    subprocess.run([parallax, "run", chain, folder, "--out", out, "--quiet", "--single-thread"], check=True, stdout=subprocess.DEVNULL)
    report = json.load(open(os.path.join(out, "run.json")))["report"]
    times = {a["analyzer"]: a["p50Milliseconds"] for a in report["analyzers"]}
    planes = []
    for line in open(os.path.join(out, "events.jsonl")):
        e = json.loads(line)
        if e["stream"] == "depth/planes":
            planes = e["payload"]["planes"]
    shutil.rmtree(out, ignore_errors=True)
    return times, planes


def p50(xs):
    return float(np.median(xs))


def run_reference(depth_path, frames, plane_count):
    raw = cv2.imread(depth_path, cv2.IMREAD_UNCHANGED)
    depth_m = raw.astype(np.float32) / 5000
    intr = o3d.camera.PinholeCameraIntrinsic(raw.shape[1], raw.shape[0], FX, FY, CX, CY)
    image = o3d.geometry.Image(raw)
    sub = np.zeros_like(raw)
    sub[::4, ::4] = raw[::4, ::4]
    sub_image = o3d.geometry.Image(sub)
    filt, cloud, planes, normals = [], [], [], []
    for k in range(frames):
        t0 = time.perf_counter()
        cv2.bilateralFilter(depth_m, 7, 0.03, 2)
        t1 = time.perf_counter()
        o3d.geometry.PointCloud.create_from_depth_image(image, intr, depth_scale=5000.0, depth_trunc=1000.0)
        t2 = time.perf_counter()
        pcd = o3d.geometry.PointCloud.create_from_depth_image(sub_image, intr, depth_scale=5000.0, depth_trunc=1000.0)
        t3 = time.perf_counter()
        found = []
        rest = pcd
        for _ in range(plane_count):
            if len(rest.points) < 3:
                break
            model, inliers = rest.segment_plane(distance_threshold=0.02, ransac_n=3, num_iterations=500)
            found.append(model)
            rest = rest.select_by_index(inliers, invert=True)
        t4 = time.perf_counter()
        filt.append((t1 - t0) * 1000)
        cloud.append((t2 - t1) * 1000)
        planes.append((t4 - t3) * 1000)
        normals = found
    return {"filter": p50(filt), "cloud": p50(cloud), "planes": p50(planes)}, normals


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--tum", default=bundled, help="TUM RGB-D folder whose first frame is replayed")
    ap.add_argument("--json")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="parallax-depth-bench-")
    try:
        folder = os.path.join(work, "tum")
        depth_path = replay_folder(args.tum, args.frames, folder)
        ours, planes = run_parallax(folder)
        theirs, models = run_reference(depth_path, args.frames, max(1, len(planes)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    rows = [("filter (bilateral)", ours["depth-filter"], theirs["filter"], "OpenCV bilateralFilter"),
            ("point cloud", ours["point-cloud"], theirs["cloud"], "Open3D create_from_depth_image"),
            (f"planes ({len(planes)})", ours["planes"], theirs["planes"], "Open3D segment_plane ×%d" % len(planes))]
    print(f"\n640×480 depth, {args.frames} frames, one thread, p50 per frame (ms)")
    print(f"{'step':<22}{'Parallax':>10}{'reference':>11}{'ratio':>8}  reference")
    for name, a, b, ref in rows:
        print(f"{name:<22}{a:10.2f}{b:11.2f}{b / a:8.2f}  {ref}")
    # The planes both found: for each Parallax plane, the nearest Open3D normal.
    print("\nplanes (Parallax normal, area; angle to the nearest Open3D plane's normal)")
    for p in planes:
        n = np.array(p["normal"])
        best = min((np.degrees(np.arccos(min(1.0, abs(float(np.dot(n, np.array(m[:3]) / np.linalg.norm(m[:3]))))))) for m in models), default=float("nan"))
        print(f"  {np.round(n, 3)}  {p['area']:.2f} m²  {best:.2f}°")
    if args.json:
        json.dump({"parallax": ours, "reference": theirs, "frames": args.frames}, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
