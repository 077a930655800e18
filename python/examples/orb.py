"""OpenCV's ORB as a Parallax analyzer: features of every frame matched to the previous (or
first) frame, with a RANSAC homography or fundamental matrix, on CAMERA/matches in the same
payload as the built-in `orb-match`, so the same evaluations score both
(bench/python-orb.yaml compares them). Needs OpenCV: pip install opencv-python-headless.

    parallax run "python:python/examples/orb.py model=fundamental" datasets/euroc_mh01_clip --out out
"""
import cv2
import numpy as np

import parallax


class OpenCVORB(parallax.Analyzer):
    name = "cv-orb"
    summary = "OpenCV ORB matched to the previous or first frame, RANSAC-checked (cv2)"

    frames = parallax.Input("cam0", parallax.CAMERA, doc="the camera's frames")
    matches = parallax.Output("cam0/matches", parallax.MATCHES, like="frames", doc="matches to the reference frame")

    max_features = parallax.Option(1000, doc="ORB features per frame", range=(1, 100000))
    levels = parallax.Option(8, doc="scale pyramid levels", range=(1, 16))
    scale_factor = parallax.Option(1.2, doc="size ratio between pyramid levels", range=(1.01, 2.0))
    fast_threshold = parallax.Option(20, doc="FAST intensity threshold (gray levels)", range=(1, 255))
    reference = parallax.Option("previous", doc="frame to match against", choices=["previous", "first"])
    max_distance = parallax.Option(64, doc="largest descriptor distance accepted (bits of 256)", range=(0, 255))
    ratio = parallax.Option(0.8, doc="Lowe's ratio test (1 disables)", range=(0.01, 1.0))
    model = parallax.Option("homography", doc="geometry checked by RANSAC", choices=["homography", "fundamental", "none"])
    ransac_threshold = parallax.Option(3.0, doc="RANSAC inlier threshold (px)", range=(1e-6, 1000.0))

    def open(self):
        self.orb = cv2.ORB_create(nfeatures=self.max_features, scaleFactor=self.scale_factor, nlevels=self.levels,
                                  fastThreshold=self.fast_threshold)
        self.matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
        self.previous = None
        cv2.setRNGSeed(1)  # RANSAC draws the same samples every run

    def process(self, frame, inputs):
        image = frame.image if frame.image.ndim == 2 else cv2.cvtColor(frame.image, cv2.COLOR_RGB2GRAY)
        keypoints, descriptors = self.orb.detectAndCompute(image, None)
        current = (frame.t, keypoints, descriptors)
        if self.previous is not None:
            self.emit(self.matches, self.match(self.previous, current, frame.stream))
        if self.previous is None or self.reference == "previous":
            self.previous = current

    def match(self, ref, cur, camera):
        (t0, k0, d0), (_, k1, d1) = ref, cur
        pairs = []
        if d0 is not None and d1 is not None and len(k0) >= 2 and len(k1) >= 2:
            for m in self.matcher.knnMatch(d0, d1, k=2):
                if len(m) == 2 and m[0].distance <= self.max_distance and m[0].distance < self.ratio * m[1].distance:
                    pairs.append(m[0])
        pairs.sort(key=lambda m: m.queryIdx)
        p0 = np.float64([k0[m.queryIdx].pt for m in pairs]).reshape(-1, 2)
        p1 = np.float64([k1[m.trainIdx].pt for m in pairs]).reshape(-1, 2)
        inliers, model = np.ones(len(pairs), dtype=bool), None
        if self.model != "none" and len(pairs) >= 8:
            if self.model == "homography":
                H, mask = cv2.findHomography(p0, p1, cv2.RANSAC, self.ransac_threshold)
            else:
                H, mask = cv2.findFundamentalMat(p0, p1, cv2.FM_RANSAC, self.ransac_threshold, 0.999)
            if H is not None and H.shape == (3, 3) and mask is not None:
                inliers = mask.ravel().astype(bool)
                model = {"kind": self.model, "rowMajor": [float(v) for v in H.reshape(-1)]}
        return {"camera": camera, "referenceTimestamp": int(t0), "featureCount": len(cur[1]), "referenceFeatureCount": len(k0),
                "matches": [{"referencePixel": [float(a[0]), float(a[1])], "pixel": [float(b[0]), float(b[1])],
                             "distance": int(m.distance), "inlier": bool(i)} for m, a, b, i in zip(pairs, p0, p1, inliers)],
                "model": model}
