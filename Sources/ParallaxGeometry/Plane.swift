import Foundation
import ParallaxMath

/// A plane `n · p + d = 0` (unit normal `n`, offset `d` in metres).
public struct Plane: Sendable, Equatable, Codable {
    /// Unit normal.
    public var normal: Vector3
    /// Offset (m): the signed distance of the origin from the plane is `d`.
    public var offset: Double

    /// The plane with unit normal `normal` (normalized here) and offset `offset`.
    public init(normal: Vector3, offset: Double) {
        let length = normal.norm
        self.normal = length > 0 ? normal / length : normal
        self.offset = length > 0 ? offset / length : offset
    }

    /// The plane through three points; `nil` when they are (nearly) collinear.
    public init?(through a: Vector3, _ b: Vector3, _ c: Vector3) {
        let n = (b - a).cross(c - a)
        let length = n.norm
        guard length > 1e-12 * max(1, (b - a).norm * (c - a).norm) else { return nil }
        self.init(normal: n / length, offset: -(n / length).dot(a))
    }

    /// Signed distance (m) of `p` from the plane (positive on the normal's side).
    @inline(__always)
    public func distance(to p: Vector3) -> Double { normal.dot(p) + offset }

    /// The same plane with its normal pointing toward `p` (toward the camera for `p = 0`).
    public func facing(_ p: Vector3) -> Plane {
        distance(to: p) >= 0 ? self : Plane(normal: -normal, offset: -offset)
    }

    /// The angle (rad, 0…π/2) between the two planes' normals, orientation ignored.
    public func angle(to other: Plane) -> Double {
        acos(min(1, abs(normal.dot(other.normal))))
    }

    /// The least-squares plane of `points` (weights `weights`, default equal): through their
    /// weighted centroid, normal along the covariance's smallest eigenvector (LAPACK `dsyevd`).
    /// Also returns the centroid, the eigenvalues over the weight sum (ascending: the smallest is
    /// the mean squared distance to the plane, the others the spread along the in-plane axes) and
    /// the in-plane principal axes (unit; `major` along the largest spread). `nil` for fewer than
    /// 3 points or no weight.
    public static func fit(_ points: [Vector3], weights: [Double]? = nil) -> Fit? {
        guard points.count >= 3 else { return nil }
        var total = 0.0, centroid = Vector3.zero
        for (i, p) in points.enumerated() {
            let w = weights?[i] ?? 1
            total += w
            centroid += w * p
        }
        guard total > 0, total.isFinite else { return nil }
        centroid /= total
        var c = [Double](repeating: 0, count: 9)
        for (i, p) in points.enumerated() {
            let w = weights?[i] ?? 1, q = p - centroid
            c[0] += w * q.x * q.x; c[1] += w * q.x * q.y; c[2] += w * q.x * q.z
            c[4] += w * q.y * q.y; c[5] += w * q.y * q.z; c[8] += w * q.z * q.z
        }
        c[3] = c[1]; c[6] = c[2]; c[7] = c[5]
        guard let m = try? Matrix(rows: 3, columns: 3, columnMajor: c), let eigen = try? SymmetricEigen(m) else { return nil }
        func column(_ j: Int) -> Vector3 { Vector3(eigen.vectors[0, j], eigen.vectors[1, j], eigen.vectors[2, j]) }
        let n = column(0)
        return Fit(plane: Plane(normal: n, offset: -n.dot(centroid)), centroid: centroid, eigenvalues: eigen.values.map { $0 / total },
                   major: column(2), minor: column(1))
    }

    /// A least-squares plane and what came with it (``fit(_:weights:)``).
    public struct Fit: Sendable {
        public var plane: Plane
        public var centroid: Vector3
        public var eigenvalues: [Double]
        public var major: Vector3, minor: Vector3
    }
}
