/// The MSCKF feature updates (OpenVINS's `UpdaterMSCKF`): features whose tracks ended, and
/// those seen in the oldest clone before it is marginalized, are triangulated from the clones
/// that saw them, projected onto their Jacobian's left null space, χ²-gated and stacked into one
/// update; they then leave the database.
struct UpdaterMSCKF {
    /// The measurement model (triangulation, linearization, gate).
    let model: FeatureUpdate
    /// Fewest frames a feature needs to update the filter.
    let minObservations: Int
    /// Most features used in one update.
    let maxFeaturesPerUpdate: Int
    /// Features that updated the filter (`nil`) or why they did not.
    private(set) var used: [FeatureUpdate.Rejection?: Int] = [:]

    /// Updates with the features whose tracks ended (`ids`); returns how many were used.
    mutating func updateWithEndedTracks(_ ids: [UInt64], database: inout FeatureDatabase, _ f: inout MSCKF, mapping: inout WorldMapping) throws -> Int {
        var chosen: [UInt64] = []
        for id in ids.sorted() {
            guard let obs = database[id] else { continue }
            if obs.count >= minObservations { chosen.append(id) } else { database.remove(id) }
        }
        return try apply(Array(chosen.prefix(maxFeaturesPerUpdate)), database: &database, &f, mapping: &mapping)
    }

    /// Updates with the features seen in the oldest clone, before it is marginalized. Those
    /// tracked through the whole window and still seen join the state as landmarks while
    /// `slam` has room; the others update it once. Returns how many were used.
    mutating func updateWithOldestClone(slam: inout UpdaterSLAM, room available: Int, database: inout FeatureDatabase, _ f: inout MSCKF,
                                        mapping: inout WorldMapping) throws -> Int {
        let oldest = f.clones[0].time
        let newest = f.clones[f.clones.count - 1].time
        let chosen = database.ids.filter { id in
            guard let obs = database[id] else { return false }
            return obs.count >= minObservations && obs.contains { $0.time == oldest }
        }
        var room = available
        var joining: [UInt64] = [], once: [UInt64] = []
        for id in chosen {
            if room > 0, let obs = database[id], obs.count == f.clones.count, obs.last?.time == newest {
                joining.append(id)
                room -= 1
            } else {
                once.append(id)
            }
        }
        var count = try apply(Array(once.prefix(maxFeaturesPerUpdate)), database: &database, &f, mapping: &mapping)
        let index = f.cloneIndex   // landmarks joining grow the state, not the clones
        for id in joining { if try slam.add(id, index: index, database: &database, &f, mapping: &mapping) { count += 1 } }
        return count
    }

    /// Builds the stacked update from `ids` (removing them from the database) and applies it;
    /// returns how many features it holds.
    private mutating func apply(_ ids: [UInt64], database: inout FeatureDatabase, _ f: inout MSCKF, mapping: inout WorldMapping) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        var blocks: [FeatureUpdate.Rows] = []
        let index = f.cloneIndex
        for id in ids {
            let obs = database.observations(of: id, index: index)
            database.remove(id)
            guard Set(obs.map(\.clone)).count >= minObservations else { continue }
            switch model.rows(obs, filter: f) {
            case let .success(found):
                blocks.append(found.rows)
                used[nil, default: 0] += 1
                mapping.record(point: found.point, sigma: found.sigma, of: id)
            case let .failure(reason): used[reason, default: 0] += 1
            }
        }
        try f.update(stacking: blocks)
        return blocks.count
    }
}
