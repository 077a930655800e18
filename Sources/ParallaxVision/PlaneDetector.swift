import Foundation
import ParallaxMath
import ParallaxOptions

/// Finds the planes in an organized point cloud (a depth map's points, row-major, NaN where
/// invalid), largest first: ARKit's plane detection for one depth frame.
///
/// On a grid of every ``Settings/step``-th pixel: each point's normal from its neighbours two
/// grid steps away (none across a depth jump); then, repeatedly, RANSAC (seeded; hypotheses
/// scored on a fixed subset of at most 2000 points) for the plane with the most support, a
/// point supporting it when it lies within
/// ``Settings/sigmas`` standard deviations of the depth noise at its range and its normal (when
/// it has one) within ``Settings/maxNormalAngle`` of the plane's; the largest 4-connected region
/// of support on the grid is the plane (support elsewhere is another surface that happens to
/// cut it); a weighted least-squares refit (LAPACK `dsyevd`, weights 1/σ²) and a second
/// collection of the connected support, then the region is removed and the search goes on, until
/// the next plane would have fewer than ``Settings/minPoints`` grid points. A region on a plane
/// already found (normals within 5°, within twice the inlier distance) joins that plane: one floor,
/// whatever stands on it. Deterministic: the same cloud and settings give the same planes bit
/// for bit. Up to ``Settings/maxRange`` only (the sensor's useful range).
public struct PlaneDetector: Sendable {
    /// How planes are found: each option declared here, once, with its unit and range (the
    /// `planes` analyzer's options are these, under the same names).
    public struct Settings: ParameterGroup, Equatable {
        @Parameter("detection grid spacing (px)", range: 1...64) public var step = 4
        @Parameter("planes per depth map at most", range: 1...64) public var maxPlanes = 8
        @Parameter("fewest grid points a plane needs", range: 3...1_000_000) public var minPoints = 300
        @Parameter("inlier distance in standard deviations of the depth noise at the point's range", range: 0.1...100) public var sigmas = 3.0
        /// (A Kinect's σ reaches 4 cm at 5 m; a plane first seen there came out 0.8° and 2 cm off.)
        @Parameter("points farther than this are left out (m): the sensor's useful range", range: 0.1...1000) public var maxRange = 5.0
        @Parameter("inlier distance floor (m)", range: 0...1) public var minDistance = 0.005
        @Parameter("inlier distance ceiling (m)", range: 0...1) public var maxDistance = 0.15
        @Parameter("largest angle between a point's normal and its plane's (deg)", range: 1...90) public var maxNormalAngle = 30.0
        @Parameter("depth noise model (sets the inlier distance): kinect, or exact (then min_distance)") public var noise = DepthNoiseOption.kinect
        @Parameter("RANSAC iterations per plane at most", range: 1...100_000) public var iterations = 500
        @Parameter("RANSAC seed") public var seed: UInt64 = 0

        public init() {}
    }

    /// One plane found.
    public struct Detection: Sendable, Equatable {
        /// The plane, its normal toward the camera (the origin).
        public var plane: Plane
        /// Centroid of its points (m, camera frame).
        public var centroid: Vector3
        /// Its points' root-mean-square distance from the plane (m).
        public var rms: Double
        /// Pixel indices (`v · width + u`) of its grid points.
        public var pixels: [Int]
        /// Its points (m, camera frame), one per grid point.
        public var points: [Vector3]
        /// How sure the normal is: σ of its tilt (rad, ``Plane/Fit/normalSigma``).
        public var normalSigma: Double
        /// Unit in-plane axis of the points' largest spread.
        public var major: Vector3
        /// The noise-weighted moments of its points (camera frame): what a tracker refits from.
        public var moments: PlaneMoments
        /// Its grid cells (for merging regions).
        var cells: [Int]
    }

    public var settings: Settings

    public init(settings: Settings = Settings()) { self.settings = settings }

    /// The planes of the `width × height` organized cloud `points`, largest first.
    public func detect(points: [SIMD3<Float>], width: Int, height: Int) -> [Detection] {
        guard width > 0, height > 0, points.count == width * height else { return [] }
        return detect(width: width, height: height) { i in
            let p = points[i]
            return p.x.isFinite && p.y.isFinite && p.z.isFinite && p.z > 0 ? Vector3(Double(p.x), Double(p.y), Double(p.z)) : nil
        }
    }

    /// The planes of a depth map (m, row-major, NaN where invalid) seen through `rays`, largest
    /// first: only the grid's pixels are back-projected.
    public func detect(depth: [Float], rays: DepthRays) -> [Detection] {
        guard depth.count == rays.width * rays.height, rays.width > 0, rays.height > 0 else { return [] }
        return detect(width: rays.width, height: rays.height) { i in
            rays.point(at: i, depth: depth[i]).map { Vector3(Double($0.x), Double($0.y), Double($0.z)) }
        }
    }

    /// The inlier distance (m) at range `z` (m): ``Settings/sigmas`` σ of the noise, within the
    /// floor and ceiling.
    func inlierDistance(_ z: Double) -> Double {
        min(settings.maxDistance, max(settings.minDistance, settings.sigmas * settings.noise.model.sigma(z)))
    }

    /// The detection over the grid of every `step`-th pixel of a `width × height` image, `point`
    /// giving a pixel index's 3D point (nil when it has none).
    private func detect(width: Int, height: Int, point: (Int) -> Vector3?) -> [Detection] {
        let step = max(1, settings.step)
        let gw = (width + step - 1) / step, gh = (height + step - 1) / step
        var gridPoint = [Vector3?](repeating: nil, count: gw * gh)
        for gy in 0..<gh {
            for gx in 0..<gw {
                if let p = point(gy * step * width + gx * step), p.z <= settings.maxRange { gridPoint[gy * gw + gx] = p }
            }
        }
        let normals = Self.normals(gridPoint, width: gw, height: gh)
        var remaining = gridPoint.indices.filter { gridPoint[$0] != nil }
        var detections: [Detection] = []
        let cosMax = cos(settings.maxNormalAngle * .pi / 180)
        // Per grid point, once: its position, inlier distance and normal (zero when it has none).
        let position = gridPoint.map { $0 ?? .zero }
        let limit = gridPoint.map { p in p.map { inlierDistance($0.z) } ?? -1 }
        let normal = normals.map { $0 ?? .zero }
        @inline(__always) func supports(_ plane: Plane, _ g: Int) -> Bool {
            guard abs(plane.distance(to: position[g])) <= limit[g] else { return false }
            let n = normal[g]
            return n == .zero || abs(n.dot(plane.normal)) >= cosMax
        }
        /// The noise-weighted moments of grid points.
        func moments(_ cells: [Int]) -> PlaneMoments {
            let pts = cells.map { position[$0] }
            return PlaneMoments(pts, weights: pts.map { settings.noise.model.weight($0.z) })
        }
        while detections.count < settings.maxPlanes, remaining.count >= max(3, settings.minPoints) {
            let candidates = remaining
            var rng = SeededGenerator(seed: settings.seed &+ UInt64(detections.count))
            guard let model = Self.ransac(candidates: candidates, position: position, iterations: settings.iterations, rng: &rng, supports: supports) else { break }
            var region = Self.largestRegion(candidates.filter { supports(model, $0) }, width: gw, height: gh)
            guard region.count >= settings.minPoints else { break }
            // Refit on the region, weighted by the noise at each point's range, and collect the
            // connected support of the refined plane.
            for _ in 0..<2 {
                guard let plane = moments(region).fit()?.plane else { break }
                let grown = Self.largestRegion(candidates.filter { supports(plane, $0) }, width: gw, height: gh)
                guard grown.count >= settings.minPoints else { break }
                region = grown
            }
            let taken = Set(region)
            remaining.removeAll { taken.contains($0) }
            var cells = region
            var sums = moments(region)
            guard let fitted = sums.fit() else { break }
            // A region on a plane already found (the floor on both sides of a chair) joins it.
            if let k = detections.firstIndex(where: { coplanar($0.plane, fitted.plane, at: fitted.centroid) }) {
                cells = detections[k].cells + cells
                sums.add(detections[k].moments)
                detections.remove(at: k)
            }
            guard let final = sums.fit() else { break }
            let plane = final.plane.facing(.zero)
            let pts = cells.map { position[$0] }
            let rms = (pts.reduce(0) { $0 + plane.distance(to: $1) * plane.distance(to: $1) } / Double(pts.count)).squareRoot()
            detections.append(Detection(plane: plane, centroid: final.centroid, rms: rms, pixels: cells.map { ($0 / gw) * step * width + ($0 % gw) * step },
                                        points: pts, normalSigma: final.normalSigma, major: final.major, moments: sums, cells: cells))
            detections.sort { $0.pixels.count > $1.pixels.count }
        }
        return detections
    }

    /// Whether `b` (fitted around `centroid`) is the plane `a`: normals within 5° and `a` within
    /// twice the inlier distance of `b`'s centroid (a real sensor's depth bends toward the image
    /// corners: the TUM frame's floor, seen on both sides of a chair, differs by 2.7° and 3.5 cm).
    func coplanar(_ a: Plane, _ b: Plane, at centroid: Vector3) -> Bool {
        a.angle(to: b) <= 5 * Double.pi / 180 && abs(a.distance(to: centroid)) <= 2 * inlierDistance(centroid.z)
    }

    /// The plane through three candidates with the most support, scored on at most 2000 of
    /// them (a seeded random subset, the same for every hypothesis: the winner is then checked on
    /// all); the iteration budget shrinks as the best support grows (99.9 % confidence of one
    /// all-inlier sample), capped by `iterations`.
    static func ransac(candidates: [Int], position: [Vector3], iterations: Int, rng: inout SeededGenerator,
                       supports: (Plane, Int) -> Bool) -> Plane? {
        let n = candidates.count
        guard n >= 3 else { return nil }
        var scoring = candidates
        if n > 2000 {
            for i in 0..<2000 { scoring.swapAt(i, i + Int(rng.next() % UInt64(n - i))) }
            scoring = Array(scoring.prefix(2000))
        }
        var best: (plane: Plane, count: Int)?
        var budget = max(1, iterations), iteration = 0
        while iteration < budget {
            iteration += 1
            let a = Int(rng.next() % UInt64(n)), b = Int(rng.next() % UInt64(n)), c = Int(rng.next() % UInt64(n))
            guard a != b, b != c, a != c,
                  let plane = Plane(through: position[candidates[a]], position[candidates[b]], position[candidates[c]]) else { continue }
            var count = 0
            for g in scoring where supports(plane, g) { count += 1 }
            if count > (best?.count ?? 0) {
                best = (plane, count)
                let w = Double(count) / Double(scoring.count), allInlier = w * w * w
                if allInlier >= 1 - 1e-12 {
                    budget = iteration
                } else if allInlier > 0 {
                    let needed = log(1 - 0.999) / log(1 - allInlier)
                    if needed.isFinite { budget = min(budget, max(iteration, Int(needed.rounded(.up)))) }
                }
            }
        }
        return best?.plane
    }

    /// Each grid point's unit normal from the neighbours two steps away on either side (both
    /// axes), `nil` at the border, next to invalid points, or across a depth jump (a neighbour
    /// more than 10 % of the range nearer or farther).
    static func normals(_ grid: [Vector3?], width: Int, height: Int) -> [Vector3?] {
        var out = [Vector3?](repeating: nil, count: grid.count)
        let r = 2
        guard width > 2 * r, height > 2 * r else { return out }
        for y in r..<(height - r) {
            for x in r..<(width - r) {
                guard let c = grid[y * width + x], let left = grid[y * width + x - r], let right = grid[y * width + x + r],
                      let up = grid[(y - r) * width + x], let down = grid[(y + r) * width + x] else { continue }
                let jump = 0.1 * c.z
                guard abs(left.z - c.z) < jump, abs(right.z - c.z) < jump, abs(up.z - c.z) < jump, abs(down.z - c.z) < jump else { continue }
                let n = (right - left).cross(down - up)
                let length = n.norm
                if length > 0 { out[y * width + x] = n / length }
            }
        }
        return out
    }

    /// The largest 4-connected set among `cells` (indices into a `width × height` grid), in
    /// ascending index order.
    static func largestRegion(_ cells: [Int], width: Int, height: Int) -> [Int] {
        var member = [Bool](repeating: false, count: width * height)
        for c in cells { member[c] = true }
        var seen = [Bool](repeating: false, count: width * height)
        var best: [Int] = []
        var stack: [Int] = []
        for start in cells where !seen[start] {
            var region: [Int] = []
            seen[start] = true
            stack.append(start)
            while let c = stack.popLast() {
                region.append(c)
                let x = c % width, y = c / width
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] where nx >= 0 && ny >= 0 && nx < width && ny < height {
                    let n = ny * width + nx
                    if member[n] && !seen[n] { seen[n] = true; stack.append(n) }
                }
            }
            if region.count > best.count { best = region }
        }
        return best.sorted()
    }
}
