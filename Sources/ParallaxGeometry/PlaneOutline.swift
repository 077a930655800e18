import ParallaxMath

/// How far a set of points on a plane extends: their principal axes in the plane, the extent
/// along each, and their convex boundary (ARPlaneAnchor's `extent` and `boundaryVertices`).
public struct PlaneOutline: Sendable, Equatable {
    /// Unit in-plane axes: `major` along the largest spread, `minor = normal × major`.
    public var major: Vector3, minor: Vector3
    /// Centroid of the points, projected onto the plane (m).
    public var centroid: Vector3
    /// Extent along `major` and `minor` (m).
    public var width: Double, length: Double
    /// Convex boundary (m, on the plane), corners counter-clockwise about the normal.
    public var boundary: [Vector3]
    /// Area inside the boundary (m²).
    public var area: Double

    /// The outline of `points` on `plane`, its axes along `major` when given (a fit's, known
    /// already), else along the points' own largest spread; `nil` for fewer than 3 points.
    public init?(points: [Vector3], plane: Plane, major given: Vector3? = nil) {
        guard points.count >= 3, let axis = given ?? Plane.fit(points)?.major else { return nil }
        let n = plane.normal
        // The major axis projected into the plane (the fit's own plane may differ slightly).
        var major = axis - n.dot(axis) * n
        if major.norm < 1e-9 { major = abs(n.x) < 0.9 ? Vector3(1, 0, 0).cross(n) : Vector3(0, 1, 0).cross(n) }
        major = major.normalized
        let minor = n.cross(major)
        let mean = points.reduce(Vector3.zero, +) / Double(points.count)
        let c = mean - plane.distance(to: mean) * n
        let flat = points.map { p -> Vector2 in let q = p - c; return Vector2(q.dot(major), q.dot(minor)) }
        let hull = ConvexHull.of(flat)
        var lo = Vector2(repeating: .infinity), hi = Vector2(repeating: -.infinity)
        for q in flat { lo = pointwiseMin(lo, q); hi = pointwiseMax(hi, q) }
        self.major = major
        self.minor = minor
        centroid = c
        width = hi.x - lo.x
        length = hi.y - lo.y
        boundary = hull.map { c + $0.x * major + $0.y * minor }
        area = abs(ConvexHull.area(hull))
    }
}
