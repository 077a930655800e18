import Foundation
import ParallaxPayloads
import ParallaxMath

/// Absolute and relative pose errors, defined exactly as evo defines them.
///
/// - APE at i: `E = T_ref,i⁻¹ · T_est,i`; translation error `‖p_est − p_ref‖` (m), rotation
///   error the angle of `E` (deg).
/// - Poses are composed as evo composes them: as matrices, with KITTI's rotation blocks as read
///   (``PoseMatrix``), and angles taken as scipy takes them.
/// - RPE over pairs (i, j): `E = (T_ref,i⁻¹ T_ref,j)⁻¹ · (T_est,i⁻¹ T_est,j)`; the same two parts.
///   Pairs are consecutive and non-overlapping (evo's default `all_pairs = False`): every
///   `delta` frames, or each time the traveled path reaches `delta` metres (path measured on
///   the estimate, as evo's default `pairs_from_reference = False`).
public enum TrajectoryMetrics {
    /// Per-pose (or per-pair) errors.
    public struct Errors: Sendable {
        /// Translation errors (m).
        public var translation: [Double]
        /// Rotation errors (deg).
        public var rotationDegrees: [Double]
        /// Index of the pose each error belongs to (APE: i; RPE: the pair's second index).
        public var indices: [Int]
    }

    /// Unit of the RPE delta.
    public enum DeltaUnit: String, Sendable, Codable { case frames, meters = "m" }

    /// APE of associated, equally long trajectories.
    public static func absolute(reference: Trajectory, estimate: Trajectory) -> Errors {
        precondition(reference.count == estimate.count, "APE needs associated trajectories of equal length")
        var t: [Double] = [], r: [Double] = []
        for (ref, est) in zip(reference.poses, estimate.poses) {
            t.append((est.pose.translation - ref.pose.translation).norm)
            r.append((PoseMatrix(ref).inverse * PoseMatrix(est)).angleDegrees)
        }
        return Errors(translation: t, rotationDegrees: r, indices: Array(reference.poses.indices))
    }

    /// RPE of associated, equally long trajectories. Pass the aligned estimate, as evo does:
    /// a Sim(3) alignment scales the relative translations (and the path for metre deltas).
    public static func relative(reference: Trajectory, estimate: Trajectory, delta: Double, unit: DeltaUnit) -> Errors {
        precondition(reference.count == estimate.count, "RPE needs associated trajectories of equal length")
        let pairs = unit == .frames ? pairsByIndex(count: estimate.count, delta: max(1, Int(delta)))
                                    : pairsByPath(estimate.positions, delta: delta)
        var t: [Double] = [], r: [Double] = []
        let ref = reference.poses.map(PoseMatrix.init), est = estimate.poses.map(PoseMatrix.init)
        for (i, j) in pairs {
            let q = ref[i].inverse * ref[j]
            let p = est[i].inverse * est[j]
            let e = q.inverse * p
            t.append(e.translation.norm)
            r.append(e.angleDegrees)
        }
        return Errors(translation: t, rotationDegrees: r, indices: pairs.map(\.1))
    }

    /// (0, d), (d, 2d), … — evo's `filter_pairs_by_index` without `all_pairs`.
    static func pairsByIndex(count: Int, delta: Int) -> [(Int, Int)] {
        let ids = Array(stride(from: 0, to: count, by: delta))
        return Array(zip(ids, ids.dropFirst()))
    }

    /// evo's `filter_pairs_by_path` without `all_pairs`: a new id whenever the path since the
    /// last id reaches `delta` metres.
    static func pairsByPath(_ positions: [Vector3], delta: Double) -> [(Int, Int)] {
        guard !positions.isEmpty else { return [] }
        var ids = [0]
        var path = 0.0
        for i in 1..<positions.count {
            path += (positions[i] - positions[i - 1]).norm
            if path >= delta { ids.append(i); path = 0 }
        }
        return Array(zip(ids, ids.dropFirst()))
    }
}
