// Parallax's video decoding (ParallaxVideo over Debian's FFmpeg) on the file the OpenCV reference
// script gives it; prints JSON.
//
//   video-benchmark decode FILE gray|rgb [REPEATS]   # frames decoded and frames/s (best of REPEATS passes, one thread)
//
// Run by Benchmarks/reference/video_vs_opencv.py, which times cv2.VideoCapture in the same run.
import Foundation
import Parallax

let args = Array(CommandLine.arguments.dropFirst())
guard args.count >= 3, args[0] == "decode", let pixels = VideoFile.Pixels(rawValue: args[2]) else {
    print("usage: video-benchmark decode FILE gray|rgb [REPEATS]")
    exit(2)
}
let repeats = args.count > 3 ? max(1, Int(args[3]) ?? 3) : 3
var best = Double.infinity
var frames = 0
var checksum = 0
for _ in 0..<repeats {
    let start = ContinuousClock.now
    let video = try VideoFile(path: args[1])
    var n = 0, sum = 0
    while let image = try video.nextFrame(pixels, at: nil) {
        n += 1
        sum &+= Int(image.samples[image.samples.count / 2])
    }
    best = min(best, (ContinuousClock.now - start).seconds)
    frames = n
    checksum = sum
}
print("{\"frames\": \(frames), \"seconds\": \(best), \"fps\": \(Double(frames) / best), \"checksum\": \(checksum)}")
