import ParallaxMath

/// Landmarks, features kept in the state (OpenVINS's `UpdaterSLAM`): a feature tracked through
/// the whole window joins the state while there is room, delayed-initialized from its
/// observations there (``MSCKF/addLandmark(id:at:_:)``), and then updates the filter every frame
/// it is seen, until its track ends, grows older than ``maxAge`` or fails the gate.
struct UpdaterSLAM {
    /// The measurement model (triangulation, linearization, gate).
    let model: FeatureUpdate
    /// Most landmarks in the state (0: none).
    let maxLandmarks: Int
    /// Time after the start before features join the state (s).
    let delay: Double
    /// Longest track (frames) a landmark keeps; 0: no limit.
    let maxAge: Int
    /// Whether the features' stereo matches are used.
    let usesStereo: Bool
    /// Ids of the features in the filter's state (``MSCKF/landmarks``).
    var ids: Set<UInt64> = []
    /// Features that joined the state (`nil`) or why they could not.
    private(set) var used: [FeatureUpdate.Rejection?: Int] = [:]

    /// How many more landmarks `f` may take (none until ``delay`` after the start at `start` s).
    func room(in f: MSCKF, startedAt start: Double) -> Int {
        f.time - start >= delay ? maxLandmarks - f.landmarks.count : 0
    }

    /// Adds feature `id` to the state from its observations in the window (`index`: clone time
    /// → clone); false when it could not be triangulated or its rows free of it fail the gate
    /// (it is then dropped). It leaves the database either way.
    mutating func add(_ id: UInt64, index: [Int64: Int], database: inout FeatureDatabase, _ f: inout MSCKF, mapping: inout WorldMapping) throws -> Bool {
        let obs = database.observations(of: id, index: index)
        database.remove(id)
        let triangulated: (point: Vector3, linear: FeatureUpdate.Linearization, sigma: Double)
        switch model.triangulated(obs, filter: f) {
        case let .success(t): triangulated = t
        case let .failure(reason): used[reason, default: 0] += 1; return false
        }
        let split = try FeatureUpdate.split(triangulated.linear)
        if case let .failure(reason) = model.gated(split.rest, filter: f) { used[reason, default: 0] += 1; return false }
        guard try f.addLandmark(id: id, at: triangulated.point, split) else { used[.numerical, default: 0] += 1; return false }
        mapping.record(point: triangulated.point, sigma: triangulated.sigma, of: id)
        used[nil, default: 0] += 1
        ids.insert(id)
        return true
    }

    /// Updates with the landmarks seen in `frame` (the newest clone's); those no longer tracked,
    /// too old, or whose observation fails the gate leave the state. Returns how many updated it.
    mutating func update(with frame: VIOFeatureFrame, _ f: inout MSCKF) throws -> Int {
        guard !f.landmarks.isEmpty else { return 0 }
        var seen: [UInt64: VIOFeature] = [:]
        for t in frame.features where ids.contains(t.id) { seen[t.id] = t }
        let newest = f.clones.count - 1
        var blocks: [FeatureUpdate.Rows] = []
        var leaving: [Int] = []
        for (j, landmark) in f.landmarks.enumerated() {
            guard let track = seen[landmark.id], let n = track.normalized,
                  maxAge == 0 || track.age <= maxAge else { leaving.append(j); continue }
            var obs = [FeatureUpdate.Observation(clone: newest, normalized: n)]
            if usesStereo, let n1 = track.stereoNormalized { obs.append(.init(clone: newest, camera: 1, normalized: n1)) }
            switch model.landmarkRows(j, obs, filter: f) {
            case let .success(rows): blocks.append(rows)
            case .failure: leaving.append(j)
            }
        }
        try f.update(stacking: blocks)
        for j in leaving.reversed() {
            ids.remove(f.landmarks[j].id)
            f.marginalize(landmark: j)
        }
        return blocks.count
    }
}
