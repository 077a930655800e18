import ParallaxMath
import ParallaxGeometry

/// Reads a depth map (m, row-major, NaN where invalid) at a point of the image the way a
/// measuring app needs: the median of the valid depths in a small window around the pixel, so
/// one noisy or missing pixel does not decide, and the 3D point on that pixel's own ray.
public struct DepthProbe: Sendable {
    /// The window is `window × window` pixels (odd), centred on the nearest pixel.
    public var window: Int
    /// The depth sensor's noise (``DepthNoise``), for the point's uncertainty.
    public var noise: DepthNoise

    public init(window: Int = 5, noise: DepthNoise = .kinect) {
        self.window = max(1, window | 1)
        self.noise = noise
    }

    /// A point read from depth.
    public struct Reading: Sendable, Equatable {
        /// The point (m, camera frame) on the pixel's ray at the median depth.
        public var point: Vector3
        /// The median depth (m) and how many valid pixels it came from.
        public var depth: Double
        public var samples: Int
        /// σ (m) of the point along its ray: the noise at that depth over the root of the
        /// samples (at least one pixel's σ / 3: neighbours' noise is not fully independent).
        public var sigma: Double
        /// Unit direction of the ray (camera frame).
        public var direction: Vector3
    }

    /// The reading at `pixel` of a map of `camera`'s size seen through it; `nil` when the pixel
    /// is outside the image, its ray cannot be undistorted, or no pixel of the window has a
    /// valid depth.
    public func read(_ pixel: Vector2, depth: [Float], camera: CameraModel) -> Reading? {
        let width = camera.width, height = camera.height, u = pixel.x, v = pixel.y
        // (strictly inside: a pixel's nearest sample must exist)
        guard u.isFinite, v.isFinite, u > -0.5, v > -0.5, u < Double(width) - 0.5, v < Double(height) - 0.5,
              depth.count == width * height, let n = try? camera.normalized(pixel) else { return nil }
        let cu = Int(u.rounded()), cv = Int(v.rounded()), r = window / 2
        var values: [Float] = []
        values.reserveCapacity(window * window)
        for y in max(0, cv - r)...min(height - 1, cv + r) {
            for x in max(0, cu - r)...min(width - 1, cu + r) {
                let z = depth[y * width + x]
                if z.isFinite, z > 0 { values.append(z) }
            }
        }
        guard !values.isEmpty else { return nil }
        values.sort()
        let z = values.count % 2 == 1 ? Double(values[values.count / 2]) : (Double(values[values.count / 2 - 1]) + Double(values[values.count / 2])) / 2
        let ray = Vector3(n.x, n.y, 1)
        let sigmaZ = noise.sigma(z) / max(1, Double(values.count).squareRoot())
        let floor = noise.sigma(z) / 3
        return Reading(point: z * ray, depth: z, samples: values.count, sigma: max(sigmaZ, floor) * ray.norm, direction: ray.normalized)
    }

    /// The distance (m) between two readings and its σ (m): each point's error runs along its
    /// own ray, so it moves the distance by its σ times the cosine between its ray and the line
    /// joining the points.
    public static func distance(_ a: Reading, _ b: Reading) -> (distance: Double, sigma: Double) {
        let d = b.point - a.point, length = d.norm
        guard length > 0 else { return (0, (a.sigma * a.sigma + b.sigma * b.sigma).squareRoot()) }
        let u = d / length
        let ea = a.sigma * u.dot(a.direction), eb = b.sigma * u.dot(b.direction)
        return (length, (ea * ea + eb * eb).squareRoot())
    }
}
