#!/usr/bin/env python3
"""Video decoding speed: Parallax (ParallaxVideo over Debian's FFmpeg) against OpenCV's
cv2.VideoCapture, in the same run, on the same file (default ../shared/data/video/vtest.avi,
768×576 MPEG-4 part 2): every frame decoded to gray (and to RGB), best of 3 passes, one thread
each (FFmpeg's decoder threads off on both sides: Parallax decodes on one thread; OpenCV is told
cv2.setNumThreads(1) and its FFmpeg backend single-threaded through OPENCV_FFMPEG_CAPTURE_OPTIONS).

    swift build -c release --package-path Benchmarks --product video-benchmark
    pip install opencv-python-headless
    python3 Benchmarks/reference/video_vs_opencv.py [FILE]
"""
import json, os, subprocess, sys, time
os.environ["OPENCV_FFMPEG_CAPTURE_OPTIONS"] = "threads;1"
import cv2

cv2.setNumThreads(1)
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "..", ".."))
binary = os.path.join(root, "Benchmarks", ".build", "release", "video-benchmark")
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", "shared", "data", "video", "vtest.avi")

def opencv(gray):
    best, frames = float("inf"), 0
    for _ in range(3):
        start = time.perf_counter()
        cap = cv2.VideoCapture(path, cv2.CAP_FFMPEG)
        n = 0
        while True:
            ok, frame = cap.read()
            if not ok:
                break
            if gray:
                frame = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
            else:
                frame = cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)
            n += 1
        cap.release()
        best = min(best, time.perf_counter() - start)
        frames = n
    return frames, best

print(f"{path}")
for pixels in ["gray", "rgb"]:
    ours = json.loads(subprocess.run([binary, "decode", path, pixels, "3"], check=True, capture_output=True, text=True).stdout)
    frames, seconds = opencv(pixels == "gray")
    theirs = frames / seconds
    print(f"{pixels:>4}: Parallax {ours['frames']} frames, {ours['fps']:.0f} frames/s; OpenCV {frames} frames, {theirs:.0f} frames/s; ratio {ours['fps'] / theirs:.2f}")
