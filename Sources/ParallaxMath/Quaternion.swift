import Foundation

/// A Hamilton quaternion `w + xi + yj + zk`, stored `(w, x, y, z)`.
///
/// Convention (Hamilton, as Eigen, ROS and EuRoC use it): `ij = k`, and a unit quaternion
/// `q` rotates a vector by `q · (0, v) · q*`. Dataset readers convert explicitly from TUM's
/// `qx qy qz qw` and EuRoC's `qw qx qy qz` orders.
public struct Quaternion: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Scalar part.
    public var w: Double
    /// Vector part.
    public var x: Double, y: Double, z: Double

    /// A quaternion from its four components in `(w, x, y, z)` order.
    @inlinable public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w; self.x = x; self.y = y; self.z = z
    }

    /// A quaternion from a scalar and a vector part.
    @inlinable public init(w: Double, vector v: Vector3) { self.init(w: w, x: v.x, y: v.y, z: v.z) }

    /// The identity rotation.
    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// The vector part `(x, y, z)`.
    @inlinable public var vector: Vector3 { Vector3(x, y, z) }

    /// Euclidean norm of the four components.
    @inlinable public var norm: Double { (w * w + x * x + y * y + z * z).squareRoot() }

    /// The unit quaternion in the same direction.
    @inlinable public var normalized: Quaternion {
        let n = norm
        return Quaternion(w: w / n, x: x / n, y: y / n, z: z / n)
    }

    /// The conjugate `w − xi − yj − zk` (the inverse of a unit quaternion).
    @inlinable public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }

    /// Hamilton product.
    @inlinable public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                   x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// Rotates `v` by this (unit) quaternion.
    @inlinable public func rotate(_ v: Vector3) -> Vector3 {
        let u = vector
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    /// The rotation matrix of this (unit) quaternion.
    public var rotationMatrix: Matrix3 {
        let xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z
        return Matrix3(rows: Vector3(1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)),
                       Vector3(2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)),
                       Vector3(2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy)))
    }

    /// The unit quaternion of a rotation matrix (Shepperd's method: numerically stable for
    /// every rotation, including 180°). The result has `w ≥ 0`.
    public init(rotationMatrix m: Matrix3) {
        let trace = m.trace
        var q: Quaternion
        if trace > m[0, 0], trace > m[1, 1], trace > m[2, 2] {
            let s = 2 * (1 + trace).squareRoot()
            q = Quaternion(w: s / 4, x: (m[2, 1] - m[1, 2]) / s, y: (m[0, 2] - m[2, 0]) / s, z: (m[1, 0] - m[0, 1]) / s)
        } else if m[0, 0] >= m[1, 1], m[0, 0] >= m[2, 2] {
            let s = 2 * (1 + m[0, 0] - m[1, 1] - m[2, 2]).squareRoot()
            q = Quaternion(w: (m[2, 1] - m[1, 2]) / s, x: s / 4, y: (m[0, 1] + m[1, 0]) / s, z: (m[0, 2] + m[2, 0]) / s)
        } else if m[1, 1] >= m[2, 2] {
            let s = 2 * (1 - m[0, 0] + m[1, 1] - m[2, 2]).squareRoot()
            q = Quaternion(w: (m[0, 2] - m[2, 0]) / s, x: (m[0, 1] + m[1, 0]) / s, y: s / 4, z: (m[1, 2] + m[2, 1]) / s)
        } else {
            let s = 2 * (1 - m[0, 0] - m[1, 1] + m[2, 2]).squareRoot()
            q = Quaternion(w: (m[1, 0] - m[0, 1]) / s, x: (m[0, 2] + m[2, 0]) / s, y: (m[1, 2] + m[2, 1]) / s, z: s / 4)
        }
        if q.w < 0 { q = Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) }
        self = q.normalized
    }

    /// Spherical linear interpolation from `self` (t = 0) to `other` (t = 1) along the
    /// shorter arc. Both must be unit quaternions.
    public func slerp(to other: Quaternion, t: Double) -> Quaternion {
        var b = other
        var cosAngle = w * b.w + x * b.x + y * b.y + z * b.z
        if cosAngle < 0 { b = Quaternion(w: -b.w, x: -b.x, y: -b.y, z: -b.z); cosAngle = -cosAngle }
        let wa: Double, wb: Double
        if cosAngle > 1 - 1e-12 {
            wa = 1 - t; wb = t
        } else {
            let angle = acos(min(1, cosAngle))
            let s = sin(angle)
            wa = sin((1 - t) * angle) / s
            wb = sin(t * angle) / s
        }
        return Quaternion(w: wa * w + wb * b.w, x: wa * x + wb * b.x, y: wa * y + wb * b.y, z: wa * z + wb * b.z).normalized
    }

    public var description: String { "Quaternion(w: \(w), x: \(x), y: \(y), z: \(z))" }
}
