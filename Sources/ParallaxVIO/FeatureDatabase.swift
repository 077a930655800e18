import ParallaxMath

/// The observations of the tracked features that are not in the state (OpenVINS's feature
/// database): per feature, the frames it was seen in within the window, until it updates the
/// filter (or is dropped), joins the state as a landmark, or is tied to a map point.
struct FeatureDatabase {
    /// One observation: the frame's stamp (ns, the key of its clone), the undistorted
    /// normalized point, and the point in the stereo partner when stereo matches are used.
    typealias Observation = (time: Int64, normalized: Vector2, stereo: Vector2?)

    /// Feature id → its observations, oldest first.
    private(set) var features: [UInt64: [Observation]] = [:]

    /// The ids with observations, ascending.
    var ids: [UInt64] { features.keys.sorted() }

    /// The observations of feature `id`.
    subscript(id: UInt64) -> [Observation]? { features[id] }

    /// Adds an observation of feature `id`.
    mutating func append(_ observation: Observation, of id: UInt64) {
        features[id, default: []].append(observation)
    }

    /// Forgets feature `id`.
    mutating func remove(_ id: UInt64) { features[id] = nil }

    /// Forgets every feature.
    mutating func removeAll() { features = [:] }

    /// Forgets the observations made at `time` (a marginalized clone's); features left without
    /// any go.
    mutating func removeObservations(at time: Int64) {
        for id in Array(features.keys) {
            features[id]?.removeAll { $0.time == time }
            if features[id]?.isEmpty == true { features[id] = nil }
        }
    }

    /// The recorded observations of feature `id` in the window's clones (`index`: clone time →
    /// clone, ``MSCKF/cloneIndex``), each stereo match as a second observation by camera 1.
    func observations(of id: UInt64, index: [Int64: Int]) -> [FeatureUpdate.Observation] {
        var obs: [FeatureUpdate.Observation] = []
        for o in features[id] ?? [] {
            guard let k = index[o.time] else { continue }
            obs.append(FeatureUpdate.Observation(clone: k, normalized: o.normalized))
            if let n1 = o.stereo { obs.append(FeatureUpdate.Observation(clone: k, camera: 1, normalized: n1)) }
        }
        return obs
    }
}
