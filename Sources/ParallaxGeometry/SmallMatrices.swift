import ParallaxMath

/// A 2×2 matrix stored as two columns (distortion Jacobians, image-plane covariances).
public struct Matrix2: Sendable, Equatable {
    /// Columns 0 and 1.
    public var c0: Vector2, c1: Vector2

    /// A matrix from its columns.
    @inlinable public init(columns c0: Vector2, _ c1: Vector2) { self.c0 = c0; self.c1 = c1 }

    /// The identity.
    public static let identity = Matrix2(columns: Vector2(1, 0), Vector2(0, 1))

    /// Element at row `i`, column `j`.
    @inlinable public subscript(i: Int, j: Int) -> Double { j == 0 ? c0[i] : c1[i] }

    /// Determinant.
    @inlinable public var determinant: Double { c0.x * c1.y - c1.x * c0.y }

    /// Solves `self · x = b`; `nil` when the matrix is singular.
    @inlinable public func solve(_ b: Vector2) -> Vector2? {
        let det = determinant
        guard abs(det) > 1e-300, det.isFinite else { return nil }
        return Vector2((c1.y * b.x - c1.x * b.y) / det, (c0.x * b.y - c0.y * b.x) / det)
    }

    @inlinable public static func * (m: Matrix2, v: Vector2) -> Vector2 { m.c0 * v.x + m.c1 * v.y }
}

/// A 2×3 Jacobian (∂pixel/∂point), stored as two rows.
public struct Jacobian2x3: Sendable, Equatable {
    /// ∂u/∂(x, y, z) and ∂v/∂(x, y, z).
    public var row0: Vector3, row1: Vector3

    /// A Jacobian from its rows.
    @inlinable public init(row0: Vector3, row1: Vector3) { self.row0 = row0; self.row1 = row1 }

    /// `self · d` (the first-order change of the output for an input change `d`).
    @inlinable public static func * (j: Jacobian2x3, d: Vector3) -> Vector2 { Vector2(j.row0.dot(d), j.row1.dot(d)) }
}
