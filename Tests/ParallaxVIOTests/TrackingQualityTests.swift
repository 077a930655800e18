import Testing
@testable import ParallaxVIO

/// The tracking state of a running filter: limited after saturated readings for a fixed number
/// of frames, limited when too few features updated the last 10 frames.
@Suite struct TrackingQualityTests {
    @Test func saturatedReadingsLimitTheNextFrames() {
        var q = TrackingQuality(minFeaturesPer10Frames: 10)
        #expect(q.state(used: 50, still: false) == .normal)
        q.saturated()
        let states = (0..<12).map { _ in q.state(used: 50, still: false) }
        #expect(states.prefix(TrackingQuality.framesLimitedAfterSaturation).allSatisfy { $0 == .limited(.excessiveMotion) })
        #expect(states.suffix(2) == [.normal, .normal])
    }

    @Test func tooFewFeaturesOverTenFramesLimitTheStateButStandingStillCounts() {
        var q = TrackingQuality(minFeaturesPer10Frames: 10)
        // Nine frames are not ten: no verdict yet.
        #expect((0..<9).map { _ in q.state(used: 1, still: false) }.allSatisfy { $0 == .normal })
        #expect(q.state(used: 0, still: false) == .limited(.insufficientFeatures), "9 features over 10 frames")
        #expect(q.state(used: 2, still: false) == .normal, "10 features over the last 10 frames")
        #expect(q.state(used: 0, still: true) == .normal, "standing still counts as enough")
        q.reset()
        #expect(q.state(used: 0, still: false) == .normal, "a reset forgets the counts")
    }
}
