import Testing
import ParallaxMath
@testable import ParallaxBus
@testable import ParallaxPayloads
@Suite struct TrajectoryTests {
    /// Poses at 1 s, 2 s and 4 s, moving along x by 1 m per second and turning about z.
    let trajectory = Trajectory(poses: [1, 2, 4].map { (t: Int64) in
        StampedPose(time: Double(t), timestamp: Timestamp(nanoseconds: t * 1_000_000_000),
                    pose: SE3(rotation: .exp(Vector3(0, 0, 0.1 * Double(t))), translation: Vector3(Double(t), 0, 0)))
    })

    @Test func interpolatesOnSE3ByTimeAndByTimestamp() throws {
        let mid = try #require(trajectory.pose(at: 3.0))
        #expect(abs(mid.translation.x - 3) < 1e-12)
        #expect(abs(mid.rotation.log.z - 0.3) < 1e-12)
        let byStamp = try #require(trajectory.pose(at: Timestamp(nanoseconds: 3_000_000_000)))
        #expect(byStamp == mid)
        // A pose stamped exactly at the query comes back as is.
        #expect(trajectory.pose(at: Timestamp(nanoseconds: 2_000_000_000)) == trajectory.poses[1].pose)
        #expect(trajectory.pose(at: Timestamp(nanoseconds: 4_000_000_000)) == trajectory.poses[2].pose)
    }

    @Test func outsideTheSpanOrAcrossTooLargeAGapIsNil() {
        #expect(trajectory.pose(at: 0.5) == nil && trajectory.pose(at: 4.5) == nil)
        #expect(trajectory.pose(at: Timestamp(nanoseconds: 999_999_999)) == nil)
        // 2 s → 4 s is a 2 s gap: refused with a 1.5 s limit, fine with 2 s; 1 s → 2 s always fine.
        #expect(trajectory.pose(at: Timestamp(nanoseconds: 3_000_000_000), maxGap: 1_500_000_000) == nil)
        #expect(trajectory.pose(at: Timestamp(nanoseconds: 3_000_000_000), maxGap: 2_000_000_000) != nil)
        #expect(trajectory.pose(at: Timestamp(nanoseconds: 1_500_000_000), maxGap: 1_500_000_000) != nil)
        #expect(Trajectory(poses: []).pose(at: Timestamp(nanoseconds: 0)) == nil)
    }
}
