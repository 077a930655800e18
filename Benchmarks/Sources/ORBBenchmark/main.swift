// Parallax's ORB kernels on the inputs Benchmarks/reference/kernels/orb.py gives it, timed in
// process, one thread; driven round by round so the script can alternate with OpenCV.
//
//   orb-benchmark extract    IMAGE...          # one ORB extraction (1000 features) per image
//   orb-benchmark match      IMAGE1 IMAGE...   # Hamming matching (ratio 0.8, mutual) of image 1 against each image
//   orb-benchmark homography IMAGE1 IMAGE...   # extraction of both + matching + RANSAC homography (3 px), 1→k
//   orb-benchmark sequence   FRAME...          # each frame extracted once, matched to the previous one, RANSAC homography
//
// Options (after the mode): `--repeat N` runs N timed passes and exits (for callgrind);
// without it the program prints `ready` after one untimed warm-up pass and then runs one timed
// pass per line read on standard input, printing one JSON line per pass:
// `{"seconds": S, "features": F, "matches": M, "inliers": I, "digest": "…"}` (the counts and the
// digest of the features let the script check that every pass did the same work).
// Images are read as the analyzers read a frame (color converted by `GrayImage`, BT.601 in
// floating point).
import Foundation
import ParallaxBus
import ParallaxCodecs
import ParallaxImage
import ParallaxMath
import ParallaxVision

ProcessMemory.keepFreedBuffers()

var args = Array(CommandLine.arguments.dropFirst())
var repeats: Int?
if let i = args.firstIndex(of: "--repeat"), i + 1 < args.count {
    repeats = Int(args[i + 1])
    args.removeSubrange(i...(i + 1))
}
guard args.count >= 2, ["extract", "match", "homography", "sequence"].contains(args[0]) else {
    FileHandle.standardError.write(Data("usage: orb-benchmark extract|match|homography|sequence IMAGE... [--repeat N]\n".utf8))
    exit(2)
}
let mode = args[0]
let images: [GrayImage]
do {
    images = try args.dropFirst().map { GrayImage(try ImageDecoder.decode8Bit(path: $0)) }
} catch {
    FileHandle.standardError.write(Data("orb-benchmark: \(error)\n".utf8))
    exit(1)
}

let orb: ORBExtractor = {
    var e = ORBExtractor()
    e.maxFeatures = 1000
    return e
}()
let matcher = DescriptorMatcher()

/// What one pass did: counts and an FNV-1a digest of every feature's bits.
struct Outcome { var features = 0, matches = 0, inliers = 0, digest: UInt64 = 0xcbf2_9ce4_8422_2325 }

func mix(_ digest: inout UInt64, _ value: UInt64) {
    for k in 0..<8 { digest = (digest ^ (value >> UInt64(8 * k) & 0xff)) &* 0x100_0000_01b3 }
}

func account(_ features: [ORBFeature], into o: inout Outcome) {
    o.features += features.count
    for f in features {
        mix(&o.digest, f.pixel.x.bitPattern); mix(&o.digest, f.pixel.y.bitPattern)
        mix(&o.digest, UInt64(f.angle.bitPattern)); mix(&o.digest, UInt64(f.response.bitPattern))
        for k in 0..<4 { mix(&o.digest, f.descriptor.words[k]) }
    }
}

func matchAndEstimate(_ a: [ORBFeature], _ b: [ORBFeature], into o: inout Outcome) {
    let matches = matcher.match(a.map(\.descriptor), b.map(\.descriptor))
    o.matches += matches.count
    for m in matches { mix(&o.digest, UInt64(m.queryIndex << 32 | m.trainIndex)) }
    let pa = matches.map { a[$0.queryIndex].pixel }, pb = matches.map { b[$0.trainIndex].pixel }
    if let estimate = Homography.estimate(pa, pb, threshold: 3) { o.inliers += estimate.inliers.count }
}

// Features of image 1, extracted once (the `match` mode times matching only).
let firstFeatures = mode == "match" ? orb.extract(images[0]) : []
let otherFeatures = mode == "match" ? images.dropFirst().map { orb.extract($0) } : []

func pass() -> Outcome {
    var o = Outcome()
    switch mode {
    case "extract":
        for image in images { account(orb.extract(image), into: &o) }
    case "match":
        for b in otherFeatures {
            let matches = matcher.match(firstFeatures.map(\.descriptor), b.map(\.descriptor))
            o.matches += matches.count
            for m in matches { mix(&o.digest, UInt64(m.queryIndex << 32 | m.trainIndex)) }
        }
    case "homography":
        let a = orb.extract(images[0])
        account(a, into: &o)
        for image in images.dropFirst() {
            let b = orb.extract(image)
            account(b, into: &o)
            matchAndEstimate(a, b, into: &o)
        }
    default:  // sequence
        var previous: [ORBFeature]?
        for image in images {
            let b = orb.extract(image)
            account(b, into: &o)
            if let previous { matchAndEstimate(previous, b, into: &o) }
            previous = b
        }
    }
    return o
}

func report(_ seconds: Double, _ o: Outcome) {
    print("{\"seconds\": \(seconds), \"features\": \(o.features), \"matches\": \(o.matches), \"inliers\": \(o.inliers), "
        + "\"digest\": \"\(String(o.digest, radix: 16))\"}")
    fflush(nil)
}

func timed() -> (Double, Outcome) {
    let start = ContinuousClock.now
    let o = pass()
    let d = ContinuousClock.now - start
    return (Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18, o)
}

if let repeats {
    for _ in 0..<max(1, repeats) { let (s, o) = timed(); report(s, o) }
} else {
    _ = pass()  // warm-up: caches, allocator, lazily built tables
    print("ready")
    fflush(nil)
    while readLine() != nil { let (s, o) = timed(); report(s, o) }
}
