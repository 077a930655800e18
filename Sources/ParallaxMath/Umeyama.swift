/// Least-squares alignment of two corresponding point sets (Umeyama 1991), the method evo
/// uses for APE alignment.
///
/// Finds `S` minimizing `Σ ‖target_i − S(source_i)‖²` with `S` a rigid transform
/// (``Mode/se3``) or a similarity (``Mode/sim3``). Reflection-safe: when the cross-covariance
/// has `det(U)·det(V) < 0`, the smallest singular direction is flipped, so the result is
/// always a proper rotation. The 3×3 SVD goes through LAPACK `dgesdd`.
public enum Umeyama {
    /// Which transform to estimate.
    public enum Mode: Sendable { case se3, sim3 }

    /// The estimated transform and its fit.
    public struct Alignment: Sendable {
        /// `S_target_source` (scale 1 in ``Mode/se3``).
        public let transform: Sim3
        /// Root mean square residual after alignment (m).
        public let rmse: Double
    }

    /// Why an alignment is impossible.
    public enum AlignmentError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The two sets have different sizes.
        case countMismatch(source: Int, target: Int)
        /// Fewer than 3 points (or all source points collinear/identical): rotation undetermined.
        case degenerate(points: Int, reason: String)

        public var description: String {
            switch self {
            case let .countMismatch(s, t): return "Umeyama alignment: \(s) source points but \(t) target points"
            case let .degenerate(n, reason): return "Umeyama alignment over \(n) points is degenerate: \(reason)"
            }
        }
    }

    /// Aligns `source` onto `target`; with `weights` (≥ 0, one per point, not all 0), the
    /// weighted least-squares alignment (weighted Procrustes: each point's squared residual
    /// counts `weights[k]` times; ``Alignment/rmse`` is then the weighted RMS).
    public static func align(source: [Vector3], target: [Vector3], mode: Mode, weights: [Double]? = nil) throws -> Alignment {
        guard source.count == target.count else { throw AlignmentError.countMismatch(source: source.count, target: target.count) }
        let n = source.count
        guard n >= 3 else { throw AlignmentError.degenerate(points: n, reason: "need at least 3 points") }
        guard source.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }),
              target.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite })
        else { throw LinearAlgebraError.nonFinite(operation: "Umeyama.align") }
        if let weights {
            guard weights.count == n else { throw AlignmentError.countMismatch(source: n, target: weights.count) }
            guard weights.allSatisfy({ $0.isFinite && $0 >= 0 }) else { throw AlignmentError.degenerate(points: n, reason: "a weight is negative or not finite") }
            guard weights.filter({ $0 > 0 }).count >= 3 else { throw AlignmentError.degenerate(points: n, reason: "fewer than 3 points have weight") }
        }
        let w = weights ?? [Double](repeating: 1, count: n)
        let invN = 1 / w.reduce(0, +)
        let muS = zip(source, w).reduce(Vector3.zero) { $0 + $1.0 * $1.1 } * invN
        let muT = zip(target, w).reduce(Vector3.zero) { $0 + $1.0 * $1.1 } * invN
        var sigma = Matrix3.zero
        var varianceS = 0.0
        for k in 0..<n where w[k] > 0 {
            let ds = source[k] - muS
            let dt = target[k] - muT
            sigma = sigma + Matrix3.outer(w[k] * dt, ds)
            varianceS += w[k] * ds.squaredNorm
        }
        sigma = invN * sigma
        varianceS *= invN
        // Coordinates near the largest double (1e154 and up) overflow their squares: no alignment.
        guard varianceS.isFinite, sigma.matrix.isFinite else {
            throw AlignmentError.degenerate(points: n, reason: "coordinates too large to align (their squares overflow)")
        }
        guard varianceS > 0 else { throw AlignmentError.degenerate(points: n, reason: "all source points coincide") }

        let svd = try SVD(sigma.matrix)
        let d = svd.singularValues
        guard d[1] > 1e-12 * max(d[0], 1e-300) else {
            throw AlignmentError.degenerate(points: n, reason: "points are collinear")
        }
        let u = try Matrix3(svd.u)
        let vt = try Matrix3(svd.vt)
        var signs = Vector3(1, 1, 1)
        if u.determinant * vt.determinant < 0 { signs.z = -1 }
        let r = u * Matrix3.diagonal(signs) * vt
        let scale = mode == .sim3 ? (d[0] * signs.x + d[1] * signs.y + d[2] * signs.z) / varianceS : 1
        let rotation = SO3(r)
        let t = muT - scale * (rotation * muS)
        let transform = Sim3(scale: scale, rotation: rotation, translation: t)
        var sse = 0.0
        for k in 0..<n { sse += w[k] * (target[k] - transform * source[k]).squaredNorm }
        return Alignment(transform: transform, rmse: (sse * invN).squareRoot())
    }
}
