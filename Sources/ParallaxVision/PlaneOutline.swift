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
        // Axes along the major axis projected into the plane (the fit's own plane may differ
        // slightly), origin at the points' centroid on the plane.
        let frame = PlaneFrame(plane, origin: points.reduce(Vector3.zero, +) / Double(points.count), along: axis)
        let flat = points.map(frame.flat)
        let hull = ConvexHull.of(flat)
        var lo = Vector2(repeating: .infinity), hi = Vector2(repeating: -.infinity)
        for q in flat { lo = pointwiseMin(lo, q); hi = pointwiseMax(hi, q) }
        major = frame.u
        minor = frame.v
        centroid = frame.origin
        width = hi.x - lo.x
        length = hi.y - lo.y
        boundary = hull.map(frame.point)
        area = abs(ConvexHull.area(hull))
    }
}
