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
        return PlaneMoments(points, weights: weights).fit()
    }

    /// A least-squares plane and what came with it (``fit(_:weights:)``).
    public struct Fit: Sendable {
        public var plane: Plane
        public var centroid: Vector3
        public var eigenvalues: [Double]
        public var major: Vector3, minor: Vector3
        /// Standard deviation (rad) of the normal's tilt about the in-plane axis it is least
        /// sure of: `√(λ₀ / (λ₁ · (n − 3)))` (the residual variance over the spread across that
        /// axis, per point beyond the three a plane needs); infinite for 3 points or fewer.
        public var normalSigma: Double
    }
}

/// The first and second moments of weighted points: enough to fit their least-squares plane,
/// and additive, so points seen over many frames fit as one set without being kept.
public struct PlaneMoments: Sendable, Equatable {
    /// Σw, Σw·p, and Σw·p·pᵀ (xx, xy, xz, yy, yz, zz), about ``reference`` (subtracted from
    /// every point first, so that sums of points far from the origin keep their precision).
    public private(set) var weight = 0.0
    /// Points added.
    public private(set) var count = 0
    public private(set) var sum = Vector3.zero
    public private(set) var outer = [Double](repeating: 0, count: 6)
    public let reference: Vector3

    /// No points, about `reference`.
    public init(reference: Vector3 = .zero) { self.reference = reference }

    /// The moments of `points` (weights default 1), about their first point.
    public init(_ points: [Vector3], weights: [Double]? = nil) {
        self.init(reference: points.first ?? .zero)
        for (i, p) in points.enumerated() { add(p, weight: weights?[i] ?? 1) }
    }

    /// Adds one point.
    public mutating func add(_ p: Vector3, weight w: Double = 1) {
        guard w > 0, w.isFinite, p.x.isFinite, p.y.isFinite, p.z.isFinite else { return }
        let q = p - reference
        count += 1
        weight += w
        sum += w * q
        outer[0] += w * q.x * q.x; outer[1] += w * q.x * q.y; outer[2] += w * q.x * q.z
        outer[3] += w * q.y * q.y; outer[4] += w * q.y * q.z; outer[5] += w * q.z * q.z
    }

    /// Adds another set's moments.
    public mutating func add(_ other: PlaneMoments) {
        guard other.weight > 0 else { return }
        // Shift the other's sums to this reference: q' = q + (other.reference − reference).
        let s = other.reference - reference, w = other.weight, m = other.sum
        count += other.count
        weight += w
        sum += m + w * s
        let o = other.outer
        outer[0] += o[0] + 2 * s.x * m.x + w * s.x * s.x
        outer[1] += o[1] + s.x * m.y + s.y * m.x + w * s.x * s.y
        outer[2] += o[2] + s.x * m.z + s.z * m.x + w * s.x * s.z
        outer[3] += o[3] + 2 * s.y * m.y + w * s.y * s.y
        outer[4] += o[4] + s.y * m.z + s.z * m.y + w * s.y * s.z
        outer[5] += o[5] + 2 * s.z * m.z + w * s.z * s.z
    }

    /// The moments of the same points in another frame, for `transform` = T_BA (points in A):
    /// the centred sums turn with the rotation, the reference moves with the whole transform.
    public func moved(by transform: SE3) -> PlaneMoments {
        var m = PlaneMoments(reference: transform * reference)
        m.count = count
        m.weight = weight
        let r = transform.rotation.matrix
        m.sum = r * sum
        let o = Matrix3(rows: Vector3(outer[0], outer[1], outer[2]), Vector3(outer[1], outer[3], outer[4]), Vector3(outer[2], outer[4], outer[5]))
        let turned = r * o * r.transposed
        m.outer = [turned[0, 0], turned[0, 1], turned[0, 2], turned[1, 1], turned[1, 2], turned[2, 2]]
        return m
    }

    /// The least-squares plane of the points (``Plane/fit(_:weights:)``); `nil` without weight.
    public func fit() -> Plane.Fit? {
        guard weight > 0, weight.isFinite else { return nil }
        let mean = sum / weight
        let c = [outer[0] / weight - mean.x * mean.x, outer[1] / weight - mean.x * mean.y, outer[2] / weight - mean.x * mean.z,
                 outer[3] / weight - mean.y * mean.y, outer[4] / weight - mean.y * mean.z, outer[5] / weight - mean.z * mean.z]
        let matrix = [c[0], c[1], c[2], c[1], c[3], c[4], c[2], c[4], c[5]]
        guard let m = try? Matrix(rows: 3, columns: 3, columnMajor: matrix), let eigen = try? SymmetricEigen(m) else { return nil }
        func column(_ j: Int) -> Vector3 { Vector3(eigen.vectors[0, j], eigen.vectors[1, j], eigen.vectors[2, j]) }
        let n = column(0), centroid = mean + reference
        let values = eigen.values.map { max(0, $0) }
        let sigma = count > 3 && values[1] > 0 ? (values[0] / (values[1] * Double(count - 3))).squareRoot() : .infinity
        return Plane.Fit(plane: Plane(normal: n, offset: -n.dot(centroid)), centroid: centroid, eigenvalues: values,
                         major: column(2), minor: column(1), normalSigma: sigma)
    }
}

extension Plane {
    /// Where the ray from the origin along `direction` meets the plane: the distance along the
    /// ray in units of `direction`, `nil` when it runs parallel (within 1e-9) or meets it behind.
    public func intersection(ofRayAlong direction: Vector3) -> Double? {
        let denom = normal.dot(direction)
        guard abs(denom) > 1e-9 else { return nil }
        let t = -offset / denom
        return t > 0 && t.isFinite ? t : nil
    }
}

extension Plane {
    /// The same plane in another frame, for `transform` = T_BA (this plane in A).
    public func moved(by transform: SE3) -> Plane {
        let n = transform.rotation * normal
        return Plane(normal: n, offset: offset - n.dot(transform.translation))
    }
}

/// 2-D coordinates on a plane: an origin on it and two unit in-plane axes, `u` and
/// `v = normal × u` (counter-clockwise about the normal), for boundaries, hulls and in-plane
/// tests.
public struct PlaneFrame: Sendable, Equatable {
    public var origin: Vector3, u: Vector3, v: Vector3

    /// The frame of `plane` at `origin` (projected onto the plane; default: the plane's point
    /// nearest the coordinate origin), `u` along `axis` projected into the plane (default, or
    /// when `axis` is along the normal: a fixed direction across the normal).
    public init(_ plane: Plane, origin: Vector3? = nil, along axis: Vector3? = nil) {
        let n = plane.normal
        var u = axis.map { $0 - n.dot($0) * n } ?? .zero
        if u.norm < 1e-9 { u = (abs(n.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)).cross(n) }
        self.u = u.normalized
        v = n.cross(self.u)
        self.origin = origin.map { $0 - plane.distance(to: $0) * n } ?? -plane.offset * n
    }

    /// `p`'s coordinates in the plane (its projection's).
    public func flat(_ p: Vector3) -> Vector2 {
        let d = p - origin
        return Vector2(d.dot(u), d.dot(v))
    }

    /// The point on the plane at coordinates `q`.
    public func point(_ q: Vector2) -> Vector3 { origin + q.x * u + q.y * v }
}
