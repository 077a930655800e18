import ParallaxMath

/// The frames of the last seconds (their times on the IMU clock, s, and feature bearings): the
/// images' word on standing still, which the IMU cannot give for a slow steady turn or a slow
/// walk, and the window a moving start is solved over.
struct RecentViews {
    /// The tracked camera's focal length (px): bearings to pixels.
    let fx: Double
    /// Oldest first.
    private(set) var frames: [DynamicInitializer.Frame] = []

    /// Adds the frame at `t` (s) and forgets those more than `span` s (and a margin) before it.
    mutating func append(_ frame: VIOFeatureFrame, at t: Double, keeping span: Double) {
        var seen: [UInt64: Vector2] = [:], stereo: [UInt64: Vector2] = [:]
        for f in frame.features {
            guard let n = f.normalized else { continue }
            seen[f.id] = n
            if let m = f.stereoNormalized { stereo[f.id] = m }
        }
        frames.append(DynamicInitializer.Frame(time: t, features: seen, stamp: frame.time, stereo: stereo))
        frames.removeAll { $0.time < t - span - 0.1 }
    }

    /// Moves every frame `seconds` later on the IMU clock (a clock offset found before the start).
    mutating func shift(by seconds: Double) {
        frames = frames.map { $0.shifted(by: seconds) }
    }

    /// How far the features moved over the `window` seconds up to `t` (px): the median, over
    /// the features seen at both ends, of their displacement (normalized units × fx); `nil` when
    /// fewer than 10 were seen at both ends (a blank view, or a view that changed completely),
    /// or when the frames span less than `minimumSpan` s of it (after a gap in the frames the
    /// window may hold the newest frame alone, which has not moved against itself).
    func motion(over window: Double, at t: Double, minimumSpan: Double = 0) -> Double? {
        guard let last = frames.last, let first = frames.first(where: { $0.time >= t - window - 1e-6 }),
              last.time - first.time >= minimumSpan - 1e-6 else { return nil }
        var motions = first.features.compactMap { id, n in last.features[id].map { ($0 - n).norm * fx } }
        guard motions.count >= 10 else { return nil }
        motions.sort()
        return motions[motions.count / 2]
    }
}
