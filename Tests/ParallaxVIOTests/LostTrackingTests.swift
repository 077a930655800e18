import Testing
import ParallaxVision
@testable import ParallaxVIO

@Suite struct LostTrackingTests {
    @Test func lostOnlyWhenAWholeWindowOfFeaturesMostlyDoesNotFit() {
        var tracking = LostTracking(frames: 5)
        // Four frames of 10 inconsistent features each: the window is not full yet.
        for _ in 0..<4 { do { let lost = tracking.record(used: 0, inconsistent: 10); #expect(!lost) } }
        // The fifth fills it: 50 inconsistent against none used.
        do { let lost = tracking.record(used: 0, inconsistent: 10); #expect(lost) }
        tracking.reset()
        // A healthy window: many used, a few rejected.
        for _ in 0..<10 { do { let lost = tracking.record(used: 20, inconsistent: 5); #expect(!lost) } }
        // Rejections must outnumber twice the used features: 60 against 30 used is not enough…
        tracking.reset()
        for _ in 0..<5 { _ = tracking.record(used: 6, inconsistent: 12) }
        do { let lost = tracking.record(used: 6, inconsistent: 12); #expect(!lost) }
        // …61 against 30 is.
        do { let lost = tracking.record(used: 6, inconsistent: 13); #expect(lost) }
        // Fewer than the minimum in all is never lost, whatever the ratio.
        tracking.reset()
        for _ in 0..<10 { do { let lost = tracking.record(used: 0, inconsistent: LostTracking.minInconsistent / 5 - 1); #expect(!lost) } }
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
