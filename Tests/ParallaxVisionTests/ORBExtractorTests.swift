import Foundation
import Testing
import ParallaxCodecs
import ParallaxEval
import ParallaxImage
import ParallaxGeometry
import ParallaxMath
import VisionTestSupport
@testable import ParallaxVision
import TestSupport

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
