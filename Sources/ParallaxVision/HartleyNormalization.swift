import ParallaxMath

/// Hartley's point normalization for the linear (DLT, 8-point) estimators: translate the
/// centroid to the origin and scale so the mean distance is √2, which keeps the linear
/// system well conditioned whatever the pixel coordinates.
public enum HartleyNormalization {
    /// The similarity `T` and the normalized points `T·p`; nil when all points coincide.
    public static func normalize(_ points: [Vector2]) -> (Matrix3, [Vector2])? {
        let n = Double(points.count)
        let c = points.reduce(Vector2.zero, +) / n
        let meanDistance = points.reduce(0) { $0 + ($1 - c).norm } / n
        guard meanDistance > 1e-12 else { return nil }
        let s = 2.0.squareRoot() / meanDistance
        let t = Matrix3(rows: Vector3(s, 0, -s * c.x), Vector3(0, s, -s * c.y), Vector3(0, 0, 1))
        return (t, points.map { ($0 - c) * s })
    }
}
