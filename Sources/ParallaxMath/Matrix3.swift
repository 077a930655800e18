/// A 3×3 matrix of `Double` stored as three columns: rotation matrices, covariances,
/// camera intrinsics. Closed-form arithmetic (no LAPACK call costs ~3 µs at this size).
public struct Matrix3: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Columns 0, 1, 2.
    public var c0: Vector3, c1: Vector3, c2: Vector3

    /// A matrix from its columns.
    @inlinable public init(columns c0: Vector3, _ c1: Vector3, _ c2: Vector3) {
        self.c0 = c0; self.c1 = c1; self.c2 = c2
    }

    /// A matrix from its rows, as written on paper.
    @inlinable public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        self.init(columns: Vector3(r0.x, r1.x, r2.x), Vector3(r0.y, r1.y, r2.y), Vector3(r0.z, r1.z, r2.z))
    }

    /// The identity.
    public static let identity = Matrix3(columns: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))
    /// The zero matrix.
    public static let zero = Matrix3(columns: .zero, .zero, .zero)

    /// A diagonal matrix.
    @inlinable public static func diagonal(_ d: Vector3) -> Matrix3 {
        Matrix3(columns: Vector3(d.x, 0, 0), Vector3(0, d.y, 0), Vector3(0, 0, d.z))
    }

    /// The skew-symmetric (cross-product) matrix `[v]×`, so that `[v]× · w = v × w`.
    @inlinable public static func skew(_ v: Vector3) -> Matrix3 {
        Matrix3(columns: Vector3(0, v.z, -v.y), Vector3(-v.z, 0, v.x), Vector3(v.y, -v.x, 0))
    }

    /// Outer product `a · bᵀ`.
    @inlinable public static func outer(_ a: Vector3, _ b: Vector3) -> Matrix3 {
        Matrix3(columns: a * b.x, a * b.y, a * b.z)
    }

    /// Element at row `i`, column `j` (0-based).
    @inlinable public subscript(i: Int, j: Int) -> Double {
        get { j == 0 ? c0[i] : (j == 1 ? c1[i] : c2[i]) }
        set {
            switch j {
            case 0: c0[i] = newValue
            case 1: c1[i] = newValue
            default: c2[i] = newValue
            }
        }
    }

    /// Row `i`.
    @inlinable public func row(_ i: Int) -> Vector3 { Vector3(c0[i], c1[i], c2[i]) }

    /// The transpose.
    @inlinable public var transposed: Matrix3 { Matrix3(rows: c0, c1, c2) }

    /// The trace.
    @inlinable public var trace: Double { c0.x + c1.y + c2.z }

    /// The determinant.
    @inlinable public var determinant: Double { c0.dot(c1.cross(c2)) }

    /// Frobenius norm.
    public var frobeniusNorm: Double { (c0.squaredNorm + c1.squaredNorm + c2.squaredNorm).squareRoot() }

    /// The inverse by the adjugate; `nil` when |det| ≤ 1e-300 (numerically singular).
    public var inverse: Matrix3? {
        let det = determinant
        guard abs(det) > 1e-300, det.isFinite else { return nil }
        let r0 = c1.cross(c2), r1 = c2.cross(c0), r2 = c0.cross(c1)
        return Matrix3(rows: r0 / det, r1 / det, r2 / det)
    }

    @inlinable public static func * (m: Matrix3, v: Vector3) -> Vector3 { m.c0 * v.x + m.c1 * v.y + m.c2 * v.z }
    @inlinable public static func * (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(columns: a * b.c0, a * b.c1, a * b.c2) }
    @inlinable public static func * (s: Double, m: Matrix3) -> Matrix3 { Matrix3(columns: m.c0 * s, m.c1 * s, m.c2 * s) }
    @inlinable public static func + (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(columns: a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2) }
    @inlinable public static func - (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(columns: a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2) }

    /// This matrix as a dynamic ``Matrix``.
    public var matrix: Matrix {
        // Column-major elements are exactly c0, c1, c2 in order.
        // swiftlint:disable:next force_try
        try! Matrix(rows: 3, columns: 3, columnMajor: [c0.x, c0.y, c0.z, c1.x, c1.y, c1.z, c2.x, c2.y, c2.z])
    }

    /// A `Matrix3` from a 3×3 ``Matrix``; throws on another shape.
    public init(_ m: Matrix) throws {
        guard m.rows == 3, m.columns == 3 else {
            throw LinearAlgebraError.dimensionMismatch(operation: "Matrix3(Matrix)", expected: "3×3", got: "\(m.rows)×\(m.columns)")
        }
        self.init(columns: Vector3(m[0, 0], m[1, 0], m[2, 0]), Vector3(m[0, 1], m[1, 1], m[2, 1]),
                  Vector3(m[0, 2], m[1, 2], m[2, 2]))
    }

    public var description: String { "[\(row(0)); \(row(1)); \(row(2))]" }
}

extension Matrix3 {
    /// `self` as a homography applied to the point `p` (`self · (p, 1)`, dehomogenized); nil
    /// when `p` maps to infinity.
    @inlinable public func transferring(_ p: Vector2) -> Vector2? {
        let q = self * Vector3(p.x, p.y, 1)
        guard abs(q.z) > 1e-12 else { return nil }
        return Vector2(q.x / q.z, q.y / q.z)
    }
}

extension Matrix {
    /// Copies the 3 × 3 `block` into this matrix with its top-left corner at (`row`, `column`).
    public mutating func setBlock(row: Int, column: Int, _ block: Matrix3) {
        for i in 0..<3 { for j in 0..<3 { self[row + i, column + j] = block[i, j] } }
    }
}
