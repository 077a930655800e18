/// A 3-vector of `Double` (metres, radians or m/s as the context says): the standard
/// library's `SIMD3<Double>`, with the geometric operations estimation code needs.
public typealias Vector3 = SIMD3<Double>

/// A 2-vector of `Double`, used for pixel coordinates (px) and normalized image points.
public typealias Vector2 = SIMD2<Double>

extension SIMD3 where Scalar == Double {
    /// Dot product.
    @inlinable public func dot(_ other: Self) -> Double { (self * other).sum() }
    /// Cross product `self × other`.
    @inlinable public func cross(_ o: Self) -> Self {
        Self(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }
    /// Squared Euclidean norm.
    @inlinable public var squaredNorm: Double { dot(self) }
    /// Euclidean norm.
    @inlinable public var norm: Double { squaredNorm.squareRoot() }
    /// The unit vector in the same direction (the zero vector stays zero).
    @inlinable public var normalized: Self {
        let n = norm
        return n > 0 ? self / n : self
    }
}

extension SIMD2 where Scalar == Double {
    /// Euclidean norm.
    @inlinable public var norm: Double { ((self * self).sum()).squareRoot() }
}
