import ParallaxGeometry
import ParallaxMath

/// Eye rotations and the look-at point from the iris centres seen in the image, given the head
/// pose: each eye is a sphere of ``CanonicalFace/eyeballRadius`` about its rotation centre
/// (fixed in the head); the iris centre lies on that sphere where the pixel's ray meets it
/// (the nearer crossing), and the line of sight runs from the centre through it.
public enum EyeGaze {
    /// Both eyes (`T_HE`: translation the eyeball centre, +z the line of sight, +x level with the
    /// head's x–z plane, as ARKit's eye transforms) and the point they look at (head frame, m).
    public struct Eyes: Sendable, Equatable {
        public var right: SE3
        public var left: SE3
        /// Where the lines of sight pass closest to each other (the middle of their common
        /// perpendicular); when they do not converge in front of the face (parallel or diverging
        /// within noise), the point ``farPoint`` m along their mean direction from between the eyes.
        public var lookAtPoint: Vector3
        /// Whether the lines of sight converge in front of the face.
        public var converging: Bool

        public init(right: SE3, left: SE3, lookAtPoint: Vector3, converging: Bool) {
            self.right = right
            self.left = left
            self.lookAtPoint = lookAtPoint
            self.converging = converging
        }
    }

    /// Distance of the look-at point when the lines of sight do not converge (m).
    public static let farPoint = 2.0

    /// The eyes of a head at `cameraFromHead` whose iris centres are seen at `rightIris` and
    /// `leftIris` (px) by `camera`; eyeball centres in the head frame.
    public static func eyes(cameraFromHead: SE3, rightIris: Vector2, leftIris: Vector2, centers: (right: Vector3, left: Vector3), camera: CameraModel) throws -> Eyes {
        let right = try sightLine(cameraFromHead: cameraFromHead, iris: rightIris, center: centers.right, camera: camera)
        let left = try sightLine(cameraFromHead: cameraFromHead, iris: leftIris, center: centers.left, camera: camera)
        let (look, converging) = lookAt(right: (centers.right, right), left: (centers.left, left))
        return Eyes(right: transform(center: centers.right, sight: right), left: transform(center: centers.left, sight: left), lookAtPoint: look, converging: converging)
    }

    /// The line of sight (unit, head frame) of the eye centred at `center` (head frame) whose
    /// iris centre is seen at `iris`.
    static func sightLine(cameraFromHead: SE3, iris: Vector2, center: Vector3, camera: CameraModel) throws -> Vector3 {
        let c = cameraFromHead * center
        let ray = try camera.unproject(iris).normalized
        // |s·ray − c|² = r²: s² − 2 s (ray·c) + |c|² − r² = 0; the nearer root.
        let b = ray.dot(c)
        let disc = b * b - (c.squaredNorm - CanonicalFace.eyeballRadius * CanonicalFace.eyeballRadius)
        // A ray that misses the sphere (landmark noise): the sphere's point nearest to it.
        let onSurface = disc >= 0 ? (b - disc.squareRoot()) * ray : c + CanonicalFace.eyeballRadius * (b * ray - c).normalized
        return cameraFromHead.rotation.inverse * (onSurface - c).normalized
    }

    /// `T_HE` of an eye centred at `center` looking along `sight` (head frame).
    static func transform(center: Vector3, sight z: Vector3) -> SE3 {
        let x = Vector3(0, 1, 0).cross(z).normalized
        return SE3(rotation: SO3(Matrix3(columns: x, z.cross(x), z)), translation: center)
    }

    /// Where two lines of sight (origin, direction) look: the middle of their common
    /// perpendicular when they converge in front of the eyes, else ``farPoint`` m along their
    /// mean direction from between the eyes (`converging` false).
    public static func lookAt(right: (Vector3, Vector3), left: (Vector3, Vector3)) -> (point: Vector3, converging: Bool) {
        let (p, u) = right, (q, v) = left
        let w = p - q
        let a = u.dot(u), b = u.dot(v), c = v.dot(v), d = u.dot(w), e = v.dot(w)
        let denominator = a * c - b * b
        let between = (p + q) / 2
        let mean = (u + v).normalized
        guard denominator > 1e-10 else { return (between + farPoint * mean, false) }
        let s = (b * e - c * d) / denominator, t = (a * e - b * d) / denominator
        guard s > 0, t > 0, s < 100, t < 100 else { return (between + farPoint * mean, false) }
        return (((p + s * u) + (q + t * v)) / 2, true)
    }
}
