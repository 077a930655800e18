import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
@testable import ParallaxEval

@Suite struct TrajectoryMetricsTests {
    /// A helix with a yaw-only offset and shift applied to the estimate.
    func helix(_ n: Int) -> Trajectory {
        Trajectory(poses: (0..<n).map { i in
            let t = Double(i) * 0.1
            return StampedPose(time: t, pose: SE3(rotation: .exp(Vector3(0.1 * t, 0, 0.5 * t)), translation: Vector3(cos(t), sin(t), 0.2 * t)))
        })
    }

    @Test func statisticsFollowNumpy() {
        let s = ErrorStatistics([1, 2, 3, 4])
        #expect(s.median == 2.5 && s.mean == 2.5 && s.sse == 30 && s.min == 1 && s.max == 4)
        #expect(abs(s.rmse - 7.5.squareRoot()) < 1e-15 && abs(s.std - 1.25.squareRoot()) < 1e-15)
        #expect(ErrorStatistics([]).count == 0)
    }

    @Test func positionYawAlignmentUndoesAYawAndShift() throws {
        let ref = helix(100)
        let offset = Sim3(scale: 1, rotation: .exp(Vector3(0, 0, 0.7)), translation: Vector3(3, -1, 0.5))
        var est = ref
        for i in est.poses.indices { est.poses[i].pose = offset.apply(to: est.poses[i].pose) }
        let (aligned, transform) = try TrajectoryAlignment.align(est, to: ref, mode: .posyaw)
        #expect(abs(transform.rotation.log.z + 0.7) < 1e-12)
        let ape = TrajectoryMetrics.absolute(reference: ref, estimate: aligned)
        #expect(ErrorStatistics(ape.translation).max < 1e-12)
        #expect(ErrorStatistics(ape.rotationDegrees).max < 1e-9)
    }

    @Test func rpeIsInvariantToAGlobalTransformAndSeesLocalDrift() {
        let ref = helix(50)
        var est = ref
        let global = SE3(rotation: .exp(Vector3(0.3, -0.2, 1)), translation: Vector3(5, 5, 5))
        for i in est.poses.indices { est.poses[i].pose = global * est.poses[i].pose }
        let rpe = TrajectoryMetrics.relative(reference: ref, estimate: est, delta: 1, unit: .frames)
        #expect(rpe.translation.count == 49)
        #expect(ErrorStatistics(rpe.translation).max < 1e-12)
        // Pairs by path: the helix advances ~0.102 m per step.
        let byPath = TrajectoryMetrics.pairsByPath(ref.positions, delta: 0.5)
        #expect(byPath.first?.0 == 0 && byPath.allSatisfy { $0.1 - $0.0 == 5 })
    }

    @Test func associationPairsNearestWithinTolerance() throws {
        let ref = Trajectory(poses: [0.0, 1.0, 2.0, 3.0].map { StampedPose(time: $0, pose: .identity) }, name: "ref")
        let est = Trajectory(poses: [1.004, 2.5, 2.995].map { StampedPose(time: $0, pose: .identity) }, name: "est")
        let (r, e) = try Association.associate(reference: ref, estimate: est, maxDifference: 0.01)
        #expect(r.times == [1.0, 3.0] && e.times == [1.004, 2.995])
        #expect(throws: Association.AssociationError.self) {
            _ = try Association.associate(reference: ref, estimate: est, maxDifference: 0.01, offset: 100)
        }
    }

    /// An RPE with no pair (the delta longer than the trajectory) is an error, not statistics of
    /// nothing printed as zeros; an alignment that cannot be made names both trajectories.
    @Test func evaluationsThatHaveNothingToMeasureAreErrors() throws {
        var ref = helix(20), est = helix(20)
        ref.name = "gt.txt"
        est.name = "est.txt"
        var options = TrajectoryEvaluation.Options()
        options.rpeDelta = 1000
        #expect { _ = try TrajectoryEvaluation.evaluate(reference: ref, estimate: est, options: options) } throws: { error in
            guard case let .noRelativePairs(r, e, delta, _, poses)? = error as? TrajectoryEvaluation.EvaluationError else { return false }
            return r == "gt.txt" && e == "est.txt" && delta == 1000 && poses == 20
        }
        options.rpeDelta = 1
        let (result, _) = try TrajectoryEvaluation.evaluate(reference: ref, estimate: est, options: options)
        #expect(result.rpeTranslation.count == 19)
        let one = Trajectory(poses: Array(ref.poses.prefix(1)), name: "one.txt")
        #expect { _ = try TrajectoryEvaluation.evaluate(reference: ref, estimate: one, options: options) } throws: { error in
            guard case let .alignment(r, e, mode, _)? = error as? TrajectoryEvaluation.EvaluationError else { return false }
            return r == "gt.txt" && e == "one.txt" && mode == .se3 && "\(error)".contains("--align se3")
        }
    }
}
