"""ORB rows of kernels_vs_opencv.py: Parallax's `orb-benchmark` against OpenCV's ORB, BFMatcher
and findHomography on the same images, round by round, alternating which side runs first.

Both sides: 1000 ORB features per image (8 levels, scale 1.2, FAST threshold 20); brute-force
Hamming matching with Lowe's ratio 0.8, a mutual check and at most 64 bits (OpenCV: knnMatch(k=2)
one way plus match() the other way, as Benchmarks/reference/homography_vs_opencv.py does);
RANSAC homography at 3 px (Parallax: seeded MSAC + refit + Levenberg–Marquardt; OpenCV:
findHomography(RANSAC)). Images as each side's analyzers read them (Parallax: BT.601 gray in
floating point; OpenCV: IMREAD_GRAYSCALE).

    swift build -c release --package-path Benchmarks --product orb-benchmark
"""
import glob, json, os, subprocess, time

import cv2
import numpy as np

MH01_FRAMES = 80


class Parallax:
    """One orb-benchmark process: loads its inputs, warms up, then one timed pass per request."""

    def __init__(self, binary, mode, paths):
        self.proc = subprocess.Popen([binary, mode, *paths], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().strip()
        if line != "ready":
            self.proc.kill()
            raise RuntimeError(f"orb-benchmark {mode}: expected 'ready', got {line!r}")

    def run(self):
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


class OpenCV:
    def __init__(self, mode, paths):
        cv2.setNumThreads(1)
        self.mode = mode
        self.images = [cv2.imread(p, cv2.IMREAD_GRAYSCALE) for p in paths]
        self.orb = cv2.ORB_create(nfeatures=1000, scaleFactor=1.2, nlevels=8, fastThreshold=20)
        self.bf = cv2.BFMatcher(cv2.NORM_HAMMING)
        if mode == "match":
            self.first = self.orb.detectAndCompute(self.images[0], None)
            self.others = [self.orb.detectAndCompute(i, None) for i in self.images[1:]]
        self.pass_()  # warm-up

    def match(self, da, db):
        knn = self.bf.knnMatch(da, db, k=2)
        back = {m.queryIdx: m.trainIdx for m in self.bf.match(db, da)}
        return [p[0] for p in knn if len(p) == 2 and p[0].distance < 0.8 * p[1].distance
                and back.get(p[0].trainIdx) == p[0].queryIdx and p[0].distance <= 64]

    def match_and_estimate(self, a, b, out):
        (ka, da), (kb, db) = a, b
        if da is None or db is None:
            return
        good = self.match(da, db)
        out["matches"] += len(good)
        if len(good) >= 4:
            pa = np.float64([ka[m.queryIdx].pt for m in good]); pb = np.float64([kb[m.trainIdx].pt for m in good])
            h, mask = cv2.findHomography(pa, pb, cv2.RANSAC, 3.0)
            if h is not None:
                out["inliers"] += int(mask.sum())

    def pass_(self):
        out = dict(features=0, matches=0, inliers=0)
        if self.mode == "extract":
            for i in self.images:
                out["features"] += len(self.orb.detectAndCompute(i, None)[0])
        elif self.mode == "match":
            for _, db in self.others:
                out["matches"] += len(self.match(self.first[1], db))
        elif self.mode == "homography":
            a = self.orb.detectAndCompute(self.images[0], None)
            out["features"] += len(a[0])
            for i in self.images[1:]:
                b = self.orb.detectAndCompute(i, None)
                out["features"] += len(b[0])
                self.match_and_estimate(a, b, out)
        else:
            previous = None
            for i in self.images:
                b = self.orb.detectAndCompute(i, None)
                out["features"] += len(b[0])
                if previous is not None:
                    self.match_and_estimate(previous, b, out)
                previous = b
        return out

    def run(self):
        t = time.perf_counter()
        out = self.pass_()
        out["seconds"] = time.perf_counter() - t
        return out


def measure(args):
    binary = os.path.join(args.release, "orb-benchmark")
    churchill = os.path.join(args.shared, "homography", "churchill")
    church = [os.path.join(churchill, f"{k}.ppm") for k in range(1, 7)]
    frames = sorted(glob.glob(os.path.join(args.shared, "euroc", "MH_01_easy_20s", "mav0", "cam0", "data", "*.png")))[:MH01_FRAMES]
    specs = [
        ("ORB extraction, churchill 6 × 768×1024", "extract", church),
        ("Hamming matching 1000 × 1000, churchill 1→2…6", "match", church),
        ("ORB + matching + RANSAC homography, churchill 1→2…6", "homography", church),
        (f"ORB + matching + RANSAC homography, {MH01_FRAMES} real MH_01 frames", "sequence", frames),
    ]
    rows = []
    for kernel, mode, paths in specs:
        row = dict(kernel=kernel, parallax_seconds=[], opencv_seconds=[], note="")
        if not os.path.exists(binary):
            row["note"] = f"{binary} not built (swift build -c release --package-path Benchmarks --product orb-benchmark)"
        elif not paths or not all(os.path.exists(p) for p in paths) or (mode == "sequence" and len(paths) < MH01_FRAMES):
            row["note"] = "input images not found under " + args.shared
        else:
            ours, theirs = Parallax(binary, mode, paths), OpenCV(mode, paths)
            p = o = None
            for k in range(args.rounds):
                if k % 2 == 0:
                    p = ours.run(); o = theirs.run()
                else:
                    o = theirs.run(); p = ours.run()
                row["parallax_seconds"].append(p["seconds"])
                row["opencv_seconds"].append(o["seconds"])
            ours.close()
            row["note"] = ("features/matches/inliers per pass: Parallax "
                           f"{p['features']}/{p['matches']}/{p['inliers']}, OpenCV {o['features']}/{o['matches']}/{o['inliers']}; "
                           f"digest {p['digest']}")
        rows.append(row)
    return rows
