import Foundation
import ParallaxGeometry
import ParallaxMath

/// Finds a camera in a ``WorldMap`` from one view (relocalization): its features' descriptors
/// are matched against the map's points, and a pose that explains enough of the matches is
/// verified geometrically.
///
/// 1. **Matching** by brute force over every descriptor of every point (Hamming distance:
///    exact, where a bag-of-words index can miss matches; its cost with EuRoC's 917-point map
///    is in docs/world-maps.md, and it grows with the map), with Lowe's ratio test between the
///    best and the second-best *distinct* point (a point seen from several keyframes does not
///    compete with itself).
/// 2. **Gravity-aware PnP + RANSAC**: the camera's tilt is known from the IMU in both frames
///    (the map's world frame and the odometry's are both gravity-aligned), so only the yaw ψ
///    and the position are unknown. With `c = cos ψ`, `s = sin ψ` taken as independent
///    unknowns the projection constraints are linear in `(c, s, t)`: 3 points give a
///    least-squares start (5 unknowns, 6 equations), `(c, s)` is then put back on the unit
///    circle. MSAC (``RANSAC``) scores by reprojection error in pixels.
/// 3. **Verification**: the winner is refined in all 6 degrees of freedom on its inliers
///    (``PerspectivePoints/refine(_:model:normalized:focal:huber:prior:)``, Huber), then kept
///    only with at least ``minInliers`` inliers, an RMS reprojection error under the threshold
///    and a tilt within ``maxTiltDegrees`` of the IMU's: a wrong place can match a few
///    descriptors by chance, it cannot also agree with gravity and dozens of 3D points.
public struct MapLocalizer: Sendable {
    /// Largest Hamming distance of a match (of 256 bits).
    public var maxDistance = 50
    /// Lowe's ratio between the best and second-best point's distance.
    public var ratio = 0.8
    /// Reprojection error of an inlier (px): a map made by a filter, without bundle adjustment,
    /// holds points triangulated at different times, consistent to a few pixels (measured on
    /// EuRoC MH_01: 42 of 90 exact descriptor matches within 3 px, 66 within 6).
    public var thresholdPx = 5.0
    /// Fewest inliers of a pose that is accepted.
    public var minInliers = 20
    /// Largest tilt difference between the refined pose and the IMU's attitude (deg).
    public var maxTiltDegrees = 2.0
    /// RANSAC iterations at most.
    public var maxIterations = 500

    public let map: WorldMap
    /// Every descriptor of every point, flattened, and the point each belongs to.
    private let descriptors: [BinaryDescriptor]
    private let owners: [Int]

    public init(map: WorldMap) {
        self.map = map
        var d: [BinaryDescriptor] = [], o: [Int] = []
        for (i, p) in map.points.enumerated() {
            for descriptor in p.descriptors { d.append(descriptor); o.append(i) }
        }
        descriptors = d
        owners = o
    }

    /// A match of query feature `query` to map point `point`.
    public struct Match: Sendable, Equatable {
        public var query: Int
        public var point: Int
        public var distance: Int
    }

    /// The query's matches: per feature the nearest point if it passes the distance and ratio
    /// tests; each point matched once at most (the nearer feature keeps it).
    public func match(_ query: [BinaryDescriptor?]) -> [Match] {
        var best: [Int: Match] = [:]
        for (q, d) in query.enumerated() {
            guard let d else { continue }
            var first = (distance: Int.max, point: -1), second = Int.max
            for k in descriptors.indices {
                let h = d.distance(to: descriptors[k])
                if h < first.distance {
                    if owners[k] != first.point { second = first.distance }
                    first = (h, owners[k])
                } else if h < second, owners[k] != first.point {
                    second = h
                }
            }
            guard first.point >= 0, first.distance <= maxDistance,
                  second == .max || Double(first.distance) < ratio * Double(second) else { continue }
            let m = Match(query: q, point: first.point, distance: first.distance)
            if let old = best[m.point], (old.distance, old.query) <= (m.distance, m.query) { continue }
            best[m.point] = m
        }
        return best.values.sorted { $0.query < $1.query }
    }

    /// A camera found in the map.
    public struct Localization: Sendable {
        /// `T_WC` in the map's world frame.
        public var worldFromCamera: SE3
        /// The matches the pose explains.
        public var inliers: [Match]
        /// RMS reprojection error over the inliers (px).
        public var rmsPixels: Double
        /// All matches tried.
        public var matches: Int
    }

    /// Why a view was not found in the map.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case tooFewMatches(Int)
        case tooFewInliers(Int)
        case tilt(Double)
        case numerical

        public var description: String {
            switch self {
            case let .tooFewMatches(n): return "\(n) descriptor matches"
            case let .tooFewInliers(n): return "\(n) inliers"
            case let .tilt(d): return String(format: "tilt %.1f° off gravity", d)
            case .numerical: return "no pose"
            }
        }
    }

    /// The camera of a view with features at `pixels` (px, distorted, in `camera`) described by
    /// `query`, whose attitude in a gravity-aligned frame is `tilt` (`R_GC`; its yaw is
    /// ignored: only the direction of gravity in the camera counts).
    public func localize(pixels: [Vector2], query: [BinaryDescriptor?], camera: CameraModel, tilt: SO3) -> Result<Localization, Failure> {
        let matches = match(query)
        guard matches.count >= minInliers else { return .failure(.tooFewMatches(matches.count)) }
        var model: [Vector3] = [], normalized: [Vector2] = [], kept: [Match] = []
        for m in matches {
            guard let n = try? camera.normalized(pixels[m.query]) else { continue }
            model.append(map.points[m.point].position); normalized.append(n); kept.append(m)
        }
        guard kept.count >= minInliers else { return .failure(.tooFewMatches(kept.count)) }
        let rGC = tilt.matrix
        let focal = Vector2(camera.intrinsics.fx, camera.intrinsics.fy)
        func error(_ t: SE3, _ i: Int) -> Double {
            // t is T_CW.
            let p = t * model[i]
            guard p.z > 1e-6 else { return .infinity }
            let d = Vector2(p.x / p.z, p.y / p.z) - normalized[i]
            return Vector2(d.x * focal.x, d.y * focal.y).norm
        }
        let ransac = RANSAC<SE3>(minimalSampleSize: 3, threshold: thresholdPx, confidence: 0.999, maxIterations: maxIterations, seed: 7)
        guard let found = try? ransac.run(dataCount: kept.count,
                                          fit: { Self.gravityAlignedPose(model: $0.map { model[$0] }, normalized: $0.map { normalized[$0] }, worldFromCameraTilt: rGC) },
                                          residual: error) else { return .failure(.numerical) }
        var inliers = found.inliers
        guard inliers.count >= minInliers else { return .failure(.tooFewInliers(inliers.count)) }
        guard let refined = try? PerspectivePoints.refine(found.model, model: inliers.map { model[$0] }, normalized: inliers.map { normalized[$0] },
                                                          focal: focal, huber: thresholdPx, prior: [Double](repeating: 1, count: inliers.count)) else {
            return .failure(.numerical)
        }
        let cameraFromWorld = refined.pose
        inliers = kept.indices.filter { error(cameraFromWorld, $0) <= thresholdPx }
        guard inliers.count >= minInliers else { return .failure(.tooFewInliers(inliers.count)) }
        let worldFromCamera = cameraFromWorld.inverse
        // Gravity: the camera's "down" in the map against the IMU's.
        let down = Vector3(0, 0, -1)
        let mapDown = worldFromCamera.rotation.inverse * down, imuDown = tilt.inverse * down
        let tiltError = acos(max(-1, min(1, mapDown.dot(imuDown)))) * 180 / .pi
        guard tiltError <= maxTiltDegrees else { return .failure(.tilt(tiltError)) }
        let rms = (inliers.reduce(0) { $0 + pow(error(cameraFromWorld, $1), 2) } / Double(inliers.count)).squareRoot()
        return .success(Localization(worldFromCamera: worldFromCamera, inliers: inliers.map { kept[$0] }, rmsPixels: rms, matches: kept.count))
    }

    /// `T_CW` from ≥ 3 points whose camera attitude is `R_GC` up to a yaw about the world's z
    /// (the linear solve in `(cos ψ, sin ψ, t)`; `nil` when degenerate or behind the camera).
    public static func gravityAlignedPose(model: [Vector3], normalized: [Vector2], worldFromCameraTilt rGC: Matrix3) -> SE3? {
        // p_C = R_GCᵀ R_z(ψ)ᵀ X + t = c·A + s·B + Z + t.
        let rCG = rGC.transposed
        var ata = [Double](repeating: 0, count: 25), atb = [Double](repeating: 0, count: 5)
        for (x, n) in zip(model, normalized) {
            let a = rCG * Vector3(x.x, x.y, 0), b = rCG * Vector3(x.y, -x.x, 0), z = rCG * Vector3(0, 0, x.z)
            let rows: [([Double], Double)] = [
                ([a.x - n.x * a.z, b.x - n.x * b.z, 1, 0, -n.x], -(z.x - n.x * z.z)),
                ([a.y - n.y * a.z, b.y - n.y * b.z, 0, 1, -n.y], -(z.y - n.y * z.z)),
            ]
            for (row, rhs) in rows {
                for i in 0..<5 {
                    atb[i] += row[i] * rhs
                    for j in 0...i { ata[i * 5 + j] += row[i] * row[j] }
                }
            }
        }
        guard Cholesky.solveSmall(&ata, &atb, n: 5) else { return nil }
        let r = (atb[0] * atb[0] + atb[1] * atb[1]).squareRoot()
        guard r > 1e-9, r.isFinite else { return nil }
        // R_GW = R_z(ψ) (the map's frame turned by ψ into the camera's gravity frame): R_CW = R_CG R_z(ψ)ᵀ.
        let rCW = rCG * SO3.exp(Vector3(0, 0, atan2(atb[1] / r, atb[0] / r))).matrix.transposed
        // Translation: refit with the unit-circle rotation fixed: (I − r̂ r̂ᵀ)(R X + t) = 0 for
        // each ray r̂ through (n, 1), in least squares.
        var m = Matrix3.zero, v = Vector3.zero
        for (x, n) in zip(model, normalized) {
            let ray = Vector3(n.x, n.y, 1).normalized
            let proj = Matrix3.identity - Matrix3.outer(ray, ray)
            m = m + proj
            v = v - proj * (rCW * x)
        }
        guard model.count >= 3, let inverse = m.inverse else { return nil }
        let pose = SE3(rotation: SO3(rCW), translation: inverse * v)
        guard model.allSatisfy({ (pose * $0).z > 1e-6 }) else { return nil }
        return pose
    }
}
