"""Semi-global matching: Parallax `SemiGlobalMatching` against OpenCV's StereoSGBM (MODE_SGBM_3WAY).

A kernel module of `kernels_vs_opencv.py`: `measure(args)` returns one row per stereo pair.
OpenCV runs with the settings of `stereo_vs_opencv.py` (../shared/REFERENCE.md): color images,
blockSize 5, P1 = 8·3·25, P2 = 32·3·25, uniquenessRatio 10, speckleWindowSize 100,
speckleRange 2, disp12MaxDiff 1, one thread. Parallax runs its defaults (census 9×7, 8 paths)
with the same number of disparities, in-process in the release-built `stereo-benchmark`
(warm: one untimed call first, as on a stream of frames). Each round times both sides on the
same pair (median of `calls` calls each), alternating which goes first.

Pairs:
  - Aloe (Middlebury 2006, 1282×1110, 224 disparities): `aloeL.jpg`/`aloeR.jpg` as OpenCV's
    samples ship them. Looked for in --aloe, $PARALLAX_ALOE, SHARED/stereo/aloe, and Debian's
    opencv-doc (`apt-get install opencv-doc`: /usr/share/doc/opencv-doc/examples/data).
  - Motorcycle (Middlebury 2014 via scikit-image, 741×500, 64 disparities): SHARED/stereo/motorcycle.

    swift build -c release --package-path Benchmarks --product stereo-benchmark
"""
import json, os, statistics, subprocess, tempfile, time

import cv2

here = os.path.dirname(os.path.abspath(__file__))
binary = os.path.join(here, "..", "..", ".build", "release", "stereo-benchmark")
ALOE_PLACES = ["/usr/share/doc/opencv-doc/examples/data"]


def _aloe(args):
    places = [getattr(args, "aloe", None), os.environ.get("PARALLAX_ALOE"),
              os.path.join(args.shared, "stereo", "aloe")] + ALOE_PLACES
    for place in places:
        if place and os.path.exists(os.path.join(place, "aloeL.jpg")) and os.path.exists(os.path.join(place, "aloeR.jpg")):
            return os.path.join(place, "aloeL.jpg"), os.path.join(place, "aloeR.jpg")
    return None


def pairs(args):
    """(row name, left path, right path, disparities) of every pair found."""
    out = []
    aloe = _aloe(args)
    if aloe:
        out.append(("semi-global matching, Aloe 1282×1110, 224 disparities", aloe[0], aloe[1], 224))
    moto = os.path.join(args.shared, "stereo", "motorcycle")
    if os.path.exists(os.path.join(moto, "motorcycle_left.png")):
        out.append(("semi-global matching, Motorcycle 741×500, 64 disparities",
                    os.path.join(moto, "motorcycle_left.png"), os.path.join(moto, "motorcycle_right.png"), 64))
    return out


def sgbm(disparities):
    return cv2.StereoSGBM_create(minDisparity=0, numDisparities=disparities, blockSize=5, P1=8 * 3 * 25, P2=32 * 3 * 25,
                                 disp12MaxDiff=1, uniquenessRatio=10, speckleWindowSize=100, speckleRange=2,
                                 mode=cv2.STEREO_SGBM_MODE_SGBM_3WAY)


def parallax_round(left, right, disparities, calls, out):
    """Median time (s) of `calls` warm calls of Parallax's matcher, in one process."""
    r = subprocess.run([binary, left, right, out, str(disparities), str(calls), "1", "8", "1"],
                       capture_output=True, text=True, check=True)
    return json.loads(r.stdout)["median_ms"] / 1000


def opencv_round(matcher, left, right, calls):
    """Median time (s) of `calls` warm calls of OpenCV's matcher (one untimed call first)."""
    matcher.compute(left, right)
    times = []
    for _ in range(calls):
        t0 = time.perf_counter()
        matcher.compute(left, right)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def measure(args):
    cv2.setNumThreads(1)
    if not os.path.exists(binary):
        raise SystemExit(f"{binary} is missing: swift build -c release --package-path Benchmarks --product stereo-benchmark")
    calls = max(1, getattr(args, "calls", 3) or 3)
    rows = []
    found = pairs(args)
    if not any("Aloe" in name for name, *_ in found):
        print("sgm: the Aloe pair was not found (apt-get install opencv-doc, or --aloe DIR / $PARALLAX_ALOE): measuring Motorcycle only")
    with tempfile.TemporaryDirectory() as tmp:
        for name, left_path, right_path, disparities in found:
            left, right = cv2.imread(left_path), cv2.imread(right_path)
            matcher = sgbm(disparities)
            ours, theirs = [], []
            for k in range(args.rounds):
                out = os.path.join(tmp, "disp.pfm")
                if k % 2 == 0:
                    theirs.append(opencv_round(matcher, left, right, calls))
                    ours.append(parallax_round(left_path, right_path, disparities, calls, out))
                else:
                    ours.append(parallax_round(left_path, right_path, disparities, calls, out))
                    theirs.append(opencv_round(matcher, left, right, calls))
            rows.append({"kernel": name, "parallax_seconds": ours, "opencv_seconds": theirs,
                         "note": f"OpenCV StereoSGBM MODE_SGBM_3WAY (color, blockSize 5); Parallax census 9×7, 8 paths; "
                                 f"median of {calls} warm calls per round"})
    return rows
