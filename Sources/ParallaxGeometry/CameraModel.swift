import Foundation
import ParallaxMath

/// Pinhole intrinsics: focal lengths and principal point, in pixels.
public struct PinholeIntrinsics: Sendable, Equatable, Hashable {
    /// Focal length along x (px).
    public var fx: Double
    /// Focal length along y (px).
    public var fy: Double
    /// Principal point x (px; pixel centres at integer coordinates, as EuRoC and OpenCV).
    public var cx: Double
    /// Principal point y (px).
    public var cy: Double

    /// Intrinsics from their four values.
    public init(fx: Double, fy: Double, cx: Double, cy: Double) {
        self.fx = fx; self.fy = fy; self.cx = cx; self.cy = cy
    }

    /// The calibration matrix `K`.
    public var matrix: Matrix3 {
        Matrix3(rows: Vector3(fx, 0, cx), Vector3(0, fy, cy), Vector3(0, 0, 1))
    }
}

/// Why a pixel could not be unprojected.
public enum CameraModelError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Iterative undistortion did not converge at this pixel (outside the model's valid region).
    case undistortionDidNotConverge(pixel: Vector2, model: String)
    /// A pixel coordinate is NaN or infinite.
    case nonFinitePixel(Vector2)
    /// The pixel's ray is 90° or more off the optical axis: it has no normalized point.
    case rayOutsideFrontHemisphere(pixel: Vector2)

    public var description: String {
        switch self {
        case let .undistortionDidNotConverge(p, model):
            return "cannot unproject pixel (\(p.x), \(p.y)): \(model) undistortion did not converge"
        case let .nonFinitePixel(p):
            return "cannot unproject pixel (\(p.x), \(p.y)): not finite"
        case let .rayOutsideFrontHemisphere(p):
            return "pixel (\(p.x), \(p.y)) looks 90° or more off the optical axis: no point on the z = 1 plane"
        }
    }
}

/// A central camera: image size, pinhole intrinsics and lens distortion.
///
/// Coordinates: camera frame `C` with x right, y down, z forward (optical axis); pixels
/// `(u, v)` with the centre of the top-left pixel at `(0, 0)`.
/// `project` maps `p_C` to a pixel, `unproject` maps a pixel to a unit bearing in `C`.
public struct CameraModel: Sendable, Equatable, Hashable {
    /// Image width (px).
    public var width: Int
    /// Image height (px).
    public var height: Int
    /// Pinhole intrinsics (px).
    public var intrinsics: PinholeIntrinsics
    /// Lens distortion on normalized coordinates.
    public var distortion: LensDistortion

    /// A camera model from its parts.
    public init(width: Int, height: Int, intrinsics: PinholeIntrinsics, distortion: LensDistortion = .none) {
        self.width = width
        self.height = height
        self.intrinsics = intrinsics
        self.distortion = distortion
    }

    /// Whether a pixel lies inside the image (with an optional border margin, px).
    public func contains(_ pixel: Vector2, margin: Double = 0) -> Bool {
        pixel.x >= margin - 0.5 && pixel.y >= margin - 0.5
            && pixel.x <= Double(width) - 0.5 - margin && pixel.y <= Double(height) - 0.5 - margin
    }

    /// Pixel of an undistorted normalized point (`z = 1` plane).
    public func pixel(fromNormalized p: Vector2) -> Vector2 {
        pixel(fromDistorted: distortion.distort(p).point)
    }

    func pixel(fromDistorted d: Vector2) -> Vector2 {
        Vector2(intrinsics.fx * d.x + intrinsics.cx, intrinsics.fy * d.y + intrinsics.cy)
    }

    /// Projects a point in the camera frame (m) to a pixel. The result may lie outside the
    /// image: check with ``contains(_:margin:)``.
    ///
    /// Returns `nil` for points the model cannot see: `z ≤ 0` for pinhole and
    /// radial-tangential; for equidistant (fisheye), which sees past 90°, only points on the
    /// negative optical axis (θ = π).
    public func project(_ p: Vector3) -> Vector2? {
        if case .equidistant = distortion {
            let r = (p.x * p.x + p.y * p.y).squareRoot()
            if r == 0 { return p.z > 0 ? pixel(fromDistorted: .zero) : nil }
            let theta = atan2(r, p.z)
            let s = distortion.equidistantThetaD(theta).thetaD / r
            return pixel(fromDistorted: Vector2(p.x * s, p.y * s))
        }
        guard p.z > 0 else { return nil }
        return pixel(fromNormalized: Vector2(p.x / p.z, p.y / p.z))
    }

    /// Projects and returns ∂pixel/∂p as well; `nil` where ``project(_:)`` is `nil`.
    public func projectWithJacobian(_ p: Vector3) -> (pixel: Vector2, jacobian: Jacobian2x3)? {
        if case .equidistant = distortion {
            return projectEquidistantWithJacobian(p)
        }
        guard p.z > 0 else { return nil }
        let iz = 1 / p.z
        let n = Vector2(p.x * iz, p.y * iz)
        let (d, jd) = distortion.distort(n)
        // ∂n/∂p = [[1/z, 0, -x/z²], [0, 1/z, -y/z²]]
        let dn0 = Vector3(iz, 0, -n.x * iz)
        let dn1 = Vector3(0, iz, -n.y * iz)
        let row0 = intrinsics.fx * (jd[0, 0] * dn0 + jd[0, 1] * dn1)
        let row1 = intrinsics.fy * (jd[1, 0] * dn0 + jd[1, 1] * dn1)
        return (pixel(fromDistorted: d), Jacobian2x3(row0: row0, row1: row1))
    }

    /// Equidistant projection `d = θd(θ)/r · (x, y)` with `θ = atan2(r, z)`, differentiated
    /// directly in 3D so that it holds beyond 90° of incidence.
    private func projectEquidistantWithJacobian(_ p: Vector3) -> (pixel: Vector2, jacobian: Jacobian2x3)? {
        let r2 = p.x * p.x + p.y * p.y
        let r = r2.squareRoot()
        if r <= 1e-12 * abs(p.z) {
            // On the axis: first order is the pinhole map (the distortion terms are O(θ³)).
            guard p.z > 0 else { return nil }
            let iz = 1 / p.z
            let n = Vector2(p.x * iz, p.y * iz)
            return (pixel(fromDistorted: n),
                    Jacobian2x3(row0: intrinsics.fx * Vector3(iz, 0, -n.x * iz), row1: intrinsics.fy * Vector3(0, iz, -n.y * iz)))
        }
        let rho2 = r2 + p.z * p.z
        let theta = atan2(r, p.z)
        let (thetaD, dThetaD) = distortion.equidistantThetaD(theta)
        let s = thetaD / r
        // ∂θ/∂p and ∂r/∂p
        let dTheta = Vector3(p.z * p.x / (r * rho2), p.z * p.y / (r * rho2), -r / rho2)
        let dR = Vector3(p.x / r, p.y / r, 0)
        let dS = (dThetaD * r * dTheta - thetaD * dR) / r2
        let row0 = intrinsics.fx * (Vector3(s, 0, 0) + p.x * dS)
        let row1 = intrinsics.fy * (Vector3(0, s, 0) + p.y * dS)
        return (pixel(fromDistorted: Vector2(p.x * s, p.y * s)), Jacobian2x3(row0: row0, row1: row1))
    }

    /// The unit bearing vector in the camera frame seen at `pixel`. For equidistant lenses it
    /// may point backwards (z < 0) when the field of view exceeds 180°.
    /// Throws when the iterative undistortion does not converge.
    public func unproject(_ pixel: Vector2) throws -> Vector3 {
        guard pixel.x.isFinite, pixel.y.isFinite else { throw CameraModelError.nonFinitePixel(pixel) }
        let d = Vector2((pixel.x - intrinsics.cx) / intrinsics.fx, (pixel.y - intrinsics.cy) / intrinsics.fy)
        if case .equidistant = distortion {
            let thetaD = d.norm
            if thetaD < 1e-12 { return Vector3(d.x, d.y, 1).normalized }
            guard let theta = distortion.equidistantTheta(thetaD: thetaD) else {
                throw CameraModelError.undistortionDidNotConverge(pixel: pixel, model: distortion.name)
            }
            let u = d / thetaD
            return Vector3(sin(theta) * u.x, sin(theta) * u.y, cos(theta))
        }
        guard let n = distortion.undistort(d) else {
            throw CameraModelError.undistortionDidNotConverge(pixel: pixel, model: distortion.name)
        }
        return Vector3(n.x, n.y, 1).normalized
    }

    /// The undistorted normalized point (`z = 1` plane) seen at `pixel`. Throws when the
    /// undistortion does not converge or the ray points 90° or more off the optical axis
    /// (it has no point on the `z = 1` plane).
    public func normalized(_ pixel: Vector2) throws -> Vector2 {
        let b = try unproject(pixel)
        guard b.z > 1e-12 else { throw CameraModelError.rayOutsideFrontHemisphere(pixel: pixel) }
        return Vector2(b.x / b.z, b.y / b.z)
    }

    /// Where an ideal pinhole camera with the same intrinsics would see what this camera sees
    /// at `pixel` (px): the undistorted pixel, in which epipolar lines and homographies are
    /// straight. `pixel` itself when it cannot be undistorted.
    public func undistortedPixel(_ pixel: Vector2) -> Vector2 {
        guard let n = try? normalized(pixel) else { return pixel }
        return Vector2(intrinsics.fx * n.x + intrinsics.cx, intrinsics.fy * n.y + intrinsics.cy)
    }
}
