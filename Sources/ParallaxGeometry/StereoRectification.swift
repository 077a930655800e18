import ParallaxMath

/// Rectification of a calibrated stereo pair (Bouguet's method, as OpenCV's `stereoRectify`
/// with zero disparity at infinity): each camera is turned by half the rotation between them,
/// then both by the rotation that lays the baseline along x, and both are seen through one
/// ideal pinhole camera (no distortion, square pixels, the same principal point). In the
/// rectified pair a point appears on the same row of both images, at a column difference
/// (disparity, px) of `f·B / Z`.
///
/// The rectified images are sampled through ``sourcePixel(camera:rectified:)``: for a pixel of
/// the rectified image, where the original (distorted) camera saw that ray.
public struct StereoRectification: Sendable, Equatable {
    /// Which camera of the pair.
    public enum Side: Int, Sendable { case left = 0, right = 1 }

    /// The original cameras.
    public let left: CameraModel
    public let right: CameraModel
    /// `R_rect,orig` of each camera: a point's direction in the original camera frame, turned
    /// into the rectified frame.
    public let leftRotation: SO3
    public let rightRotation: SO3
    /// The ideal camera both rectified images share (the original image size, no distortion).
    public let rectified: CameraModel
    /// Distance between the camera centres (m).
    public let baseline: Double

    public enum RectificationError: Error, Equatable, CustomStringConvertible {
        /// The two camera centres coincide (no baseline, m).
        case noBaseline(Double)
        /// The cameras look in directions too far apart to share one image plane (deg).
        case tooDivergent(Double)
        /// The two images differ in size.
        case differentSizes(left: String, right: String)

        public var description: String {
            switch self {
            case let .noBaseline(b): return "the stereo calibration has no baseline (the camera centres are \(b) m apart)"
            case let .tooDivergent(a): return "the stereo cameras look \(a)° apart: too far to rectify onto one image plane (at most 60°)"
            case let .differentSizes(l, r): return "the stereo cameras have different image sizes (\(l) and \(r))"
            }
        }
    }

    /// The rectification of `left` and `right`, with `rightFromLeft` (`T_C1C0`: a point in the
    /// left camera frame, in the right camera's) from the calibration.
    public init(left: CameraModel, right: CameraModel, rightFromLeft: SE3) throws {
        guard left.width == right.width, left.height == right.height else {
            throw RectificationError.differentSizes(left: "\(left.width)×\(left.height)", right: "\(right.width)×\(right.height)")
        }
        let t = rightFromLeft.translation
        guard t.norm > 1e-6, t.norm.isFinite else { throw RectificationError.noBaseline(t.norm) }
        let omega = rightFromLeft.rotation.log
        let angle = omega.norm * 180 / .pi
        guard angle <= 60 else { throw RectificationError.tooDivergent(angle) }
        // Half turns: left' = exp(ω/2)·left, right' = exp(−ω/2)·right; then p_r' = p_l' + t'.
        let halfLeft = SO3.exp(omega * 0.5), halfRight = SO3.exp(omega * -0.5)
        let tPrime = halfRight * t
        // The right camera's centre seen from the left (−t') becomes the new x axis; the new y
        // is perpendicular to it in the old x–y plane, z completes the frame.
        let e1 = (tPrime * -1).normalized
        var e2 = Vector3(-e1.y, e1.x, 0)
        if e2.norm < 1e-9 { e2 = Vector3(0, 1, 0) }
        e2 = e2.normalized
        let e3 = e1.cross(e2)
        let turn = SO3(Matrix3(rows: e1, e2, e3))
        leftRotation = turn * halfLeft
        rightRotation = turn * halfRight
        self.left = left
        self.right = right
        baseline = t.norm
        // One focal length for both (the smaller, so that the rectified images sample no
        // coarser than the originals), and the principal point where the two original optical
        // axes land on average.
        let f = min(left.intrinsics.fx, left.intrinsics.fy, right.intrinsics.fx, right.intrinsics.fy)
        let axes = [leftRotation * Vector3(0, 0, 1), rightRotation * Vector3(0, 0, 1)]
        let mean = axes.reduce(Vector2(0, 0)) { $0 + Vector2($1.x / $1.z, $1.y / $1.z) } / 2
        let cx = Double(left.width - 1) / 2 - f * mean.x, cy = Double(left.height - 1) / 2 - f * mean.y
        rectified = CameraModel(width: left.width, height: left.height, intrinsics: PinholeIntrinsics(fx: f, fy: f, cx: cx, cy: cy))
    }

    /// The stereo geometry of the rectified pair: disparity `d` (px) is depth `f·B / d`.
    public var focalLength: Double { rectified.intrinsics.fx }

    /// Where camera `side` saw the ray through `rectified` pixel (px, original distorted image),
    /// or `nil` when that ray is behind it or outside its image.
    public func sourcePixel(camera side: Side, rectified pixel: Vector2) -> Vector2? {
        let k = rectified.intrinsics
        let ray = Vector3((pixel.x - k.cx) / k.fx, (pixel.y - k.cy) / k.fy, 1)
        let original = (side == .left ? leftRotation : rightRotation).inverse * ray
        let camera = side == .left ? left : right
        guard let p = camera.project(original), camera.contains(p) else { return nil }
        return p
    }

    /// Sampling positions of every rectified pixel of `side` (row-major, x then y), NaN where the
    /// original camera did not see it: the table `remap` reads (computed once per pair).
    public func sourceTable(camera side: Side) -> (x: [Float], y: [Float]) {
        let w = rectified.width, h = rectified.height
        var xs = [Float](repeating: .nan, count: w * h), ys = [Float](repeating: .nan, count: w * h)
        for v in 0..<h {
            for u in 0..<w {
                if let p = sourcePixel(camera: side, rectified: Vector2(Double(u), Double(v))) {
                    xs[v * w + u] = Float(p.x)
                    ys[v * w + u] = Float(p.y)
                }
            }
        }
        return (xs, ys)
    }

    /// Whether a pair needs no resampling: no distortion, the same focal lengths and principal
    /// row, parallel axes and a baseline along x (within `tolerance` rad and px). The principal
    /// points may differ along x (Middlebury's `doffs`): rows still correspond, and disparities
    /// are offset by the difference.
    public static func isRectified(left: CameraModel, right: CameraModel, rightFromLeft: SE3, tolerance: Double = 1e-6) -> Bool {
        let t = rightFromLeft.translation
        return left.distortion == .none && right.distortion == .none
            && left.intrinsics.fx == right.intrinsics.fx && left.intrinsics.fy == right.intrinsics.fy && left.intrinsics.cy == right.intrinsics.cy
            && left.width == right.width && left.height == right.height
            && rightFromLeft.rotation.log.norm <= tolerance
            && t.norm > 0 && abs(t.y) <= tolerance * t.norm && abs(t.z) <= tolerance * t.norm
    }
}
