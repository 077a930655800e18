import Testing
@testable import ParallaxVIO

/// The tracking state of a running filter: limited after saturated readings for a fixed number
/// of frames, limited when too few features updated the last 10 frames, limited after a camera
/// gap until the velocity is as certain as before it.
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

    @Test func afterACameraGapTheStateIsLimitedUntilTheVelocityIsAsCertainAsBefore() {
        var q = TrackingQuality(minFeaturesPer10Frames: 10)
        #expect((0..<10).map { _ in q.state(used: 50, still: false, velocitySigma: 0.002) }.allSatisfy { $0 == .normal })
        q.cameraGap(velocitySigma: 0.002)
        // σ 35 mm/s after the IMU alone, coming back down as frames update the state.
        let sigmas = [0.035, 0.030, 0.010, 0.0041, 0.0039, 0.0028, 0.0050]
        let states = sigmas.map { q.state(used: 50, still: false, velocitySigma: $0) }
        #expect(states.prefix(4).allSatisfy { $0 == .limited(.insufficientFeatures) }, "\(states)")
        // Back under twice the σ before the gap: normal, and a later rise alone does not limit it.
        #expect(states.suffix(3).allSatisfy { $0 == .normal }, "\(states)")
        // A velocity that stays uncertain: normal after `framesToRecover` frames.
        q.cameraGap(velocitySigma: 0.002)
        let slow = (0..<q.framesToRecover).map { _ in q.state(used: 50, still: false, velocitySigma: 0.05) }
        #expect(slow.dropLast().allSatisfy { $0 == .limited(.insufficientFeatures) } && slow.last == .normal, "\(slow)")
        q.cameraGap(velocitySigma: 0.002)
        q.reset()
        #expect(q.state(used: 50, still: false, velocitySigma: 0.05) == .normal, "a reset ends the recovery")
    }
}
