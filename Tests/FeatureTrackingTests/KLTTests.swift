import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxTesting
@testable import FeatureTracking
@testable import ParallaxVision

/// A smooth analytic texture with 2D structure everywhere, sampled exactly at any position.
func texture(_ x: Double, _ y: Double) -> Double {
    128 + 35 * sin(0.31 * x + 0.17 * y) + 30 * sin(-0.23 * x + 0.41 * y + 1) + 25 * sin(0.53 * x - 0.29 * y + 2)
        + 20 * cos(0.07 * x * sin(0.05 * y) + 0.37 * y)
}

/// The texture seen through a map from image coordinates to texture coordinates.
func render(width: Int = 320, height: Int = 240, _ map: (Double, Double) -> (Double, Double)) -> GrayImage {
    var image = GrayImage(width: width, height: height)
    for y in 0..<height { for x in 0..<width { let (u, v) = map(Double(x), Double(y)); image[x, y] = Float(texture(u, v)) } }
    return image
}

@Suite struct PyramidalLucasKanadeTests {
    let lk = PyramidalLucasKanade()

    func corners(_ image: GrayImage) -> [Vector2] {
        var d = ShiTomasiDetector()
        d.border = 16
        return d.detect(image).map(\.position)
    }

    @Test func knownShiftIsTrackedToFiveHundredthsOfAPixel() {
        let shift = Vector2(2.3, -1.7)
        let a = render { ($0, $1) }
        let b = render { ($0 - shift.x, $1 - shift.y) }   // content moves by +shift
        let points = corners(a)
        #expect(points.count > 50)
        let tracked = lk.track(points, from: lk.prepare(a), to: lk.prepare(b, gradients: false))
        var errors: [Double] = []
        for (p, r) in zip(points, tracked) { if case let .success(q) = r { errors.append(((q - p) - shift).norm) } }
        #expect(errors.count >= points.count * 9 / 10)
        #expect(errors.sorted()[errors.count / 2] < 0.05, "median error \(errors.sorted()[errors.count / 2]) px")
        #expect(errors.sorted()[errors.count * 9 / 10] < 0.05)
    }

    @Test func knownHomographyIsTrackedToFiveHundredthsOfAPixel() {
        // A small rotation + scale about the image centre + shift, as a homography with tiny perspective.
        let h = Matrix3(rows: Vector3(1.01 * cos(0.02), -sin(0.02), 3), Vector3(sin(0.02), 1.01 * cos(0.02), -2), Vector3(1e-5, -1e-5, 1))
        guard let hinv = h.inverse else { Issue.record("singular"); return }
        func apply(_ m: Matrix3, _ p: Vector2) -> Vector2 { let q = m * Vector3(p.x - 160, p.y - 120, 1); return Vector2(q.x / q.z + 160, q.y / q.z + 120) }
        let a = render { ($0, $1) }
        let b = render { x, y in let p = apply(hinv, Vector2(x, y)); return (p.x, p.y) }
        let points = corners(a).filter { $0.x > 30 && $0.x < 290 && $0.y > 30 && $0.y < 210 }
        let tracked = lk.track(points, from: lk.prepare(a), to: lk.prepare(b, gradients: false))
        var errors: [Double] = []
        for (p, r) in zip(points, tracked) { if case let .success(q) = r { errors.append((q - apply(h, p)).norm) } }
        #expect(errors.count > 30)
        let median = errors.sorted()[errors.count / 2]
        #expect(median < 0.05, "median error \(median) px")
    }

    @Test func blankImagesGiveNoFeaturesAndLowTexture() {
        let blank = GrayImage(width: 160, height: 120, value: 77)
        #expect(ShiTomasiDetector().detect(blank).isEmpty)
        let r = lk.track([Vector2(80, 60)], from: lk.prepare(blank), to: lk.prepare(blank))
        #expect(r.count == 1)
        if case .failure(.lowTexture) = r[0] {} else { Issue.record("expected lowTexture, got \(r[0])") }
        // A window sticking out of the image is fine (the margin is reflected, as in OpenCV); a
        // point outside the image is not.
        let shift = Vector2(1.5, 0.5)
        let edge = lk.track([Vector2(2, 2), Vector2(-3, 5)], from: lk.prepare(render { ($0, $1) }), to: lk.prepare(render { ($0 - shift.x, $1 - shift.y) }))
        if case let .success(q) = edge[0] { #expect((q - Vector2(3.5, 2.5)).norm < 0.1, "\(q)") } else { Issue.record("expected a track, got \(edge[0])") }
        if case .failure(.outOfImage) = edge[1] {} else { Issue.record("expected outOfImage, got \(edge[1])") }
    }
}

@Suite struct FundamentalMatrixTests {
    @Test func eightPointFitsTwoViews() throws {
        // Random 3D points seen by two cameras (K·[R|t]): the epipolar constraint holds exactly.
        var rng = SeededGenerator(seed: 3)
        let k = Matrix3(rows: Vector3(400, 0, 320), Vector3(0, 400, 240), Vector3(0, 0, 1))
        let r = SO3.exp(Vector3(0.05, -0.1, 0.02)), t = Vector3(0.3, 0.05, 0.02)
        var a: [Vector2] = [], b: [Vector2] = []
        for _ in 0..<40 {
            let p = Vector3(Double.random(in: -2...2, using: &rng), Double.random(in: -1.5...1.5, using: &rng), Double.random(in: 3...8, using: &rng))
            let q = r * p + t
            let pa = k * p, pb = k * q
            a.append(Vector2(pa.x / pa.z, pa.y / pa.z)); b.append(Vector2(pb.x / pb.z, pb.y / pb.z))
        }
        let f = try #require(FundamentalMatrix.eightPoint(a, b))
        for (p, q) in zip(a, b) { #expect(FundamentalMatrix.sampsonError(f, p, q) < 1e-6) }
        #expect(FundamentalMatrix.sampsonError(f, a[0], b[0] + Vector2(0, 5)) > 0.5)
        #expect(FundamentalMatrix.eightPoint(Array(a.prefix(7)), Array(b.prefix(7))) == nil)
    }
}

@Suite struct KLTAnalyzerTests {
    static let cam = StreamKey<CameraFrame>("cam0")

    static func frame(_ image: GrayImage) -> CameraFrame {
        CameraFrame(cameraID: "cam0", image: ImageBuffer(width: image.width, height: image.height,
                                                         samples: image.pixels.map { UInt8(min(255, max(0, $0.rounded()))) }))
    }

    /// Frames of the texture panning by (1.5, 0.8) px per frame.
    static func panning(_ n: Int) -> [CameraFrame] {
        (0..<n).map { k in frame(render { ($0 + 1.5 * Double(k), $1 + 0.8 * Double(k)) }) }
    }

    @Test func idsStayStableAndAgesGrow() throws {
        var harness = AnalyzerHarness { try KLTAnalyzer(options: .init()) }
        for (k, f) in Self.panning(6).enumerated() { harness.push(f, on: Self.cam, at: Timestamp(nanoseconds: Int64(k) * 50_000_000)) }
        let out: [Packet<FeatureTracks>] = try harness.run().packets(on: "cam0/tracks")
        #expect(out.count == 6)
        let first = Dictionary(uniqueKeysWithValues: out[0].payload.features.map { ($0.id, $0.pixel) })
        #expect(first.count > 50)
        let last = out[5].payload
        let survivors = last.features.filter { first[$0.id] != nil }
        #expect(survivors.count > first.count / 2)
        for f in survivors {
            #expect(f.age == 6)
            // Content moves by −(1.5, 0.8) per frame.
            #expect((f.pixel - (first[f.id]! - Vector2(7.5, 4))).norm < 0.2)
        }
        #expect(Set(last.features.map(\.id)).count == last.features.count)
    }

    /// With `refill_below`, new corners are looked for only once the tracked share drops below
    /// it: while the panning texture slides features out of view, no new id appears until then.
    @Test func refillsOnlyBelowTheShareAsked() throws {
        var options = KLTAnalyzer.Options()
        options.tracker.maxFeatures = 100
        options.tracker.refillBelow = 0.7
        var harness = AnalyzerHarness { try KLTAnalyzer(options: options) }
        let frames = (0..<16).map { k in Self.frame(render { ($0 + 12 * Double(k), $1) }) }
        for (k, f) in frames.enumerated() { harness.push(f, on: Self.cam, at: Timestamp(nanoseconds: Int64(k) * 50_000_000)) }
        let out: [Packet<FeatureTracks>] = try harness.run().packets(on: "cam0/tracks")
        #expect(out.count == 16)
        var known = Set(out[0].payload.features.map(\.id))
        var refills = 0
        for k in 1..<out.count {
            let ids = out[k].payload.features.map(\.id)
            let new = ids.filter { !known.contains($0) }
            let tracked = ids.count - new.count
            if new.isEmpty {
                #expect(ids.count < 100 || tracked == 100)
            } else {
                refills += 1
                // Only a frame that tracked fewer than 70 of 100 looks for more.
                #expect(tracked < 70, "frame \(k) tracked \(tracked) and added \(new.count)")
            }
            known.formUnion(ids)
        }
        // Features leave the view at 12 px a frame: some frames refill, some do not.
        #expect(refills > 0 && refills < out.count - 1)
    }

    @Test func blankFramesAndSizeChanges() throws {
        var harness = AnalyzerHarness { try KLTAnalyzer(options: .init()) }
        harness.push(Self.frame(GrayImage(width: 160, height: 120, value: 50)), on: Self.cam, at: Timestamp(nanoseconds: 1))
        harness.push(Self.frame(render { ($0, $1) }), on: Self.cam, at: Timestamp(nanoseconds: 2))
        harness.push(Self.frame(render(width: 200, height: 150) { ($0, $1) }), on: Self.cam, at: Timestamp(nanoseconds: 3))
        let result = try harness.run()
        let out: [Packet<FeatureTracks>] = result.packets(on: "cam0/tracks")
        #expect(out.count == 3)
        #expect(out[0].payload.features.isEmpty)
        #expect(!out[1].payload.features.isEmpty)
        #expect(out[2].payload.ended.count == out[1].payload.features.count)
        #expect(out[2].payload.ended.allSatisfy { $0.reason == .frameSizeChanged })
        #expect(result.report.warnings.contains { $0.contains("frame size changed from 320×240 to 200×150") })
    }

    @Test func keepsTheAnalyzerContract() throws {
        let problems = try AnalyzerVerifier.verify({ try KLTAnalyzer(options: .init()) }) { harness in
            for (k, f) in Self.panning(3).enumerated() { harness.push(f, on: Self.cam, at: Timestamp(nanoseconds: Int64(k) * 50_000_000)) }
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func badOptionsAreRefused() {
        var o = KLTAnalyzer.Options()
        o.tracker.window = 20
        #expect(throws: AnalyzerError.self) { _ = try KLTAnalyzer(options: o) }
    }
}

@Suite struct FASTDetectorTests {
    /// Dark squares on a bright background: FAST fires at the square corners.
    @Test func findsSquareCornersAndNothingOnFlatImages() {
        var image = GrayImage(width: 120, height: 90, value: 200)
        let squares = [(20, 20), (70, 30), (40, 55)]
        for (x0, y0) in squares { for y in y0..<(y0 + 20) { for x in x0..<(x0 + 20) { image[x, y] = 40 } } }
        var fast = FASTDetector()
        fast.minDistance = 3
        let corners = fast.detect(image)
        #expect(corners.count >= 12)
        let expected = squares.flatMap { (x, y) in [Vector2(Double(x), Double(y)), Vector2(Double(x + 19), Double(y)), Vector2(Double(x), Double(y + 19)), Vector2(Double(x + 19), Double(y + 19))] }
        for e in expected { #expect(corners.contains { ($0.position - e).norm <= 1.5 }, "no corner near \(e)") }
        #expect(FASTDetector().detect(GrayImage(width: 60, height: 40, value: 90)).isEmpty)
    }

    @Test func kltRunsWithFAST() throws {
        var options = KLTAnalyzer.Options()
        options.tracker.detector = .fast
        var harness = AnalyzerHarness { try KLTAnalyzer(options: options) }
        for (k, f) in KLTAnalyzerTests.panning(3).enumerated() { harness.push(f, on: KLTAnalyzerTests.cam, at: Timestamp(nanoseconds: Int64(k))) }
        let out: [Packet<FeatureTracks>] = try harness.run().packets(on: "cam0/tracks")
        #expect(out.count == 3 && out[0].payload.features.count > 20)
        // A detector that does not exist is refused when the chain is read, naming the choices.
        var registry = AnalyzerRegistry()
        registry.register(KLTAnalyzer.self)
        #expect { _ = try registry.make("klt", options: ["detector": "harris"]) } throws: { error in
            "\(error)".contains("'detector' = 'harris': expected one of shi-tomasi, fast")
        }
    }
}
