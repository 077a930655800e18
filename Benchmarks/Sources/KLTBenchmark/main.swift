// Parallax's KLT on the inputs the OpenCV reference script gives it; prints JSON.
//
//   klt-benchmark accuracy FRAME0 FRAME1 FLO CORNERS.txt [EPS ITER]  # EPE of tracked corners vs .flo
//   klt-benchmark speed FRAME0 FRAME1 [REPEATS]               # ms per detection / tracking (one thread)
//   klt-benchmark track FRAME0 FRAME1 CORNERS.txt [REPEATS]   # ms per tracking of given corners (pyramids included)
//   klt-benchmark homography IMAGE1 IMAGEK H_1_K [FEATURES] [REPEATS]  # ORB matches vs a true homography
//   klt-benchmark triangulate [POINTS]                        # two-view triangulation throughput
//
// Run by Benchmarks/reference/klt_vs_opencv.py, which does the same with OpenCV in the same run.
import FeatureTracking
import Foundation
import Parallax

func load(_ path: String) throws -> GrayImage { GrayImage(try ImageDecoder.decodeGray8(path: path)) }

/// As the analyzers see a frame: color converted by `GrayImage` (BT.601 in floating point).
func loadAsFrame(_ path: String) throws -> GrayImage { GrayImage(try ImageDecoder.decode8Bit(path: path)) }

/// Corners, one `x y` pair (px) a line.
func readCorners(_ path: String) throws -> [Vector2] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line -> Vector2? in
        let f = line.split(separator: " ").compactMap { Double($0) }
        return f.count == 2 ? Vector2(f[0], f[1]) : nil
    }
}

func milliseconds(_ body: () -> Void) -> Double {
    let start = ContinuousClock.now
    body()
    return (ContinuousClock.now - start).seconds * 1000
}

// Keep freed image buffers in the heap (as the parallax CLI does): no page faults per frame.
ProcessMemory.keepFreedBuffers()

let args = Array(CommandLine.arguments.dropFirst())
guard let mode = args.first else { print("usage: klt-benchmark accuracy|speed …"); exit(2) }
let lk = PyramidalLucasKanade()

switch mode {
case "accuracy":
    let i0 = try load(args[1]), i1 = try load(args[2])
    let flow = try DenseFiles.readFlo(path: args[3])
    let corners = try readCorners(args[4])
    // Optional stopping criteria (default OpenCV's 0.01 px / 30 iterations, as the script uses).
    var lk = lk
    if args.count > 6, let epsilon = Float(args[5]), let iterations = Int(args[6]) { lk.epsilon = epsilon; lk.maxIterations = iterations }
    let tracked = lk.track(corners, from: lk.prepare(i0), to: lk.prepare(i1, gradients: false))
    var errors: [Double] = []
    var ok = 0
    var positions: [String] = []
    for (p, r) in zip(corners, tracked) {
        guard case let .success(q) = r else { positions.append("null"); continue }
        positions.append("[\(q.x), \(q.y)]")
        ok += 1
        guard let g = flow.sample(x: p.x, y: p.y) else { continue }
        errors.append(((q - p) - Vector2(g.u, g.v)).norm)
    }
    let s = ErrorStatistics(errors)
    print("{\"tracked\": \(ok), \"withGT\": \(errors.count), \"median\": \(s.median), \"mean\": \(s.mean), \"p90\": \(ErrorStatistics.percentile(errors, 0.9)), \"under05\": \(AnalyzerMetrics.fraction(errors, below: 0.5)), \"positions\": [\(positions.joined(separator: ", "))]}")
case "speed":
    let i0 = try load(args[1]), i1 = try load(args[2])
    let repeats = args.count > 3 ? Int(args[3])! : 20
    var detector = ShiTomasiDetector()
    detector.maxCorners = 200
    var corners: [ShiTomasiDetector.Corner] = []
    let detect = (0..<repeats).map { _ in milliseconds { corners = detector.detect(i0) } }.sorted()
    let points = corners.map(\.position)
    var tracked = 0
    let track = (0..<repeats).map { _ in milliseconds {
        // As cv2.calcOpticalFlowPyrLK on two images: both pyramids, template gradients of the first.
        let r = lk.track(points, from: lk.prepare(i0), to: lk.prepare(i1, gradients: false))
        tracked = r.filter { if case .success = $0 { return true } else { return false } }.count
    } }.sorted()
    let p0 = lk.prepare(i0), p1 = lk.prepare(i1, gradients: false)
    let prepareFrom = (0..<repeats).map { _ in milliseconds { _ = lk.prepare(i0) } }.sorted()
    let prepareTo = (0..<repeats).map { _ in milliseconds { _ = lk.prepare(i1, gradients: false) } }.sorted()
    let lkOnly = (0..<repeats).map { _ in milliseconds { _ = lk.track(points, from: p0, to: p1) } }.sorted()
    print("{\"prepareFromMinMs\": \(prepareFrom[0]), \"prepareToMinMs\": \(prepareTo[0]), \"lkMinMs\": \(lkOnly[0]), \"corners\": \(corners.count), \"tracked\": \(tracked), \"detectMs\": \(detect[detect.count / 2]), \"trackMs\": \(track[track.count / 2]), \"detectMinMs\": \(detect[0]), \"trackMinMs\": \(track[0])}")
case "track":
    // The kernels_vs_opencv.py row: the caller's corners (OpenCV's), both pyramids and the
    // template gradients built per call, as cv2.calcOpticalFlowPyrLK given two images.
    let i0 = try load(args[1]), i1 = try load(args[2])
    let points = try readCorners(args[3])
    let repeats = args.count > 4 ? max(1, Int(args[4]) ?? 20) : 20
    var results: [Result<Vector2, PyramidalLucasKanade.Failure>] = []
    results = lk.track(points, from: lk.prepare(i0), to: lk.prepare(i1, gradients: false))  // warm-up
    let times = (0..<repeats).map { _ in milliseconds {
        results = lk.track(points, from: lk.prepare(i0), to: lk.prepare(i1, gradients: false))
    } }.sorted()
    // FNV-1a over the end points' bits (and the failures): equal digests, identical outputs.
    var digest: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ v: UInt64) { for k in 0..<8 { digest = (digest ^ ((v >> (8 * UInt64(k))) & 0xff)) &* 0x100_0000_01b3 } }
    var positions: [String] = []
    for r in results {
        switch r {
        case let .success(q): mix(q.x.bitPattern); mix(q.y.bitPattern); positions.append("[\(q.x), \(q.y)]")
        case let .failure(f): mix(f == .outOfImage ? 1 : 2); positions.append("null")
        }
    }
    let tracked = results.filter { if case .success = $0 { return true } else { return false } }.count
    print("{\"corners\": \(points.count), \"tracked\": \(tracked), \"trackMs\": \(times[times.count / 2]), \"trackMinMs\": \(times[0]), "
        + "\"digest\": \"\(String(digest, radix: 16))\", \"positions\": [\(positions.joined(separator: ", "))]}")
case "triangulate":
    // Two-view triangulation of N points (normalized coordinates in; world points out):
    // DLT + Gauss–Newton + checks per point, as the triangulate analyzer runs it.
    let n = args.count > 1 ? Int(args[1])! : 10_000
    var rng = SeededGenerator(seed: 1)
    let b = SE3(rotation: .exp(Vector3(0, 0.05, 0)), translation: Vector3(0.2, 0, 0))
    let points = (0..<n).map { _ in Vector3(Double.random(in: -2...2, using: &rng), Double.random(in: -1...1, using: &rng), Double.random(in: 2...8, using: &rng)) }
    let views = points.map { p -> [MultiViewTriangulation.Observation] in
        let c = b.inverse * p
        return [.init(worldFromCamera: .identity, normalized: Vector2(p.x / p.z, p.y / p.z)), .init(worldFromCamera: b, normalized: Vector2(c.x / c.z, c.y / c.z))]
    }
    var ok = 0
    // Median of 5 passes: the first one also competes with OpenBLAS's worker threads, which
    // spin for ~0.1 s after the process starts.
    let ms = (0..<5).map { _ in milliseconds {
        ok = 0
        for v in views { if case .success = MultiViewTriangulation.triangulate(v, minParallaxDegrees: 0, maxRMSNormalized: 1) { ok += 1 } }
    } }.sorted()[2]
    print("{\"points\": \(n), \"triangulated\": \(ok), \"pointsPerSecond\": \(Double(n) / (ms / 1000))}")
case "homography":
    // ORB (features per image) + Hamming matching (ratio 0.8, cross-check) + RANSAC homography
    // (3 px), as the orb-match analyzer runs them; evaluated against the true homography.
    let a = try loadAsFrame(args[1]), b = try loadAsFrame(args[2])
    let truth = try HomographyFile.read(path: args[3])
    let count = args.count > 4 ? Int(args[4])! : 1000
    let repeats = args.count > 5 ? Int(args[5])! : 5
    var orb = ORBExtractor()
    orb.maxFeatures = count
    var fa: [ORBFeature] = [], fb: [ORBFeature] = []
    let extract = (0..<repeats).map { _ in milliseconds { fa = orb.extract(a) } }.sorted()
    fb = orb.extract(b)
    let matcher = DescriptorMatcher()
    var matches: [DescriptorMatcher.Match] = []
    let match = (0..<repeats).map { _ in milliseconds { matches = matcher.match(fa.map(\.descriptor), fb.map(\.descriptor)) } }.sorted()
    let pairs = matches.map { (fa[$0.queryIndex].pixel, fb[$0.trainIndex].pixel) }
    let errors = HomographyMetrics.matchErrors(pairs, truth: truth)
    var inlierErrors: [Double] = [], cornerError = Double.infinity, inliers = 0
    let ransac = milliseconds {
        if let estimate = Homography.estimate(pairs.map(\.0), pairs.map(\.1), threshold: 3) {
            inliers = estimate.inliers.count
            inlierErrors = estimate.inliers.map { errors[$0] }
            cornerError = HomographyMetrics.cornerError(estimated: estimate.homography, truth: truth, width: a.width, height: a.height)
        }
    }
    let median = inlierErrors.isEmpty ? Double.nan : ErrorStatistics(inlierErrors).median
    func json(_ x: Double) -> String { x.isFinite ? "\(x)" : "null" }
    print("{\"features\": [\(fa.count), \(fb.count)], \"matches\": \(matches.count), \"correct3px\": \(errors.filter { $0 <= 3 }.count), "
        + "\"inliers\": \(inliers), \"inlierMedianError\": \(json(median)), \"cornerError\": \(json(cornerError)), "
        + "\"extractMs\": \(extract[extract.count / 2]), \"matchMs\": \(match[match.count / 2]), \"ransacMs\": \(ransac)}")
default:
    print("unknown mode \(mode)"); exit(2)
}
