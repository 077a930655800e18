// Parallax's semi-global matching on one rectified pair; prints JSON with the time per pair.
//
//   stereo-benchmark LEFT RIGHT OUT.pfm [DISPARITIES] [REPEATS] [THREADS] [PATHS] [WARMUP]
//
// The images are matched as the analyzers see a frame (color converted to 8-bit gray), with
// the default options and DISPARITIES (default 64); the disparity is written as a PFM (∞ where
// invalid) and the median time of REPEATS runs (default 5) on THREADS threads (default 1) with PATHS
// aggregation paths (default 8) printed, after WARMUP untimed calls (default 0: the first timed
// call pays for fresh buffers). Run by
// Benchmarks/reference/stereo_vs_opencv.py and Benchmarks/reference/kernels/sgm.py, which do the
// same with OpenCV's StereoSGBM.
import Foundation
import Parallax

let args = Array(CommandLine.arguments.dropFirst())
guard args.count >= 3 else { print("usage: stereo-benchmark LEFT RIGHT OUT.pfm [DISPARITIES] [REPEATS] [THREADS] [PATHS] [WARMUP]"); exit(2) }
ProcessMemory.keepFreedBuffers()
let left = try ImageDecoder.decodeGray8(path: args[0]), right = try ImageDecoder.decodeGray8(path: args[1])
var options = SemiGlobalMatching.Options()
if args.count > 3, let d = Int(args[3]) { options.disparities = d }
let repeats = args.count > 4 ? max(1, Int(args[4]) ?? 5) : 5
if args.count > 5, let t = Int(args[5]) { options.threads = t }
if args.count > 6, let p = Int(args[6]) { options.paths = p }
let warmup = args.count > 7 ? max(0, Int(args[7]) ?? 0) : 0
let matcher = SemiGlobalMatching(options: options)
var times: [Double] = []
var disparity = ImageBuffer<Float>(width: 0, height: 0, repeating: 0)
for _ in 0..<warmup { disparity = try matcher.disparity(left: left, right: right) }
for _ in 0..<repeats {
    let start = ContinuousClock.now
    disparity = try matcher.disparity(left: left, right: right)
    times.append((ContinuousClock.now - start).seconds * 1000)
}
try DenseFiles.writePFM(disparity, path: args[2])
times.sort()
print("{\"median_ms\": \(times[times.count / 2]), \"times_ms\": \(times)}")
