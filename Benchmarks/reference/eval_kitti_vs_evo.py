#!/usr/bin/env python3
"""`parallax eval` against evo 1.38.1 on KITTI-format pairs: every APE and RPE statistic, SE3 and Sim3.

KITTI files hold each pose as 12 numbers printed with 7 significant digits (`%e`), so the rotation
blocks are not exactly orthonormal; evo keeps them as read. This script computes evo's numbers with
evo's own `ape`/`rpe` (what `evo_ape kitti … -a [-s]` and `evo_rpe kitti … -a [-s]` run) and
compares them with `parallax eval --json`, value by value, to 1e-6 relative.

    pip install evo==1.38.1 && swift build -c release
    python3 Benchmarks/reference/eval_kitti_vs_evo.py GT.txt EST.txt      # e.g. evo's test/data/KITTI_00_gt.txt KITTI_00_ORB.txt
    python3 Benchmarks/reference/eval_kitti_vs_evo.py --make-fixture DIR  # synthetic pair + evo's numbers (the unit-test fixture)

Exit status 1 when a value differs by more than 1e-6 relative.
"""
import argparse, json, os, subprocess, sys

import numpy as np
from evo.core import metrics
from evo.core.units import Unit
from evo.main_ape import ape
from evo.main_rpe import rpe
from evo.tools import file_interface

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "..", ".."))
STATS = ["rmse", "mean", "median", "std", "min", "max", "sse"]

# (name, parallax options, evo call); delta in frames or metres.
CONFIGS = [
    ("se3 delta=1", ["--align", "se3"], dict(align=True, correct_scale=False, delta=1, unit=Unit.frames)),
    ("sim3 delta=1", ["--align", "sim3"], dict(align=True, correct_scale=True, delta=1, unit=Unit.frames)),
    ("se3 delta=10", ["--align", "se3", "--delta", "10"], dict(align=True, correct_scale=False, delta=10, unit=Unit.frames)),
    ("sim3 delta=50m", ["--align", "sim3", "--delta", "50", "--delta-unit", "m"], dict(align=True, correct_scale=True, delta=50, unit=Unit.meters)),
]


def evo_numbers(gt_path, est_path):
    """Every statistic evo computes for each configuration: {config: {metric: {stat: value}}}."""
    # evo's ape/rpe align the estimate in place: every call gets freshly read trajectories.
    def fresh():
        return file_interface.read_kitti_poses_file(gt_path), file_interface.read_kitti_poses_file(est_path)
    out = {}
    for name, _, c in CONFIGS:
        values = {}
        for key, relation in [("translation", metrics.PoseRelation.translation_part),
                              ("rotationDegrees", metrics.PoseRelation.rotation_angle_deg)]:
            a = ape(*fresh(), relation, align=c["align"], correct_scale=c["correct_scale"])
            r = rpe(*fresh(), relation, delta=c["delta"], delta_unit=c["unit"], all_pairs=False,
                    align=c["align"], correct_scale=c["correct_scale"])
            values["ape_" + key] = {s: float(a.stats[s]) for s in STATS}
            values["rpe_" + key] = {s: float(r.stats[s]) for s in STATS}
        out[name] = values
    return out


def parallax_numbers(binary, gt_path, est_path):
    out = {}
    for name, options, _ in CONFIGS:
        text = subprocess.run([binary, "eval", gt_path, est_path, "--json", *options],
                              capture_output=True, text=True, check=True).stdout
        j = json.loads(text)
        out[name] = {"ape_translation": j["apeTranslation"], "ape_rotationDegrees": j["apeRotationDegrees"],
                     "rpe_translation": j["rpeTranslation"], "rpe_rotationDegrees": j["rpeRotationDegrees"]}
    return out


def make_fixture(folder, seed=7, n=400):
    """A car-like drive (yaw turns, small pitch/roll, 1 m steps) and an estimate with drift,
    0.93 scale and noise, both printed as KITTI prints them (`%e`, 7 significant digits)."""
    rng = np.random.default_rng(seed)
    def rot(rx, ry, rz):
        cx, sx, cy, sy, cz, sz = np.cos(rx), np.sin(rx), np.cos(ry), np.sin(ry), np.cos(rz), np.sin(rz)
        Rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
        Ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
        Rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
        return Rz @ Ry @ Rx
    gt, est = [], []
    T = np.eye(4); E = np.eye(4)
    for k in range(n):
        gt.append(T.copy()); est.append(E.copy())
        yaw = 0.03 * np.sin(k / 40.0) + 0.002 * rng.standard_normal()
        step = np.eye(4); step[:3, :3] = rot(0.004 * rng.standard_normal(), 0.004 * rng.standard_normal(), yaw)
        step[:3, 3] = [0.0, 0.0, 1.0 + 0.1 * np.sin(k / 25.0)]
        T = T @ step
        noisy = step.copy()
        noisy[:3, :3] = noisy[:3, :3] @ rot(*(0.002 * rng.standard_normal(3) + [0, 0.0005, 0]))
        noisy[:3, 3] = 0.93 * (noisy[:3, 3] + 0.02 * rng.standard_normal(3))
        E = E @ noisy
    os.makedirs(folder, exist_ok=True)
    for name, poses in [("kitti_gt.txt", gt), ("kitti_est.txt", est)]:
        np.savetxt(os.path.join(folder, name), np.array([p[:3, :].reshape(-1) for p in poses]), fmt="%e")
    numbers = evo_numbers(os.path.join(folder, "kitti_gt.txt"), os.path.join(folder, "kitti_est.txt"))
    configs = {name: {"options": options, "evo": numbers[name]} for name, options, _ in CONFIGS}
    with open(os.path.join(folder, "kitti_evo_reference.json"), "w") as f:
        json.dump({"generator": "Benchmarks/reference/eval_kitti_vs_evo.py --make-fixture", "evo": "1.38.1",
                   "configs": configs}, f, indent=1, sort_keys=True)
    print(f"wrote {folder}/kitti_gt.txt, kitti_est.txt ({n} poses) and kitti_evo_reference.json")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gt", nargs="?")
    ap.add_argument("est", nargs="?")
    ap.add_argument("--make-fixture", metavar="DIR")
    ap.add_argument("--parallax", default=os.path.join(root, ".build", "release", "parallax"))
    args = ap.parse_args()
    if args.make_fixture:
        make_fixture(args.make_fixture)
        return
    if not (args.gt and args.est):
        ap.error("give GT and EST (KITTI files), or --make-fixture DIR")
    want = evo_numbers(args.gt, args.est)
    got = parallax_numbers(args.parallax, args.gt, args.est)
    worst, failures = 0.0, 0
    print("| configuration | metric | statistics | largest relative difference |")
    print("|---|---|---:|---:|")
    for name, _, _ in CONFIGS:
        for metric, stats in want[name].items():
            diffs = [abs(got[name][metric][s] - v) / max(abs(v), 1e-300) for s, v in stats.items()]
            worst = max(worst, max(diffs))
            failures += sum(d > 1e-6 for d in diffs)
            print(f"| {name} | {metric} | {len(diffs)} | {max(diffs):.1e} |")
    print(f"\n{failures} of {len(CONFIGS) * 4 * len(STATS)} values differ by more than 1e-6 relative (largest {worst:.1e})")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
