import Testing
import ParallaxVision
@testable import ParallaxVIO

@Suite struct LostTrackingTests {
    /// Frames at 20 Hz from `start` (s): `count` of them with these counts; whether the last said lost.
    static func feed(_ tracking: inout LostTracking, from start: Double, count: Int, used: Int, inconsistent: Int) -> [Bool] {
        (0..<count).map { tracking.record(time: start + Double($0) * 0.05, used: used, inconsistent: inconsistent) }
    }

    /// The share of inconsistent features over the recent frames: none before 10 frames or 100
    /// features, then over the last span only (what a rough clock offset's restart is judged by).
    @Test func theInconsistentShareIsOverTheRecentSpan() {
        var tracking = LostTracking()
        _ = Self.feed(&tracking, from: 0, count: 9, used: 30, inconsistent: 10)
        #expect(tracking.inconsistentShare == nil)
        _ = Self.feed(&tracking, from: 0.45, count: 1, used: 30, inconsistent: 10)
        #expect(tracking.inconsistentShare == 0.25)
        // A whole span of healthy frames later, the bad start is out of it.
        _ = Self.feed(&tracking, from: 0.5, count: Int(LostTracking.span / 0.05) + 2, used: 30, inconsistent: 0)
        #expect(tracking.inconsistentShare == 0)
        tracking.reset()
        _ = Self.feed(&tracking, from: 0, count: 12, used: 5, inconsistent: 3)
        #expect(tracking.inconsistentShare == nil, "96 features are too few to tell")
    }

    @Test func lostOnlyWhenAWholeSpanOfFeaturesMostlyDoesNotFit() {
        var tracking = LostTracking()
        let frames = Int(LostTracking.span / 0.05)
        // Until the frames kept reach back a whole span nothing is said, however bad.
        let early = Self.feed(&tracking, from: 0, count: frames, used: 0, inconsistent: 10)
        #expect(early.allSatisfy { !$0 })
        // The next one covers it: lost.
        #expect(Self.feed(&tracking, from: LostTracking.span, count: 1, used: 0, inconsistent: 10) == [true])
        // A healthy stretch: many used, a few rejected.
        tracking.reset()
        #expect(Self.feed(&tracking, from: 0, count: 3 * frames, used: 20, inconsistent: 5).allSatisfy { !$0 })
        // A short burst of rejections after healthy frames is outweighed by them.
        #expect(Self.feed(&tracking, from: 3 * LostTracking.span, count: frames / 3, used: 0, inconsistent: 15).allSatisfy { !$0 })
        // Fewer than the minimum in all is never lost, whatever the ratio.
        tracking.reset()
        #expect(Self.feed(&tracking, from: 0, count: 3 * frames, used: 0, inconsistent: 0).allSatisfy { !$0 })
        // Rejections must outnumber twice the used features.
        tracking.reset()
        let even = Self.feed(&tracking, from: 0, count: 2 * frames, used: 5, inconsistent: 10)
        #expect(even.allSatisfy { !$0 })
        let more = Self.feed(&tracking, from: 2 * LostTracking.span, count: 2 * frames, used: 5, inconsistent: 11)
        #expect(more.last == true)
    }

    /// At 1 Hz the span holds one frame: at least ``LostTracking/fewestFrames`` count.
    @Test func aSlowCameraLooksBackOverItsFewestFrames() {
        var tracking = LostTracking()
        let said = (0..<LostTracking.fewestFrames).map { tracking.record(time: Double($0), used: 0, inconsistent: 20) }
        #expect(said.dropLast().allSatisfy { !$0 } && said.last == true)
    }

    @Test func lowParallaxAndNumericalFailuresDoNotCount() {
        #expect(LostTracking.isInconsistent(.gate))
        #expect(LostTracking.isInconsistent(.behindCamera))
        #expect(LostTracking.isInconsistent(.triangulation(.behindCamera)))
        #expect(LostTracking.isInconsistent(.triangulation(.highReprojectionError)))
        #expect(!LostTracking.isInconsistent(.triangulation(.lowParallax)))
        #expect(!LostTracking.isInconsistent(.triangulation(.tooFewObservations)))
        #expect(!LostTracking.isInconsistent(.numerical))
    }
}
