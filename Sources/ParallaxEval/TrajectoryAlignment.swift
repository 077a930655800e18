import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxMath

/// Aligns an estimated trajectory to the reference before APE.
public enum TrajectoryAlignment {
    /// The alignment model.
    public enum Mode: String, Sendable, Codable, CaseIterable {
        /// No alignment.
        case none
        /// Rigid (Umeyama SE(3)), evo `-a`.
        case se3
        /// Similarity (Umeyama Sim(3)), evo `-as`: for monocular estimates.
        case sim3
        /// Position + yaw about the reference's z axis (4-DoF): the standard for VIO, where
        /// roll and pitch are observable from gravity.
        case posyaw
    }

    /// The estimate mapped by the best transform `S` (positions `s·R·p + t`, rotations `R·R_i`),
    /// and `S` itself. Associated trajectories of equal length are expected.
    public static func align(_ estimate: Trajectory, to reference: Trajectory, mode: Mode) throws -> (aligned: Trajectory, transform: Sim3) {
        let transform: Sim3
        switch mode {
        case .none:
            transform = .identity
        case .se3, .sim3:
            transform = try Umeyama.align(source: estimate.positions, target: reference.positions,
                                          mode: mode == .sim3 ? .sim3 : .se3).transform
        case .posyaw:
            transform = try positionYaw(source: estimate.positions, target: reference.positions)
        }
        var aligned = estimate
        let rotation = transform.rotation.matrix
        for i in aligned.poses.indices {
            aligned.poses[i].pose = transform.apply(to: aligned.poses[i].pose)
            aligned.poses[i].rotationAsRead = aligned.poses[i].rotationAsRead.map { rotation * $0 }
        }
        return (aligned, transform)
    }

    /// Beyond this many degrees (``rotationUncertaintyDegrees(reference:rmse:mode:)``) the
    /// alignment's rotation is taken as undetermined: it fits the errors, not the motion.
    public static let undeterminedRotationDegrees = 5.0

    /// How far the alignment's rotation is from determined (deg): the APE's RMS `rmse` (m) over
    /// the RMS distance of the `reference` positions from the axis they leave least determined
    /// (SE(3)/Sim(3): their longest principal axis, about which a line or a point can turn
    /// freely; position+yaw: the vertical through their centroid). A trajectory that barely
    /// moves (a platform standing still: positions within a millimetre, errors of a millimetre)
    /// or moves along a line gives a rotation chosen by its noise, and a rotation APE after it
    /// that says nothing about the estimate (EuRoC V1_01's still micro snippet: 133°). The
    /// per-pose ratio (no `1/√n`: the errors of a trajectory are correlated), so it errs on the
    /// side of calling a rotation undetermined. 0 without alignment; at most 180 (any rotation).
    public static func rotationUncertaintyDegrees(reference: [Vector3], rmse: Double, mode: Mode) -> Double {
        guard mode != .none else { return 0 }
        guard reference.count >= 2, rmse.isFinite else { return 180 }
        let n = Double(reference.count)
        let mu = reference.reduce(.zero, +) / n
        var c = Matrix(rows: 3, columns: 3)
        for p in reference {
            let d = p - mu
            let v = [d.x, d.y, d.z]
            for i in 0..<3 { for j in 0..<3 { c[i, j] += v[i] * v[j] / n } }
        }
        let leverage: Double
        if mode == .posyaw {
            leverage = c[0, 0] + c[1, 1]
        } else {
            guard let eigen = try? SymmetricEigen(c) else { return 180 }
            leverage = eigen.values[0] + eigen.values[1]
        }
        guard leverage > 0, leverage.isFinite else { return 180 }
        return min(180, rmse / leverage.squareRoot() * 180 / .pi)
    }

    /// Least-squares yaw θ (about z) and translation: with centered positions, θ = atan2(B, A),
    /// A = Σ(tₓsₓ + t_y s_y), B = Σ(t_y sₓ − tₓ s_y); t = μ_t − R_z(θ) μ_s.
    static func positionYaw(source: [Vector3], target: [Vector3]) throws -> Sim3 {
        guard source.count == target.count, source.count >= 2 else {
            throw Umeyama.AlignmentError.degenerate(points: source.count, reason: "position+yaw alignment needs at least 2 points")
        }
        let n = Double(source.count)
        let muS = source.reduce(.zero, +) / n, muT = target.reduce(.zero, +) / n
        var a = 0.0, b = 0.0
        for (s0, t0) in zip(source, target) {
            let s = s0 - muS, t = t0 - muT
            a += t.x * s.x + t.y * s.y
            b += t.y * s.x - t.x * s.y
        }
        let yaw = SO3.exp(Vector3(0, 0, atan2(b, a)))
        return Sim3(scale: 1, rotation: yaw, translation: muT - yaw * muS)
    }
}
