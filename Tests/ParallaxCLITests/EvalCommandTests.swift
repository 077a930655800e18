import Foundation
import Testing
import ParallaxMath
import ParallaxPayloads
import ParallaxEval
@testable import ParallaxCLI

/// `parallax eval`'s table.
@Suite struct EvalCommandTests {
    /// Truth and estimate of a platform standing still: positions within a millimetre, and
    /// errors as large.
    func still(_ n: Int) -> (Trajectory, Trajectory) {
        let truth = Trajectory(poses: (0..<n).map { i in
            StampedPose(time: Double(i) * 0.05, pose: SE3(translation: 0.0005 * Vector3(sin(Double(i)), cos(1.7 * Double(i)), sin(2.3 * Double(i)))))
        }, name: "gt.txt")
        let estimate = Trajectory(poses: truth.poses.enumerated().map { i, p in
            StampedPose(time: p.time, pose: SE3(rotation: .exp(Vector3(0, 0, 0.01 * Double(i))),
                                                translation: p.pose.translation + 0.001 * Vector3(cos(3.1 * Double(i)), sin(0.7 * Double(i)), 0)))
        }, name: "est.txt")
        return (truth, estimate)
    }

    @Test func aRotationTheMotionDoesNotDetermineIsSaidToBeSo() throws {
        let (truth, estimate) = still(80)
        let (result, _) = try TrajectoryEvaluation.evaluate(reference: truth, estimate: estimate)
        let table = EvalCommand.table(result)
        #expect(table.contains("the APE rotation measures the alignment, not the estimate"))
        #expect(table.contains("se3 alignment's rotation is undetermined"))
    }

    @Test func aMovingTrajectoryGetsNoSuchLine() throws {
        let truth = Trajectory(poses: (0..<80).map { i in
            StampedPose(time: Double(i) * 0.05, pose: SE3(translation: Vector3(cos(0.1 * Double(i)), sin(0.13 * Double(i)), 0.01 * Double(i))))
        })
        let (result, _) = try TrajectoryEvaluation.evaluate(reference: truth, estimate: truth)
        #expect(!EvalCommand.table(result).contains("measures the alignment"))
    }
}
