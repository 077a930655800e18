import ParallaxMath
import ParallaxGeometry

/// The ray of every pixel of a camera, computed once, so a depth map becomes points with one
/// multiply per pixel: a pixel `(u, v)` at depth `Z` (m, along the optical axis) is the point
/// `Z · (x, y, 1)` in the camera frame, `(x, y)` its undistorted normalized coordinates.
///
/// Lens distortion is undone through the camera model (``CameraModel/normalized(_:)``), so
/// back-projection is exact for distorted cameras too; a pixel whose ray cannot be undistorted
/// or points 90° or more off the axis has no ray (NaN) and never gives a point.
public struct DepthRays: Sendable {
    /// Image size (px) the rays belong to.
    public let width: Int, height: Int
    /// The camera they were computed for.
    public let camera: CameraModel
    /// Normalized `(x, y)` per pixel, row-major; NaN where the pixel has no ray.
    public let rays: [SIMD2<Float>]

    /// The rays of `camera`'s pixels.
    public init(camera: CameraModel) {
        self.camera = camera
        width = camera.width
        height = camera.height
        var rays = [SIMD2<Float>](repeating: SIMD2(.nan, .nan), count: max(0, camera.width) * max(0, camera.height))
        for v in 0..<max(0, camera.height) {
            for u in 0..<max(0, camera.width) {
                if let n = try? camera.normalized(Vector2(Double(u), Double(v))) {
                    rays[v * camera.width + u] = SIMD2(Float(n.x), Float(n.y))
                }
            }
        }
        self.rays = rays
    }

    /// The point (m, camera frame) seen at pixel index `i` (`v · width + u`) at depth `z` (m);
    /// `nil` for a depth that is not a positive finite number or a pixel without a ray.
    @inline(__always)
    public func point(at i: Int, depth z: Float) -> SIMD3<Float>? {
        let r = rays[i]
        guard z > 0, z.isFinite, !r.x.isNaN else { return nil }
        return SIMD3(z * r.x, z * r.y, z)
    }

    /// The point at pixel `(u, v)` (need not be integer; the ray is the camera model's own) at
    /// depth `z` (m); `nil` as ``point(at:depth:)``.
    public func point(u: Double, v: Double, depth z: Double) -> Vector3? {
        guard z > 0, z.isFinite, let n = try? camera.normalized(Vector2(u, v)) else { return nil }
        return Vector3(z * n.x, z * n.y, z)
    }
}
