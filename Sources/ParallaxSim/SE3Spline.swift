import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxMath

/// A smooth trajectory `T_WB(t)`: uniform cubic B-splines, position in ℝ³ and rotation as a
/// cumulative B-spline on SO(3) (the split representation). Position, velocity and
/// acceleration are continuous (C²), and so is the rotation; the body angular velocity and
/// world acceleration are analytic, which is what an IMU simulator needs.
///
/// Control points are given at times `start + k·interval`; the spline is defined on
/// `[start + interval, start + (n − 2)·interval)`.
public struct SE3Spline: Sendable {
    /// Time of control point 0 (s).
    public let start: Double
    /// Knot spacing (s).
    public let interval: Double
    /// Control positions (m) and rotations.
    public let positions: [Vector3]
    public let rotations: [SO3]
    /// `log(R_{k−1}⁻¹ R_k)` for k ≥ 1, precomputed.
    private let increments: [Vector3]

    /// A spline over control poses (at least 4).
    public init(start: Double, interval: Double, controlPoses: [SE3]) {
        precondition(controlPoses.count >= 4 && interval > 0, "SE3Spline needs ≥ 4 control poses and a positive interval")
        self.start = start
        self.interval = interval
        positions = controlPoses.map(\.translation)
        // Keep consecutive quaternions on one hemisphere so increments are the short way round.
        rotations = controlPoses.map(\.rotation)
        increments = [.zero] + (1..<controlPoses.count).map { (controlPoses[$0 - 1].rotation.inverse * controlPoses[$0].rotation).log }
    }

    /// Fits a spline to a trajectory: control poses are the trajectory sampled (SE(3)
    /// interpolation between its poses) at knot spacing `interval`. The B-spline smooths
    /// them slightly (it approximates, it does not interpolate), which removes mocap jitter.
    public static func fit(_ trajectory: Trajectory, interval: Double, duration: Double? = nil) -> SE3Spline {
        // Knots on the exact nanosecond stamps, relative to the first (a file's times may be too
        // large for Double steps of `interval` to advance, e.g. nanoseconds written as seconds).
        let first = trajectory.poses[0].timestamp
        let span = trajectory.poses[trajectory.count - 1].timestamp.seconds(since: first)
        let end = duration.map { min($0 + 3 * interval, span) } ?? span
        let knots = Int((max(0, end) / interval).rounded(.down)) + 1
        let poses = (0..<knots).map { k -> SE3 in
            let t = Timestamp(nanoseconds: first.nanoseconds + Int64((Double(k) * interval * 1e9).rounded()))
            return trajectory.pose(at: t) ?? trajectory.poses[trajectory.count - 1].pose
        }
        return SE3Spline(start: first.seconds, interval: interval, controlPoses: poses)
    }

    /// The motion a simulation follows along `trajectory` (a ground truth): fitted with knots
    /// 0.05 s apart over its first `seconds`; nil when it spans less than 0.3 s (the spline needs
    /// four knots plus one on either side). What `parallax simulate --trajectory` and the bench's
    /// `simulate: {trajectory:}` both use.
    public static func following(_ trajectory: Trajectory, seconds: Double) -> SE3Spline? {
        guard trajectory.count >= 2, let a = trajectory.poses.first?.timestamp, let b = trajectory.poses.last?.timestamp,
              b.seconds(since: a) >= 0.3 else { return nil }
        return fit(trajectory, interval: 0.05, duration: seconds)
    }

    /// First and last time (s) at which the spline is defined.
    public var validRange: ClosedRange<Double> {
        (start + interval)...(start + Double(positions.count - 2) * interval - 1e-9)
    }

    /// Cumulative basis values B̃₁..₃(u) and derivatives w.r.t. u (uniform cubic).
    static func cumulativeBasis(_ u: Double) -> (b: Vector3, db: Vector3, ddb: Vector3) {
        let u2 = u * u, u3 = u2 * u
        let b = Vector3((5 + 3 * u - 3 * u2 + u3) / 6, (1 + 3 * u + 3 * u2 - 2 * u3) / 6, u3 / 6)
        let db = Vector3((3 - 6 * u + 3 * u2) / 6, (3 + 6 * u - 6 * u2) / 6, 3 * u2 / 6)
        let ddb = Vector3((-6 + 6 * u) / 6, (6 - 12 * u) / 6, u)
        return (b, db, ddb)
    }

    /// Segment index i (control points i−1…i+2) and u ∈ [0, 1) for time t.
    private func segment(_ t: Double) -> (Int, Double) {
        let s = (t - start) / interval
        var i = Int(s.rounded(.down))
        i = min(max(i, 1), positions.count - 3)
        return (i, s - Double(i))
    }

    /// The pose `T_WB(t)`.
    public func pose(at t: Double) -> SE3 { evaluate(t).pose }

    /// Pose, world velocity (m/s), world acceleration (m/s²) and body angular velocity (rad/s).
    public func evaluate(_ t: Double) -> (pose: SE3, velocity: Vector3, acceleration: Vector3, angularVelocity: Vector3) {
        let (i, u) = segment(t)
        let (b, db, ddb) = Self.cumulativeBasis(u)
        // Position: p = p_{i−1} + Σ_j B̃_j (p_{i−1+j} − p_{i−2+j}).
        var p = positions[i - 1], v = Vector3.zero, a = Vector3.zero
        for j in 1...3 {
            let d = positions[i - 1 + j] - positions[i - 2 + j]
            p += b[j - 1] * d
            v += db[j - 1] * d
            a += ddb[j - 1] * d
        }
        v /= interval
        a /= interval * interval
        // Rotation: R = R_{i−1} Π exp(B̃_j d_j); body rate ω_j = A_jᵀ ω_{j−1} + B̃'_j d_j.
        var r = rotations[i - 1]
        var omega = Vector3.zero
        for j in 1...3 {
            let d = increments[i - 1 + j]
            let step = SO3.exp(d * b[j - 1])
            r = r * step
            omega = step.inverse * omega + d * db[j - 1]
        }
        return (SE3(rotation: r, translation: p), v, a, omega / interval)
    }
}
