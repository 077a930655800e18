import Foundation

/// A 3D rotation, the Lie group SO(3), stored as a unit Hamilton ``Quaternion`` with `w ≥ 0`.
///
/// Naming convention for all transforms in Parallax: `R_AB` maps coordinates in frame `B`
/// to frame `A` (`p_A = R_AB * p_B`); composition chains inner frames:
/// `R_AC = R_AB * R_BC`. The tangent space is ℝ³ (axis × angle, radians); ``exp(_:)`` and
/// ``log`` convert, and ``leftJacobian(_:)`` / ``rightJacobian(_:)`` relate perturbations:
/// `exp(φ + δ) ≈ exp(Jl(φ) δ) · exp(φ) ≈ exp(φ) · exp(Jr(φ) δ)`.
public struct SO3: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The unit quaternion, normalized so that `w ≥ 0`.
    public let quaternion: Quaternion

    /// A rotation from a quaternion (normalized here; any sign).
    public init(_ q: Quaternion) {
        let n = q.normalized
        quaternion = n.w < 0 ? Quaternion(w: -n.w, x: -n.x, y: -n.y, z: -n.z) : n
    }

    /// A rotation from a rotation matrix (assumed orthonormal; see ``init(orthonormalizing:)``).
    public init(_ m: Matrix3) { self.init(Quaternion(rotationMatrix: m)) }

    /// The closest rotation to an approximately orthonormal matrix (the polar factor: by
    /// Newton's iteration, ``Matrix3/nearestRotationByPolarIteration``, or else by SVD, LAPACK
    /// `dgesdd`); throws on NaN/Inf or a reflection-only input.
    public init(orthonormalizing m: Matrix3) throws {
        if let r = m.nearestRotationByPolarIteration {
            self.init(r)
            return
        }
        let svd = try SVD(m.matrix)
        var r = try Matrix3(svd.u.multiplied(by: svd.vt))
        if r.determinant < 0 {
            var u = svd.u
            for i in 0..<3 { u[i, 2] = -u[i, 2] }
            r = try Matrix3(u.multiplied(by: svd.vt))
        }
        self.init(r)
    }

    /// The identity rotation.
    public static let identity = SO3(Quaternion.identity)

    /// The rotation matrix.
    public var matrix: Matrix3 { quaternion.rotationMatrix }

    /// The inverse rotation `R⁻¹ = Rᵀ`.
    public var inverse: SO3 { SO3(quaternion.conjugate) }

    /// Composition: `(a * b)(p) = a(b(p))`.
    public static func * (a: SO3, b: SO3) -> SO3 { SO3(a.quaternion * b.quaternion) }

    /// Rotates a vector.
    public static func * (r: SO3, v: Vector3) -> Vector3 { r.quaternion.rotate(v) }

    /// The exponential map: the rotation by angle `|φ|` (rad) about axis `φ/|φ|`.
    /// Accurate to machine precision for every angle, including |φ| → 0.
    public static func exp(_ phi: Vector3) -> SO3 {
        let theta2 = phi.squaredNorm
        let theta = theta2.squareRoot()
        let w: Double, k: Double  // k = sin(θ/2)/θ
        if theta < 1e-4 {
            w = 1 - theta2 / 8 + theta2 * theta2 / 384
            k = 0.5 - theta2 / 48 + theta2 * theta2 / 3840
        } else {
            w = cos(theta / 2)
            k = sin(theta / 2) / theta
        }
        return SO3(Quaternion(w: w, vector: phi * k))
    }

    /// The logarithm map: the rotation vector φ with |φ| ∈ [0, π] (rad). Uses
    /// `2·atan2(|v|, w)`, which stays accurate near 0 and near π.
    public var log: Vector3 {
        let v = quaternion.vector
        let vn = v.norm
        let w = quaternion.w
        if vn < 1e-8 {
            // θ ≈ 2|v|/w; series keeps relative accuracy.
            return v * (2 / w) * (1 - vn * vn / (3 * w * w))
        }
        let theta = 2 * atan2(vn, w)
        return v * (theta / vn)
    }

    /// Rotation angle in radians, in [0, π].
    public var angle: Double { 2 * atan2(quaternion.vector.norm, quaternion.w) }

    /// Geodesic interpolation: `self · exp(t · log(self⁻¹ · other))`; `t = 0` gives `self`.
    public func interpolated(to other: SO3, t: Double) -> SO3 {
        self * SO3.exp((inverse * other).log * t)
    }

    /// Left Jacobian `Jl(φ) = I + (1−cos θ)/θ² [φ]× + (θ − sin θ)/θ³ [φ]×²`.
    public static func leftJacobian(_ phi: Vector3) -> Matrix3 {
        let (a, b) = jacobianCoefficients(phi)
        let k = Matrix3.skew(phi)
        return Matrix3.identity + a * k + b * (k * k)
    }

    /// Right Jacobian `Jr(φ) = Jl(−φ)`.
    public static func rightJacobian(_ phi: Vector3) -> Matrix3 { leftJacobian(-phi) }

    /// Inverse left Jacobian `Jl⁻¹(φ) = I − ½[φ]× + (1/θ² − (1+cos θ)/(2θ sin θ)) [φ]×²`
    /// (valid for θ < 2π; singular at θ = 2π).
    public static func inverseLeftJacobian(_ phi: Vector3) -> Matrix3 {
        let theta2 = phi.squaredNorm
        let theta = theta2.squareRoot()
        let c: Double
        if theta < 1e-4 {
            c = 1.0 / 12 + theta2 / 720
        } else {
            c = 1 / theta2 - (1 + cos(theta)) / (2 * theta * sin(theta))
        }
        let k = Matrix3.skew(phi)
        return Matrix3.identity - 0.5 * k + c * (k * k)
    }

    /// Inverse right Jacobian `Jr⁻¹(φ) = Jl⁻¹(−φ)`.
    public static func inverseRightJacobian(_ phi: Vector3) -> Matrix3 { inverseLeftJacobian(-phi) }

    /// `((1 − cos θ)/θ², (θ − sin θ)/θ³)` with series near 0.
    static func jacobianCoefficients(_ phi: Vector3) -> (Double, Double) {
        let theta2 = phi.squaredNorm
        let theta = theta2.squareRoot()
        if theta < 1e-4 {
            return (0.5 - theta2 / 24, 1.0 / 6 - theta2 / 120)
        }
        return ((1 - cos(theta)) / theta2, (theta - sin(theta)) / (theta2 * theta))
    }

    public var description: String { "SO3(log: \(log))" }
}
