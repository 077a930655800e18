/// A rigid transform, the Lie group SE(3): rotation + translation (metres).
///
/// `T_AB` maps points in frame `B` to frame `A`: `p_A = T_AB * p_B = R_AB p_B + t_AB`
/// (`t_AB` is the origin of `B` expressed in `A`). Composition: `T_AC = T_AB * T_BC`.
/// Tangent vectors are `(ρ, φ)`: translation part first, rotation part second.
public struct SE3: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Rotation part `R_AB`.
    public var rotation: SO3
    /// Translation part `t_AB` (m).
    public var translation: Vector3

    /// A transform from its parts.
    public init(rotation: SO3 = .identity, translation: Vector3 = .zero) {
        self.rotation = rotation
        self.translation = translation
    }

    /// The identity transform.
    public static let identity = SE3()

    /// The inverse `T_BA = T_AB⁻¹`.
    public var inverse: SE3 {
        let rInv = rotation.inverse
        return SE3(rotation: rInv, translation: -(rInv * translation))
    }

    /// Composition `a * b`: apply `b`, then `a`.
    public static func * (a: SE3, b: SE3) -> SE3 {
        SE3(rotation: a.rotation * b.rotation, translation: a.rotation * b.translation + a.translation)
    }

    /// Transforms a point.
    public static func * (t: SE3, p: Vector3) -> Vector3 { t.rotation * p + t.translation }

    /// The exponential map of the twist `(ρ, φ)`: rotation `exp(φ)`, translation `Jl(φ) ρ`.
    public static func exp(rho: Vector3, phi: Vector3) -> SE3 {
        SE3(rotation: .exp(phi), translation: SO3.leftJacobian(phi) * rho)
    }

    /// The logarithm map: the twist `(ρ, φ)` with `exp(ρ, φ) = self`.
    public var log: (rho: Vector3, phi: Vector3) {
        let phi = rotation.log
        return (SO3.inverseLeftJacobian(phi) * translation, phi)
    }

    /// Geodesic interpolation on SE(3): `self · exp(t · log(self⁻¹ · other))`.
    public func interpolated(to other: SE3, t: Double) -> SE3 {
        let d = (inverse * other).log
        return self * SE3.exp(rho: d.rho * t, phi: d.phi * t)
    }

    /// The 4×4 homogeneous matrix.
    public var matrix: Matrix {
        var m = Matrix.identity(4)
        let r = rotation.matrix
        for i in 0..<3 {
            for j in 0..<3 { m[i, j] = r[i, j] }
            m[i, 3] = translation[i]
        }
        return m
    }

    /// A transform from a 4×4 homogeneous matrix (e.g. EuRoC's `T_BS`).
    ///
    /// Throws when the shape is not 4×4, the last row is not `0 0 0 1`, values are not finite,
    /// or the rotation block is not orthonormal with determinant +1 within `tolerance`
    /// (max deviation of `RᵀR` from identity). Within tolerance it is re-orthonormalized.
    public init(homogeneous m: Matrix, tolerance: Double = 1e-6) throws {
        guard m.rows == 4, m.columns == 4 else {
            throw LinearAlgebraError.dimensionMismatch(operation: "SE3(homogeneous:)", expected: "4×4", got: "\(m.rows)×\(m.columns)")
        }
        guard m.isFinite else { throw LinearAlgebraError.nonFinite(operation: "SE3(homogeneous:)") }
        guard m[3, 0] == 0, m[3, 1] == 0, m[3, 2] == 0, m[3, 3] == 1 else {
            throw TransformError.notHomogeneous(lastRow: m.row(3))
        }
        let r = try Matrix3(m.block(row: 0, column: 0, rows: 3, columns: 3))
        let deviation = (r.transposed * r - .identity).frobeniusNorm
        guard deviation <= tolerance, r.determinant > 0 else {
            throw TransformError.notARotation(orthogonalityError: deviation, determinant: r.determinant)
        }
        self.init(rotation: try SO3(orthonormalizing: r), translation: Vector3(m[0, 3], m[1, 3], m[2, 3]))
    }

    public var description: String { "SE3(t: \(translation), r: \(rotation.log))" }
}

/// Why a matrix could not be read as a rigid or similarity transform.
public enum TransformError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The last row of a homogeneous matrix is not `0 0 0 1`.
    case notHomogeneous(lastRow: [Double])
    /// The 3×3 block is not a rotation: `‖RᵀR − I‖_F` and `det R` are given.
    case notARotation(orthogonalityError: Double, determinant: Double)

    public var description: String {
        switch self {
        case let .notHomogeneous(lastRow):
            return "last row of the homogeneous matrix is \(lastRow), expected [0, 0, 0, 1]"
        case let .notARotation(err, det):
            return "rotation block is not a rotation (‖RᵀR − I‖ = \(err), det = \(det))"
        }
    }
}
