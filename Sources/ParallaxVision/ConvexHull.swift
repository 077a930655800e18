import ParallaxMath

/// The convex hull of points in a plane (Andrew's monotone chain, O(n log n)).
public enum ConvexHull {
    /// The hull's corners counter-clockwise (in a frame whose y axis is 90° counter-clockwise
    /// from x), starting at the lowest-x (then lowest-y) point; collinear points on its edges are
    /// left out. Fewer than 3 distinct points give those points.
    public static func of(_ points: [Vector2]) -> [Vector2] {
        let sorted = points.filter { $0.x.isFinite && $0.y.isFinite }.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
        var unique: [Vector2] = []
        for p in sorted where unique.last != p { unique.append(p) }
        guard unique.count >= 3 else { return unique }
        // Turns within rounding of zero are collinear (points on an edge computed in floating point).
        let scale = unique.reduce(0.0) { max($0, abs($1.x - unique[0].x), abs($1.y - unique[0].y)) }
        let tolerance = 1e-12 * scale * scale
        func turn(_ o: Vector2, _ a: Vector2, _ b: Vector2) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
        var hull: [Vector2] = []
        for p in unique {
            while hull.count >= 2, turn(hull[hull.count - 2], hull[hull.count - 1], p) <= tolerance { hull.removeLast() }
            hull.append(p)
        }
        let lowerCount = hull.count
        for p in unique.reversed().dropFirst() {
            while hull.count > lowerCount, turn(hull[hull.count - 2], hull[hull.count - 1], p) <= tolerance { hull.removeLast() }
            hull.append(p)
        }
        hull.removeLast()
        return hull
    }

    /// Whether `p` lies inside (or on) the counter-clockwise convex polygon `polygon`.
    public static func contains(_ polygon: [Vector2], _ p: Vector2) -> Bool {
        guard polygon.count >= 3 else { return false }
        for k in polygon.indices {
            let a = polygon[k], b = polygon[(k + 1) % polygon.count]
            if (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < 0 { return false }
        }
        return true
    }

    /// The area of a simple polygon (shoelace; positive when counter-clockwise).
    public static func area(_ polygon: [Vector2]) -> Double {
        guard polygon.count >= 3 else { return 0 }
        var sum = 0.0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum / 2
    }
}
