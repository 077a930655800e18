import ParallaxMath

/// An axis-aligned box in pixels: top-left corner and size (VNDetectedObjectObservation's
/// bounding box, in pixels).
public struct BoundingBox: Sendable, Equatable, Codable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The smallest box holding `points`, clipped to a `width × height` image (pixel centres at
    /// integers, so the image spans −0.5 … size − 0.5); `nil` when nothing remains.
    public static func enclosing(_ points: [Vector2], clippedTo width: Int, _ height: Int) -> BoundingBox? {
        guard let first = points.first else { return nil }
        var lo = first, hi = first
        for p in points { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        lo = pointwiseMax(lo, Vector2(-0.5, -0.5))
        hi = pointwiseMin(hi, Vector2(Double(width) - 0.5, Double(height) - 0.5))
        guard hi.x > lo.x, hi.y > lo.y else { return nil }
        return BoundingBox(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    }

    /// The smallest box holding `points` (unclipped; an empty box at the origin for none).
    public static func enclosing(_ points: [Vector2]) -> BoundingBox {
        guard let first = points.first else { return BoundingBox(x: 0, y: 0, width: 0, height: 0) }
        var lo = first, hi = first
        for p in points { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        return BoundingBox(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    }

    /// Centre (px).
    public var center: Vector2 { Vector2(x + width / 2, y + height / 2) }

    /// Intersection over union with `other` (0 when either box is empty).
    public func iou(_ other: BoundingBox) -> Double {
        let ix = max(0, min(x + width, other.x + other.width) - max(x, other.x))
        let iy = max(0, min(y + height, other.y + other.height) - max(y, other.y))
        let inter = ix * iy
        let union = width * height + other.width * other.height - inter
        return union > 0 ? inter / union : 0
    }
}
