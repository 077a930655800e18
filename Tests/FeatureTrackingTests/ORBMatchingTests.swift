import Foundation
import Testing
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxCodecs
import ParallaxEval
import ParallaxImage
import ParallaxMath
import ParallaxTesting
@testable import FeatureTracking
@testable import ParallaxVision

/// The bundled TUM RGB-D office frame (640×480), as gray: real texture at many scales.
let officeImage: GrayImage = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let path = root.appendingPathComponent("datasets/tum_rgbd_frame/rgb/1341847980.722988.png").path
    return GrayImage(try! ImageDecoder.decodeGray8(path: path))
}()

/// `image` seen through `h` (content at `p` moves to `h·p`), bilinear, gray 0 outside.
func warp(_ image: GrayImage, _ h: Matrix3) -> GrayImage {
    let inverse = h.inverse!
    var out = GrayImage(width: image.width, height: image.height)
    for y in 0..<image.height {
        for x in 0..<image.width {
            guard let p = inverse.transferring(Vector2(Double(x), Double(y))),
                  p.x >= 0, p.y >= 0, p.x < Double(image.width - 1), p.y < Double(image.height - 1) else { continue }
            out[x, y] = image.bilinear(Float(p.x), Float(p.y))
        }
    }
    return out
}

/// Rotation by `angle` and zoom by `scale` about the image centre, plus a little perspective.
func zoomAndRotate(scale: Double, angle: Double, perspective: Double = 0) -> Matrix3 {
    let c = Vector2(320, 240)
    let toCentre = Matrix3(rows: Vector3(1, 0, -c.x), Vector3(0, 1, -c.y), Vector3(0, 0, 1))
    let back = Matrix3(rows: Vector3(1, 0, c.x), Vector3(0, 1, c.y), Vector3(0, 0, 1))
    let r = Matrix3(rows: Vector3(scale * cos(angle), -scale * sin(angle), 0), Vector3(scale * sin(angle), scale * cos(angle), 0),
                    Vector3(perspective, 0, 1))
    return back * r * toCentre
}

/// Largest distance between `estimated · p` and `truth · p` over a 10 px grid of the 640×480
/// first image (or the box `within`), for the points the truth maps into the second image (px).
func overlapError(_ estimated: Matrix3, _ truth: Matrix3, within box: (Vector2, Vector2) = (Vector2(0, 0), Vector2(639, 479))) -> Double {
    var worst = 0.0
    for y in stride(from: box.0.y, through: box.1.y, by: 10) {
        for x in stride(from: box.0.x, through: box.1.x, by: 10) {
            guard let t = truth.transferring(Vector2(x, y)), t.x >= 0, t.y >= 0, t.x <= 639, t.y <= 479 else { continue }
            worst = max(worst, Homography.transferError(estimated, Vector2(x, y), t))
        }
    }
    return worst
}

@Suite struct HomographyTests {
    let truth = Matrix3(rows: Vector3(1.2, 0.1, 15), Vector3(-0.05, 0.9, -8), Vector3(2e-4, -1e-4, 1))

    func points(_ n: Int, seed: UInt64) -> [Vector2] {
        var rng = SeededGenerator(seed: seed)
        return (0..<n).map { _ in Vector2(Double.random(in: 0...640, using: &rng), Double.random(in: 0...480, using: &rng)) }
    }

    @Test func directLinearTransformIsExactOnFourAndManyPoints() throws {
        for n in [4, 50] {
            let a = points(n, seed: UInt64(n)), b = a.map { truth.transferring($0)! }
            let h = try #require(Homography.directLinearTransform(a, b))
            for i in 0..<9 { #expect(abs(h[i / 3, i % 3] - truth[i / 3, i % 3]) < 1e-8 * max(1, abs(truth[i / 3, i % 3]))) }
        }
    }

    @Test func degenerateSamplesAreRefused() {
        let line = (0..<4).map { Vector2(Double($0), 2 * Double($0) + 1) }
        let square = [Vector2(0, 0), Vector2(1, 0), Vector2(0, 1), Vector2(1, 1)]
        #expect(Homography.directLinearTransform(line, square) == nil)
        #expect(Homography.directLinearTransform(square, line) == nil)
        #expect(Homography.directLinearTransform(Array(square.prefix(3)), Array(square.prefix(3))) == nil)
    }

    @Test func ransacFindsTheModelAmongOutliersAndRefinementLowersTheError() throws {
        var rng = SeededGenerator(seed: 7)
        let a = points(300, seed: 3)
        var b = a.map { truth.transferring($0)! + Vector2(rng.nextGaussian(), rng.nextGaussian()) * 0.5 }
        for i in stride(from: 0, to: 300, by: 3) { b[i] = Vector2(Double.random(in: 0...640, using: &rng), Double.random(in: 0...480, using: &rng)) }
        let estimate = try #require(Homography.estimate(a, b, threshold: 3))
        let outliers = Set(stride(from: 0, to: 300, by: 3))
        #expect(estimate.inliers.filter { outliers.contains($0) }.count < 5)
        #expect(estimate.inliers.count >= 190)
        #expect(HomographyMetrics.cornerError(estimated: estimate.homography, truth: truth, width: 640, height: 480) < 0.5)
        // LM on the transfer error never does worse than the algebraic DLT on the same inliers.
        let ia = estimate.inliers.map { a[$0] }, ib = estimate.inliers.map { b[$0] }
        let dlt = try #require(Homography.directLinearTransform(ia, ib))
        let refined = try #require(Homography.refine(dlt, ia, ib))
        func cost(_ h: Matrix3) -> Double { zip(ia, ib).reduce(0) { $0 + pow(Homography.transferError(h, $1.0, $1.1), 2) } }
        #expect(cost(refined) <= cost(dlt))
        // Same seed, same result.
        #expect(Homography.estimate(a, b, threshold: 3)!.homography == estimate.homography)
    }
}

@Suite struct ORBTests {
    @Test func descriptorsAndPattern() {
        var d = BinaryDescriptor()
        d.set(0); d.set(63); d.set(64); d.set(255)
        #expect(d.bit(63) && d.bit(64) && !d.bit(1))
        #expect(d.distance(to: BinaryDescriptor()) == 4)
        let pattern = BRIEFPattern.standard
        #expect(pattern.pairs.count == 256)
        #expect(pattern.pairs.allSatisfy { max(abs($0.first.x), abs($0.first.y), abs($0.second.x), abs($0.second.y)) <= 13 })
        // Not a degenerate pattern: coordinates spread over the patch.
        #expect(Set(pattern.pairs.map { $0.first.x }).count > 15)
    }

    @Test func blankImageHasNoFeaturesAndResultsRepeat() {
        var orb = ORBExtractor()
        orb.maxFeatures = 300
        #expect(orb.extract(GrayImage(width: 320, height: 240, value: 90)).isEmpty)
        let first = orb.extract(officeImage)
        #expect(first.count == 300)
        #expect(first == orb.extract(officeImage))
        #expect(Set(first.map(\.level)).count >= 5, "features come from several scales")
    }

    @Test func matcherAppliesRatioCrossCheckAndDistanceLimits() {
        func descriptor(_ bits: [Int]) -> BinaryDescriptor { var d = BinaryDescriptor(); bits.forEach { d.set($0) }; return d }
        let query = [descriptor([]), descriptor(Array(0..<100)), descriptor([200, 201])]
        let train = [descriptor([1]), descriptor(Array(0..<99)), descriptor([200, 201, 202])]
        var m = DescriptorMatcher()
        let matches = m.match(query, train)
        // Each query's nearest train descriptor is 1 bit away and clearly nearer than the second
        // (query 0: 1 vs 3 bits; query 1: 1 vs 99; query 2: 1 vs 3): all pass the ratio 0.8.
        #expect(matches.map(\.queryIndex) == [0, 1, 2])
        #expect(matches.map(\.trainIndex) == [0, 1, 2])
        m.maxDistance = 0
        #expect(m.match(query, train).isEmpty)
        // An ambiguous query (2 bits from both train descriptors) fails the ratio test; with the
        // test off (ratio 1) it matches the first.
        let ambiguous = [descriptor([10])], pair = [descriptor([11]), descriptor([12])]
        #expect(DescriptorMatcher().match(ambiguous, pair).isEmpty)
        var noRatio = DescriptorMatcher()
        noRatio.ratio = 1
        noRatio.crossCheck = false
        #expect(noRatio.match(ambiguous, pair) == [DescriptorMatcher.Match(queryIndex: 0, trainIndex: 0, distance: 2)])
        // Two queries wanting the same train descriptor: the mutual check keeps the closer.
        m = DescriptorMatcher()
        m.ratio = 1
        let twins = m.match([descriptor([5]), descriptor([5, 6])], [descriptor([5, 6, 7]), descriptor(Array(100..<200))])
        #expect(twins == [DescriptorMatcher.Match(queryIndex: 1, trainIndex: 0, distance: 1)])
    }

    /// Zoom 1.6× and rotation 40°: a pair KLT cannot follow. The matches agree with the true
    /// homography and the estimate is accurate.
    @Test func zoomedAndRotatedPairIsMatchedToTheTrueHomography() throws {
        let truth = zoomAndRotate(scale: 1.6, angle: 40 * .pi / 180, perspective: 1e-4)
        let warped = warp(officeImage, truth)
        var orb = ORBExtractor()
        orb.maxFeatures = 800
        let fa = orb.extract(officeImage), fb = orb.extract(warped)
        let matches = DescriptorMatcher().match(fa.map(\.descriptor), fb.map(\.descriptor))
        let a = matches.map { fa[$0.queryIndex].pixel }, b = matches.map { fb[$0.trainIndex].pixel }
        let errors = HomographyMetrics.matchErrors(Array(zip(a, b)), truth: truth)
        let correct = errors.filter { $0 <= 3 }.count
        #expect(correct >= 60, "\(correct) of \(matches.count) matches within 3 px")
        let estimate = try #require(Homography.estimate(a, b, threshold: 3))
        let inlierErrors = estimate.inliers.map { errors[$0] }.sorted()
        #expect(inlierErrors[inlierErrors.count / 2] < 1.5, "median inlier error \(inlierErrors[inlierErrors.count / 2]) px")
        // Where the matches are (the office's texture sits in a band across the upper half), the
        // estimate is within 2 px of the truth everywhere; outside it, the perspective terms are
        // extrapolated (6 px at the far edge of the overlap, measured).
        let support = estimate.inliers.map { a[$0] }
        let region = (Vector2(support.map(\.x).min()!, support.map(\.y).min()!), Vector2(support.map(\.x).max()!, support.map(\.y).max()!))
        let worst = overlapError(estimate.homography, truth, within: region)
        #expect(worst < 2, "largest transfer error over the matched region \(worst) px")
    }

    /// A quarter turn (an exact pixel permutation): the intensity-centroid orientation steers
    /// the pattern, so the descriptors still match.
    @Test func quarterTurnIsMatched() {
        let w = officeImage.width, h = officeImage.height
        var turned = GrayImage(width: h, height: w)
        for y in 0..<h { for x in 0..<w { turned[h - 1 - y, x] = officeImage[x, y] } }  // (x, y) → (h − 1 − y, x)
        var orb = ORBExtractor()
        orb.maxFeatures = 500
        let fa = orb.extract(officeImage), fb = orb.extract(turned)
        let matches = DescriptorMatcher().match(fa.map(\.descriptor), fb.map(\.descriptor))
        let correct = matches.filter { m in
            let p = fa[m.queryIndex].pixel, q = fb[m.trainIndex].pixel
            return (q - Vector2(Double(h - 1) - p.y, p.x)).norm <= 2
        }.count
        #expect(matches.count > 100)
        #expect(Double(correct) > 0.9 * Double(matches.count), "\(correct) of \(matches.count) correct")
    }

    /// The real HPatches-style pair churchill 1 → 5 (zoom out and rotation), when present.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("homography/churchill/H_1_5"), "../shared/data/homography/churchill/H_1_5 is not present on this machine"))
    func churchillPairAgreesWithItsGroundTruth() throws {
        let dir = RepositoryPaths.sharedData("homography/churchill")
        let a = GrayImage(try ImageDecoder.decodeGray8(path: dir.appendingPathComponent("1.ppm").path))
        let b = GrayImage(try ImageDecoder.decodeGray8(path: dir.appendingPathComponent("5.ppm").path))
        let truth = try HomographyFile.read(path: dir.appendingPathComponent("H_1_5").path)
        let orb = ORBExtractor()
        let fa = orb.extract(a), fb = orb.extract(b)
        let matches = DescriptorMatcher().match(fa.map(\.descriptor), fb.map(\.descriptor))
        let pa = matches.map { fa[$0.queryIndex].pixel }, pb = matches.map { fb[$0.trainIndex].pixel }
        let estimate = try #require(Homography.estimate(pa, pb, threshold: 3))
        let errors = HomographyMetrics.matchErrors(Array(zip(pa, pb)), truth: truth)
        let inlierErrors = estimate.inliers.map { errors[$0] }.sorted()
        // Measured 499 inliers, median 0.70 px, corner error 2.3 px (release, same code).
        #expect(estimate.inliers.count > 400)
        #expect(inlierErrors[inlierErrors.count / 2] < 1.0)
        #expect(HomographyMetrics.cornerError(estimated: estimate.homography, truth: truth, width: a.width, height: a.height) < 4)
    }
}

@Suite struct ORBMatchAnalyzerTests {
    static let cam = StreamKey<CameraFrame>("cam0")

    @Test func matchesEachFrameToTheFirstWithAHomography() throws {
        let truth = zoomAndRotate(scale: 1.3, angle: -0.3)
        var options = ORBMatchAnalyzer.Options()
        options.reference = .first
        options.maxFeatures = 500
        var harness = AnalyzerHarness { try ORBMatchAnalyzer(options: options) }
        for (k, image) in [officeImage, warp(officeImage, truth), officeImage].enumerated() {
            harness.push(KLTAnalyzerTests.frame(image), on: Self.cam, at: Timestamp(nanoseconds: Int64(k + 1) * 1_000_000))
        }
        let out: [Packet<FeatureMatches>] = try harness.run().packets(on: "cam0/matches")
        #expect(out.count == 2, "no output for the first frame, one per later frame")
        let warped = out[0].payload
        #expect(warped.referenceTimestamp == Timestamp(nanoseconds: 1_000_000))
        let model = try #require(warped.model)
        #expect(model.kind == .homography)
        #expect(overlapError(model.matrix, truth) < 2)
        #expect(warped.matches.filter(\.inlier).count > 50)
        // The first frame against itself: every inlier maps onto itself.
        let same = out[1].payload
        #expect(same.matches.filter(\.inlier).allSatisfy { $0.distance == 0 && $0.pixel == $0.referencePixel })
        #expect(same.matches.count > 400)
    }

    @Test func unrelatedTinyAndBlankFramesGiveNoModelAndNoCrash() throws {
        var harness = AnalyzerHarness { try ORBMatchAnalyzer(options: .init()) }
        let frames = [officeImage, GrayImage(width: 640, height: 480, value: 30), GrayImage(width: 30, height: 20, value: 90), officeImage]
        for (k, image) in frames.enumerated() {
            harness.push(KLTAnalyzerTests.frame(image), on: Self.cam, at: Timestamp(nanoseconds: Int64(k + 1)))
        }
        let result = try harness.run()
        #expect(result.failure == nil)
        let out: [Packet<FeatureMatches>] = result.packets(on: "cam0/matches")
        #expect(out.count == 3)
        // Blank and tiny frames have no features: nothing to match, no model.
        #expect(out[0].payload.featureCount == 0 && out[0].payload.matches.isEmpty && out[0].payload.model == nil)
        #expect(out[1].payload.featureCount == 0 && out[1].payload.model == nil)
        #expect(out[2].payload.referenceFeatureCount == 0 && out[2].payload.matches.isEmpty)
    }

    @Test func verifierAndBadOptions() throws {
        let problems = try AnalyzerVerifier.verify({ try ORBMatchAnalyzer(options: .init()) }) { harness in
            for (k, image) in [officeImage, warp(officeImage, zoomAndRotate(scale: 1.1, angle: 0.1))].enumerated() {
                harness.push(KLTAnalyzerTests.frame(image), on: Self.cam, at: Timestamp(nanoseconds: Int64(k + 1)))
            }
        }
        #expect(problems.isEmpty, "\(problems)")
        var o = ORBMatchAnalyzer.Options()
        o.scaleFactor = 1
        #expect(throws: AnalyzerError.self) { _ = try ORBMatchAnalyzer(options: o) }
    }
}
