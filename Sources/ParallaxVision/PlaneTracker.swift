import Foundation
import ParallaxMath

/// Keeps planes seen in many depth frames as one set of world planes with stable ids (ARKit's
/// plane anchors as the session goes on): each frame's planes, moved into the world by the
/// frame's pose, join the plane they lie on — normals within ``Settings/maxAngle``, the track
/// within ``Settings/maxOffset`` of the new plane's centroid, and their boundaries overlapping
/// or less than ``Settings/maxGap`` apart in the plane (two tables at one height stay two) —
/// or start a new one. A joined plane is refitted to every point seen on it (their moments are
/// kept, ``PlaneMoments``, not the points), and its boundary becomes the convex hull of all its
/// boundaries: it grows as more of it comes into view.
public struct PlaneTracker: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Largest angle between a frame's plane and a tracked one (rad).
        public var maxAngle = 5 * Double.pi / 180
        /// Largest distance of a frame's plane's centroid from a tracked plane (m).
        public var maxOffset = 0.05
        /// Largest gap between their boundaries in the plane (m).
        public var maxGap = 0.3

        public init() {}
    }

    /// One tracked plane, in the world frame.
    public struct Track: Sendable, Equatable {
        public var id: UInt64
        public var plane: Plane
        /// Convex boundary (m, world), on ``plane``.
        public var boundary: [Vector3]
        /// Points that supported it over all frames, and frames it was seen in.
        public var points: Int
        public var frames: Int
        /// The moments of every point seen on it.
        var moments: PlaneMoments
        /// σ of its normal's tilt (rad) from all those points (``Plane/Fit/normalSigma``).
        public var normalSigma: Double
    }

    /// A plane as one frame saw it, in the world frame.
    public struct Observation: Sendable {
        public var plane: Plane
        public var centroid: Vector3
        public var boundary: [Vector3]
        public var points: Int
        /// The moments of its points (world frame).
        public var moments: PlaneMoments
        public init(plane: Plane, centroid: Vector3, boundary: [Vector3], points: Int, moments: PlaneMoments) {
            self.plane = plane
            self.centroid = centroid
            self.boundary = boundary
            self.points = points
            self.moments = moments
        }
    }

    public var settings: Settings
    public private(set) var tracks: [Track] = []
    private var nextID: UInt64 = 1

    public init(settings: Settings = Settings()) { self.settings = settings }

    /// Adds one frame's planes; returns the index into ``tracks`` each one joined or started.
    public mutating func update(_ observations: [Observation]) -> [Int] {
        // Every admissible (observation, track) pair, best (nearest plane) first, matched one to one.
        var pairs: [(o: Int, t: Int, cost: Double)] = []
        for (i, o) in observations.enumerated() {
            for (j, t) in tracks.enumerated() {
                // Compare with the normals facing the same way (a plane seen from both sides is one).
                let aligned = t.plane.normal.dot(o.plane.normal) >= 0 ? o.plane : Plane(normal: -o.plane.normal, offset: -o.plane.offset)
                guard t.plane.angle(to: aligned) <= settings.maxAngle else { continue }
                let offset = abs(t.plane.distance(to: o.centroid))
                guard offset <= settings.maxOffset, Self.gap(t.boundary, o.boundary, on: t.plane) <= settings.maxGap else { continue }
                pairs.append((i, j, offset))
            }
        }
        pairs.sort { $0.cost < $1.cost || ($0.cost == $1.cost && ($0.o, $0.t) < ($1.o, $1.t)) }
        var assigned = [Int?](repeating: nil, count: observations.count)
        var taken = Set<Int>()
        for p in pairs where assigned[p.o] == nil && !taken.contains(p.t) {
            assigned[p.o] = p.t
            taken.insert(p.t)
        }
        for (i, o) in observations.enumerated() {
            if let j = assigned[i] {
                join(o, into: j)
            } else {
                tracks.append(Track(id: nextID, plane: o.plane, boundary: o.boundary, points: o.points, frames: 1, moments: o.moments,
                                    normalSigma: o.moments.fit()?.normalSigma ?? .infinity))
                nextID += 1
                assigned[i] = tracks.count - 1
            }
        }
        return assigned.map { $0 ?? 0 }
    }

    private mutating func join(_ o: Observation, into j: Int) {
        var t = tracks[j]
        t.moments.add(o.moments)
        if let refit = t.moments.fit() {
            t.normalSigma = refit.normalSigma
            // Keep the side it faced.
            t.plane = refit.plane.normal.dot(t.plane.normal) >= 0 ? refit.plane : Plane(normal: -refit.plane.normal, offset: -refit.plane.offset)
        }
        t.points += o.points
        t.frames += 1
        // The hull of both boundaries, in the updated plane.
        let frame = PlaneFrame(t.plane)
        t.boundary = ConvexHull.of((t.boundary + o.boundary).map(frame.flat)).map(frame.point)
        tracks[j] = t
    }

    /// The gap (m) between two convex boundaries projected on `plane`: 0 when they overlap.
    static func gap(_ a: [Vector3], _ b: [Vector3], on plane: Plane) -> Double {
        let frame = PlaneFrame(plane)
        func flat(_ p: [Vector3]) -> [Vector2] { ConvexHull.of(p.map(frame.flat)) }
        let pa = flat(a), pb = flat(b)
        guard !pa.isEmpty, !pb.isEmpty else { return .infinity }
        if pa.contains(where: { ConvexHull.contains(pb, $0) }) || pb.contains(where: { ConvexHull.contains(pa, $0) }) { return 0 }
        var best = Double.infinity
        for (p, poly) in [(pa, pb), (pb, pa)] {
            for q in p {
                for k in poly.indices {
                    best = min(best, distance(q, poly[k], poly[(k + 1) % poly.count]))
                }
            }
        }
        // Edges crossing without a vertex inside the other (a cross shape) overlap too.
        for i in pa.indices {
            for k in pb.indices where segmentsCross(pa[i], pa[(i + 1) % pa.count], pb[k], pb[(k + 1) % pb.count]) { return 0 }
        }
        return best
    }

    static func distance(_ p: Vector2, _ a: Vector2, _ b: Vector2) -> Double {
        let ab = b - a, l2 = (ab * ab).sum()
        let t = l2 > 0 ? min(1, max(0, ((p - a) * ab).sum() / l2)) : 0
        let d = p - (a + t * ab)
        return (d * d).sum().squareRoot()
    }

    static func segmentsCross(_ a: Vector2, _ b: Vector2, _ c: Vector2, _ d: Vector2) -> Bool {
        func turn(_ o: Vector2, _ p: Vector2, _ q: Vector2) -> Double { (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x) }
        return turn(a, b, c) * turn(a, b, d) < 0 && turn(c, d, a) * turn(c, d, b) < 0
    }
}
