import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
@testable import ParallaxEval

@Suite struct TimeOffsetSearchTests {
    /// A position on a wandering path at `t` s (m): fast enough (≈ 1 m/s) that a few ms show.
    func position(_ t: Double) -> Vector3 {
        Vector3(cos(1.3 * t) + 0.3 * sin(3.1 * t), sin(0.9 * t) - 0.2 * cos(2.3 * t), 0.4 * sin(1.7 * t))
    }

    /// The truth at 200 Hz from 1000 s on (EuRoC-like stamps: 5 ms apart).
    func reference() -> Trajectory {
        Trajectory(poses: (0..<4000).map { i in
            let t = 1000 + Double(i) * 0.005
            return StampedPose(time: t, pose: SE3(translation: position(t)))
        }, name: "truth")
    }

    /// An estimate at 20 Hz whose pose stamped `t` is the truth at `t + lag`, in another
    /// frame (rotated, moved), with `noise` m of deterministic wobble.
    func estimate(lag: Double, noise: Double = 0) -> Trajectory {
        let frame = SE3(rotation: .exp(Vector3(0.1, -0.2, 2.0)), translation: Vector3(5, -3, 1))
        return Trajectory(poses: (0..<380).map { i in
            let t = 1000.5 + Double(i) * 0.05
            let wobble = noise * Vector3(sin(7.7 * Double(i)), cos(5.3 * Double(i)), sin(3.9 * Double(i)))
            return StampedPose(time: t, pose: SE3(translation: frame * position(t + lag) + wobble))
        }, name: "estimate")
    }

    @Test func findsTheLagOfTheTruth() throws {
        for lag in [0.0, 0.009, -0.0043, 0.0317] {
            let found = try #require(TimeOffsetSearch.search(reference: reference(), estimate: estimate(lag: lag, noise: 0.002)))
            #expect(abs(found.offset - lag) < 0.0005, "lag \(lag) s found as \(found.offset) s")
            #expect(found.rmse <= found.rmseAtZero)
            #expect(found.rmse < 0.0025)
            #expect(found.poses == 380)
            if abs(lag) > 0.005 { #expect(found.rmseAtZero > 2 * found.rmse) }
        }
    }

    @Test func aLagBeyondTheRangeIsNotReportedAsTheEdge() {
        #expect(TimeOffsetSearch.search(reference: reference(), estimate: estimate(lag: 0.08)) == nil)
        #expect(TimeOffsetSearch.search(reference: reference(), estimate: estimate(lag: 0.02), range: 0.01) == nil)
    }

    @Test func tooLittleOverlapOrBadSettingsGiveNothing() {
        let short = Trajectory(poses: Array(estimate(lag: 0).poses.prefix(5)), name: "short")
        #expect(TimeOffsetSearch.search(reference: reference(), estimate: short) == nil)
        #expect(TimeOffsetSearch.search(reference: reference(), estimate: estimate(lag: 0), range: .infinity) == nil)
        #expect(TimeOffsetSearch.search(reference: reference(), estimate: estimate(lag: 0), step: 0) == nil)
        #expect(TimeOffsetSearch.search(reference: reference(), estimate: estimate(lag: 0), maxGap: .nan) == nil)
        // Stamps at the end of the clock's range: no overflow, no result.
        let late = Trajectory(poses: (0..<20).map { StampedPose(time: 9.2e9, timestamp: Timestamp(nanoseconds: .max - Int64($0)), pose: SE3()) })
        #expect(TimeOffsetSearch.search(reference: late, estimate: late) == nil)
    }
}
