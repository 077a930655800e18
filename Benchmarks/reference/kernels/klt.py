"""KLT rows of kernels_vs_opencv.py: Parallax's `PyramidalLucasKanade` (release `klt-benchmark`)
against OpenCV's calcOpticalFlowPyrLK on the same corners, round by round, alternating which
side runs first.

As `klt_vs_opencv.py` measures speed: EuRoC cam0 pairs (752×480), the static V1_01 pair
(frames 0→1) and the moving MH_01 pair (frames 199→200); 200 corners from OpenCV's
goodFeaturesToTrack(200, 0.01, 10, blockSize 3) on the first frame, handed to both sides;
window 21×21, maxLevel 3, 30 iterations / 0.01 px. One tracking call builds both pyramids
(Parallax: `prepare` of both images, template gradients of the first; OpenCV: the same
inside calcOpticalFlowPyrLK given two images) and tracks every corner. Each side's figure
for a round is the median of `CALLS` warm calls in one process; the note gives how many
corners each side tracked and how far the two sides' end points lie apart (median, px).

    swift build -c release --package-path Benchmarks --product klt-benchmark
"""
import json, os, statistics, subprocess, tempfile, time

import cv2
import numpy as np

CALLS = 20
CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 30, 0.01)


def _pair(shared, sequence, first):
    d = os.path.join(shared, "euroc", sequence, "mav0", "cam0", "data")
    if not os.path.isdir(d):
        return None
    names = sorted(n for n in os.listdir(d) if n.endswith(".png"))
    if len(names) <= first + 1:
        return None
    return os.path.join(d, names[first]), os.path.join(d, names[first + 1])


def _opencv_round(i0, i1, corners):
    times = []
    for _ in range(CALLS):
        t = time.perf_counter()
        cv2.calcOpticalFlowPyrLK(i0, i1, corners, None, winSize=(21, 21), maxLevel=3, criteria=CRITERIA)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _parallax_round(binary, a, b, corner_file):
    r = subprocess.run([binary, "track", a, b, corner_file, str(CALLS)], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def measure(args):
    binary = os.path.join(args.release, "klt-benchmark")
    specs = [("KLT tracking, V1_01 pair (static), 200 corners, 752×480", "V1_01_easy_micro", 0),
             ("KLT tracking, MH_01 frames 199→200 (moving), 200 corners, 752×480", "MH_01_easy_20s", 199)]
    rows = []
    for kernel, sequence, first in specs:
        row = dict(kernel=kernel, parallax_seconds=[], opencv_seconds=[], note="")
        pair = _pair(args.shared, sequence, first)
        if not os.path.exists(binary):
            row["note"] = f"{binary} not built (swift build -c release --package-path Benchmarks --product klt-benchmark)"
        elif pair is None:
            row["note"] = f"EuRoC {sequence} cam0 frames not found under {args.shared}"
        else:
            a, b = pair
            i0, i1 = cv2.imread(a, cv2.IMREAD_GRAYSCALE), cv2.imread(b, cv2.IMREAD_GRAYSCALE)
            corners = cv2.goodFeaturesToTrack(i0, 200, 0.01, 10, blockSize=3)
            with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as tmp:
                for p in corners.reshape(-1, 2):
                    tmp.write(f"{p[0]:.6f} {p[1]:.6f}\n")
            try:
                ours = None
                for k in range(args.rounds):
                    if k % 2 == 0:
                        ours = _parallax_round(binary, a, b, tmp.name); theirs = _opencv_round(i0, i1, corners)
                    else:
                        theirs = _opencv_round(i0, i1, corners); ours = _parallax_round(binary, a, b, tmp.name)
                    row["parallax_seconds"].append(ours["trackMs"] / 1000)
                    row["opencv_seconds"].append(theirs)
            finally:
                os.unlink(tmp.name)
            nxt, status, _ = cv2.calcOpticalFlowPyrLK(i0, i1, corners, None, winSize=(21, 21), maxLevel=3, criteria=CRITERIA)
            gaps = [float(np.linalg.norm(np.array(q) - c)) for q, c, s in
                    zip(ours["positions"], nxt.reshape(-1, 2), status.reshape(-1)) if q is not None and s == 1]
            row["note"] = (f"tracked: Parallax {ours['tracked']}, OpenCV {int(status.sum())} of {len(corners)}; "
                           f"end points apart: median {statistics.median(gaps) if gaps else float('nan'):.4f} px; "
                           f"digest {ours['digest']}")
        rows.append(row)
    return rows
