import ParallaxGeometry
import ParallaxMath
import ParallaxVision

/// The world map as odometry goes (what `parallax run --save-map` writes): keyframes — every
/// ``minDistance`` metres or ``minAngleDegrees`` of turn — keep the ORB descriptors of the
/// features KLT tracks there; the filter's triangulations of those features (from all the
/// clones that saw them, after the χ² gate) are their 3D points, when their σ is at most
/// ``maxPointSigma``. A keyframe feature the filter never triangulated does not go into the map.
struct MapBuilder {
    /// A keyframe whose features may still get their points.
    struct Keyframe {
        /// The frame's stamp (ns, camera clock).
        var time: Int64
        var worldFromCamera: SE3
        var features: [(id: UInt64, pixel: Vector2, descriptor: BinaryDescriptor)]
    }

    /// Keyframe spacing: metres moved or degrees turned since the last keyframe.
    var minDistance: Double
    var minAngleDegrees: Double
    /// Largest σ of a point kept (m).
    var maxPointSigma: Double
    /// Keyframes of a loaded map (already in the map frame), kept as they are.
    let base: WorldMap?
    private(set) var keyframes: [Keyframe] = []
    /// Feature id → its triangulated position (m, map world frame) and σ (m), for the features
    /// some keyframe described or that are still tracked (a later keyframe may describe them).
    private(set) var points: [UInt64: (position: Vector3, sigma: Double)] = [:]
    /// The features some keyframe described (only they can enter the map).
    private var described: Set<UInt64> = []
    /// Every keyframe, loaded and new: its camera pose and when it was made (s; loaded: −∞),
    /// for the mapping status.
    private var placed: [(worldFromCamera: SE3, madeAt: Double)]

    init(minDistance: Double, minAngleDegrees: Double, maxPointSigma: Double, base: WorldMap?) {
        self.minDistance = minDistance
        self.minAngleDegrees = minAngleDegrees
        self.maxPointSigma = maxPointSigma
        self.base = base
        placed = base?.keyframes.map { ($0.worldFromCamera, -.infinity) } ?? []
    }

    /// Keyframes in all (loaded and new).
    var keyframeCount: Int { placed.count }

    /// Whether a camera at `worldFromCamera` is far enough from the last new keyframe for one.
    func wantsKeyframe(at worldFromCamera: SE3) -> Bool {
        guard let last = keyframes.last else { return true }
        let d = last.worldFromCamera.inverse * worldFromCamera
        return d.translation.norm >= minDistance || d.rotation.angle * 180 / .pi >= minAngleDegrees
    }

    /// Adds a keyframe at `time` (s, for the status) with the described `features`; the points
    /// of features neither described nor among the `tracked` ones are dropped (no keyframe can
    /// describe them any more), so memory follows the map, not the run's length.
    mutating func add(_ keyframe: Keyframe, time: Double, tracked: Set<UInt64>) {
        keyframes.append(keyframe)
        placed.append((keyframe.worldFromCamera, time))
        for f in keyframe.features { described.insert(f.id) }
        points = points.filter { described.contains($0.key) || tracked.contains($0.key) }
    }

    /// The filter triangulated feature `id` at `position` (map world frame) with σ `sigma` (m).
    mutating func record(point position: Vector3, sigma: Double, of id: UInt64) {
        if sigma <= maxPointSigma { points[id] = (position, sigma) }
    }

    /// The mapping status of a camera at `worldFromCamera` at time `t` (s) whose tracking is
    /// `state` (the rule in ``VIOMappingStatus``).
    func status(at worldFromCamera: SE3, time t: Double, tracking state: VIOTrackingState) -> VIOMappingStatus {
        switch state {
        case .notAvailable, .limited(.initializing): return .notAvailable
        case .limited: return .limited
        case .normal: break
        }
        guard keyframeCount >= 3 else { return .limited }
        for k in placed where k.madeAt <= t - 2 {
            let d = k.worldFromCamera.inverse * worldFromCamera
            if d.translation.norm < minDistance && d.rotation.angle * 180 / .pi < minAngleDegrees { return .mapped }
        }
        return .extending
    }

    /// The map: the loaded one (if any) and the new keyframes, each with the features that got
    /// a point; points seen from several keyframes keep up to
    /// ``WorldMap/maxDescriptorsPerPoint`` descriptors, spread over them.
    func worldMap(camera: CameraModel, bodyFromCamera: SE3) -> WorldMap {
        var map = base ?? WorldMap(camera: camera, bodyFromCamera: bodyFromCamera)
        var index: [UInt64: Int] = [:]
        var seen: [UInt64: [BinaryDescriptor]] = [:]
        for kf in keyframes { for f in kf.features where points[f.id] != nil { seen[f.id, default: []].append(f.descriptor) } }
        for id in seen.keys.sorted() {
            guard let point = points[id], let all = seen[id] else { continue }
            let keep = WorldMap.maxDescriptorsPerPoint
            let chosen = all.count <= keep ? all : (0..<keep).map { all[$0 * (all.count - 1) / (keep - 1)] }
            index[id] = map.points.count
            map.points.append(WorldMap.Point(position: point.position, sigma: point.sigma, descriptors: chosen))
        }
        for kf in keyframes {
            let observations = kf.features.compactMap { f in index[f.id].map { WorldMap.Observation(point: $0, pixel: f.pixel) } }
            guard !observations.isEmpty else { continue }
            map.keyframes.append(WorldMap.Keyframe(time: kf.time, worldFromCamera: kf.worldFromCamera, observations: observations))
        }
        return map
    }
}
