// Parallax's bilateral depth filter on one depth image; prints JSON with the time per call.
//
//   bilateral-benchmark DEPTH.png OUT.pfm [REPEATS] [WARMUP] [RADIUS] [SIGMA_SPACE] [SIGMAS]
//
// DEPTH.png is a 16-bit TUM depth image (5000 units per metre, 0 = invalid), filtered as the
// `depth-filter` analyzer filters it by default: radius 3 px, σs 2 px, a depth tolerance of 3 σ
// of the Kinect noise model at each pixel's range (`DepthFiltering.bilateral`). WARMUP untimed
// calls (default 1) come first, then REPEATS timed ones (default 5); the times are printed in
// call order with their median, the output written as a PFM (∞ where invalid). Run by
// Benchmarks/reference/kernels/bilateral.py, which times cv2.bilateralFilter on the same depth.
import Foundation
import Parallax

let args = Array(CommandLine.arguments.dropFirst())
guard args.count >= 2 else {
    print("usage: bilateral-benchmark DEPTH.png OUT.pfm [REPEATS] [WARMUP] [RADIUS] [SIGMA_SPACE] [SIGMAS]")
    exit(2)
}
guard case let .gray16(raw) = try ImageDecoder.decode(path: args[0]) else {
    print("\(args[0]): not a 16-bit gray PNG (a TUM depth image)")
    exit(2)
}
let repeats = args.count > 2 ? max(1, Int(args[2]) ?? 5) : 5
let warmup = args.count > 3 ? max(0, Int(args[3]) ?? 1) : 1
let radius = args.count > 4 ? Int(args[4]) ?? 3 : 3
let sigmaSpace = args.count > 5 ? Double(args[5]) ?? 2 : 2
let k = args.count > 6 ? Float(args[6]) ?? 3 : 3
let depth = ImageBuffer<Float>(width: raw.width, height: raw.height,
                               samples: raw.samples.map { $0 == 0 ? Float.nan : Float($0) / 5000 })
let noise = DepthNoise.kinect
var filtered = depth
var times: [Double] = []
for call in 0..<(warmup + repeats) {
    let start = ContinuousClock.now
    filtered = DepthFiltering.bilateral(depth, radius: radius, sigmaSpace: sigmaSpace,
                                        sigmaRange: { z in k * Float(max(noise.sigma(Double(z)), 0.001)) })
    if call >= warmup { times.append((ContinuousClock.now - start).seconds * 1000) }
}
try DenseFiles.writePFM(filtered, path: args[1])
let sorted = times.sorted()
print("{\"median_ms\": \(sorted[sorted.count / 2]), \"times_ms\": \(times)}")
