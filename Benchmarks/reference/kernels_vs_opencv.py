#!/usr/bin/env python3
"""Parallax's vision kernels against OpenCV's, side by side in one run (issue 47).

Each kernel is a module in `kernels/` beside this script exposing

    def measure(args) -> list[dict]

whose rows have the keys `kernel` (the row's name), `parallax_seconds` and `opencv_seconds`
(one time per round, the same work on the same inputs on both sides, warm, timed in process)
and `note`. A module alternates the two sides round by round itself; this driver computes, per
row, the ratio Parallax / OpenCV of each round and prints the median and the range (min–max)
over the rounds. One thread on both sides: `cv2.setNumThreads(1)` here, and each Parallax
benchmark executable is single-threaded.

    swift build -c release --package-path Benchmarks --product orb-benchmark   # (each module names its executable)
    pip install opencv-python-headless
    python3 Benchmarks/reference/kernels_vs_opencv.py                 # every kernel, 5 rounds
    python3 Benchmarks/reference/kernels_vs_opencv.py --only orb --rounds 7

`args` carries `rounds`, `root` (the checkout), `shared` (../shared/data beside it), `release`
(Benchmarks/.build/release, or `--release DIR`) and `only`. A module that cannot run (a missing executable or data
set) returns rows with empty time lists and says why in `note`; the driver prints them as skipped.
"""
import argparse, importlib, os, statistics, sys, time

import cv2

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
# The rows, in its order; modules found beyond these run after them.
KNOWN = ["orb", "sgm", "bilateral", "pnp", "klt"]


def discover():
    folder = os.path.join(HERE, "kernels")
    found = sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".py") and not f.startswith("_")) if os.path.isdir(folder) else []
    return [k for k in KNOWN if k in found] + [k for k in found if k not in KNOWN], [k for k in KNOWN if k not in found]


def ratios(row):
    p, o = row.get("parallax_seconds") or [], row.get("opencv_seconds") or []
    return [a / b for a, b in zip(p, o) if b > 0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per kernel (at least 5)")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="run only this module (orb, sgm, …); repeatable")
    parser.add_argument("--shared", default=os.path.normpath(os.path.join(ROOT, "..", "shared", "data")),
                        help="the shared data folder (default ../shared/data beside the checkout)")
    parser.add_argument("--release", default=os.path.join(ROOT, "Benchmarks", ".build", "release"),
                        help="the folder of the release-built benchmark executables (default Benchmarks/.build/release; "
                             "another build's folder measures that build, e.g. before and after a change in one sitting)")
    args = parser.parse_args()
    if args.rounds < 5:
        parser.error("--rounds must be at least 5 (the issue asks for ≥ 5 alternating rounds)")
    args.root = ROOT
    if not os.path.isdir(args.release):
        parser.error(f"--release {args.release}: no such folder")
    cv2.setNumThreads(1)
    sys.path.insert(0, HERE)

    modules, missing = discover()
    if args.only:
        unknown = [n for n in args.only if n not in modules]
        if unknown:
            parser.error(f"no module kernels/{unknown[0]}.py (found: {', '.join(modules) or 'none'})")
        modules = [m for m in modules if m in args.only]
    notes = [f"kernels/{m}.py not present: skipped" for m in missing if not args.only]

    rows = []
    for name in modules:
        started = time.perf_counter()
        module = importlib.import_module(f"kernels.{name}")
        for row in module.measure(args):
            rows.append(row)
        print(f"# {name}: measured in {time.perf_counter() - started:.1f} s", file=sys.stderr)

    print(f"OpenCV {cv2.__version__}, one thread each side, {args.rounds} alternating rounds\n")
    print("| kernel | Parallax / OpenCV time (median) | range | rounds | Parallax median | OpenCV median | note |")
    print("|---|---:|---|---:|---:|---:|---|")
    for row in rows:
        r = ratios(row)
        if not r:
            print(f"| {row['kernel']} | — | — | 0 | — | — | skipped: {row.get('note', '')} |")
            continue
        p = statistics.median(row["parallax_seconds"]) * 1000
        o = statistics.median(row["opencv_seconds"]) * 1000
        print(f"| {row['kernel']} | {statistics.median(r):.2f}× | {min(r):.2f}–{max(r):.2f}× | {len(r)} | "
              f"{p:.1f} ms | {o:.1f} ms | {row.get('note', '')} |")
    for n in notes:
        print(f"\n{n}", end="")
    print()


if __name__ == "__main__":
    main()
