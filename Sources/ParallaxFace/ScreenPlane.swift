import ParallaxMath

/// A flat screen in the camera frame: its top-left corner, its axes along the camera's x
/// (right) and y (down) — the camera sits in the screen's plane, as a phone's or laptop's front
/// camera does — and its size.
public struct ScreenPlane: Sendable, Equatable {
    /// Top-left corner (camera frame, m).
    public var corner: Vector3
    /// Width along camera x and height along camera y (m).
    public var width: Double, height: Double

    public init(corner: Vector3, width: Double, height: Double) {
        self.corner = corner
        self.width = width
        self.height = height
    }

    /// A phone held upright with its front camera centred `gap` m above the screen's top edge.
    public static func phone(width: Double = 0.071, height: Double = 0.15, gap: Double = 0.01) -> ScreenPlane {
        ScreenPlane(corner: Vector3(-width / 2, gap, 0), width: width, height: height)
    }

    /// Where the ray `origin + s·direction` (s > 0, camera frame) meets the screen's plane, in
    /// screen coordinates (m from the top-left corner along width and height); `nil` when it runs
    /// parallel to the plane or away from it.
    public func intersect(origin: Vector3, direction: Vector3) -> Vector2? {
        guard abs(direction.z) > 1e-12 else { return nil }
        let s = (corner.z - origin.z) / direction.z
        guard s > 0 else { return nil }
        let hit = origin + s * direction
        return Vector2(hit.x - corner.x, hit.y - corner.y)
    }

    /// Whether a screen point lies on the screen.
    public func contains(_ point: Vector2) -> Bool {
        point.x >= 0 && point.x <= width && point.y >= 0 && point.y <= height
    }
}
