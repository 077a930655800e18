#!/usr/bin/env python3
"""Side by side in one run: `evo_ape tum GT EST -a` versus `parallax eval GT EST --align se3`.

Reports both RMSEs (they must agree) and the wall-time ratio of the whole processes (median of
N runs each, alternating). Needs `pip install evo==1.38.1` and a release build of parallax:

    swift build -c release
    python3 Benchmarks/reference/eval_vs_evo.py [--runs 7] [--format tum|kitti] [GT EST]
"""
import argparse, os, re, statistics, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "..", ".."))
evo_dir = os.path.normpath(os.path.join(root, "..", "shared", "data", "trajectories", "evo"))

ap = argparse.ArgumentParser()
ap.add_argument("gt", nargs="?", default=os.path.join(evo_dir, "fr2_desk_groundtruth.txt"))
ap.add_argument("est", nargs="?", default=os.path.join(evo_dir, "fr2_desk_ORB.txt"))
ap.add_argument("--runs", type=int, default=7)
ap.add_argument("--format", choices=["tum", "kitti"], default="tum", help="evo's file format (KITTI: 12 numbers per line)")
ap.add_argument("--parallax", default=os.path.join(root, ".build", "release", "parallax"))
args = ap.parse_args()

evo_cmd = ["evo_ape", args.format, args.gt, args.est, "-a", "--no_warnings"]
px_cmd = [args.parallax, "eval", args.gt, args.est, "--align", "se3"]

def run(cmd):
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - t, out

evo_times, px_times = [], []
evo_out = px_out = ""
for _ in range(args.runs):
    t, evo_out = run(evo_cmd); evo_times.append(t)
    t, px_out = run(px_cmd); px_times.append(t)

evo_rmse = float(re.search(r"rmse\s+([0-9.eE+-]+)", evo_out).group(1))
px_rmse = float(px_out.splitlines()[2].split()[3])
e, p = statistics.median(evo_times), statistics.median(px_times)
print(f"| tool | APE RMSE (m) | median wall time ({args.runs} runs) |")
print("|---|---:|---:|")
print(f"| evo_ape 1.38.1 `{args.format} -a` | {evo_rmse:.6f} | {e*1000:.1f} ms |")
print(f"| parallax eval `--align se3` | {px_rmse:.6f} | {p*1000:.1f} ms |")
print(f"\nparallax is {e/p:.1f}x faster than evo on {os.path.basename(args.est)}; RMSE difference {abs(evo_rmse-px_rmse):.1e} m")
if abs(evo_rmse - px_rmse) > 1e-6 * max(evo_rmse, 1e-12) + 5e-7:
    sys.exit("RMSE mismatch")
