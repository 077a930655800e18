import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
@testable import ParallaxEval

@Suite struct TrajectoryAlignmentTests {
    /// `n` poses at 20 Hz along `position`, attitudes turning slowly, and the same poses moved
    /// by `wobble` m of deterministic error, in another frame, as the estimate.
    func pair(_ n: Int, wobble: Double, position: (Double) -> Vector3) -> (reference: Trajectory, estimate: Trajectory) {
        let frame = SE3(rotation: .exp(Vector3(0.2, 0.1, 1.0)), translation: Vector3(3, 1, -2))
        var reference = Trajectory(poses: [], name: "truth"), estimate = Trajectory(poses: [], name: "estimate")
        for i in 0..<n {
            let t = Double(i) * 0.05
            let pose = SE3(rotation: .exp(Vector3(0.01 * t, -0.02 * t, 0.05 * t)), translation: position(t))
            let error = wobble * Vector3(sin(7.7 * Double(i)), cos(5.3 * Double(i)), sin(3.9 * Double(i)))
            reference.poses.append(StampedPose(time: t, pose: pose))
            estimate.poses.append(StampedPose(time: t, pose: frame * SE3(rotation: pose.rotation, translation: pose.translation + error)))
        }
        return (reference, estimate)
    }

    @Test func aPlatformStandingStillLeavesTheRotationUndetermined() throws {
        // EuRoC V1_01's still snippet: positions within a millimetre, errors of a millimetre.
        let (reference, estimate) = pair(60, wobble: 0.001) { t in Vector3(0.0005 * sin(3 * t), 0.0004 * cos(2 * t), 0.0003 * sin(5 * t)) }
        var options = TrajectoryEvaluation.Options()
        options.alignment = .se3
        let (result, _) = try TrajectoryEvaluation.evaluate(reference: reference, estimate: estimate, options: options)
        #expect(!result.alignmentRotationDetermined)
        #expect(result.alignmentRotationUncertaintyDegrees > 45)
        #expect(result.referenceExtent < 0.001)
    }

    @Test func aTrajectoryThatMovesDeterminesIt() throws {
        let (reference, estimate) = pair(200, wobble: 0.005) { t in Vector3(cos(0.5 * t), sin(0.7 * t), 0.3 * sin(0.4 * t)) }
        for mode in [TrajectoryAlignment.Mode.se3, .sim3, .posyaw] {
            var options = TrajectoryEvaluation.Options()
            options.alignment = mode
            let (result, _) = try TrajectoryEvaluation.evaluate(reference: reference, estimate: estimate, options: mode == .posyaw ? TrajectoryEvaluation.Options() : options)
            #expect(result.alignmentRotationDetermined, "\(mode)")
            #expect(result.alignmentRotationUncertaintyDegrees < 2, "\(mode)")
        }
    }

    @Test func aStraightLineLeavesTheTurnAboutItUndetermined() {
        let line = (0..<50).map { Vector3(0.1 * Double($0), 0, 0) }
        #expect(TrajectoryAlignment.rotationUncertaintyDegrees(reference: line, rmse: 0.01, mode: .se3) == 180)
        // … but not the yaw, when the line is horizontal.
        #expect(TrajectoryAlignment.rotationUncertaintyDegrees(reference: line, rmse: 0.01, mode: .posyaw) < 1)
        // A vertical line leaves the yaw undetermined.
        let vertical = (0..<50).map { Vector3(0, 0, 0.1 * Double($0)) }
        #expect(TrajectoryAlignment.rotationUncertaintyDegrees(reference: vertical, rmse: 0.01, mode: .posyaw) == 180)
        #expect(TrajectoryAlignment.rotationUncertaintyDegrees(reference: line, rmse: 0.01, mode: .none) == 0)
        #expect(TrajectoryAlignment.rotationUncertaintyDegrees(reference: line, rmse: .nan, mode: .se3) == 180)
    }
}
