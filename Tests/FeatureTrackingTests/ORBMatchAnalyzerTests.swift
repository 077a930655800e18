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
import VisionTestSupport

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
