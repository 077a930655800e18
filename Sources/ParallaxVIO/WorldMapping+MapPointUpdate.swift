import ParallaxVision

extension WorldMapping {
    /// Updates with the tracked features tied to map points (newest clone): known points, so
    /// no null-space projection; a feature whose observation fails the gate is untied. Returns
    /// how many updated the filter.
    mutating func updateWithMapPoints(_ frame: VIOFeatureFrame, _ f: inout MSCKF) throws -> Int {
        guard relocalized, let map = localizer?.map, !anchors.isEmpty else { return 0 }
        let newest = f.clones.count - 1
        var blocks: [FeatureUpdate.Rows] = []
        var alive: [UInt64: Int] = [:]
        for track in frame.features {
            guard let point = anchors[track.id], let n = track.normalized, blocks.count < maxFeaturesPerUpdate else { continue }
            switch model.mapPointRows([FeatureUpdate.Observation(clone: newest, normalized: n)], point: map.points[point].position,
                                      pointSigma: max(pointSigma, map.points[point].sigma), filter: f) {
            case let .success(rows):
                blocks.append(rows)
                alive[track.id] = point
            case .failure:
                continue
            }
        }
        anchors = alive
        try f.update(stacking: blocks)
        mapUpdates += blocks.count
        return blocks.count
    }
}
