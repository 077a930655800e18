import ParallaxVision

/// Whether the running filter has lost track of where it is: its features no longer fit its
/// clones. A feature triangulated from the clones that lands behind a camera or leaves a large
/// reprojection error, or whose residual fails the χ² gate, says the clones' poses disagree with
/// what the camera saw. On a healthy run that is the exception (EuRoC MH_01: 518 against 4 586
/// features used over 20 s, spread out), while a filter drifting on the IMU alone turns nearly
/// every feature away and so is never pulled back (MH_01 at 10 Hz with ±2 ms stamp jitter: 2 340
/// such rejections, 0–3 features used per frame, the velocity 0.5 m/s off 1.5 s later and 15 m/s off
/// after 11 s; a simulated accelerometer reading 4 m/s² off: `normal` poses for 4 s until the
/// speed limit). Low parallax is not counted: a turn on the spot rejects features that way on a
/// healthy filter too.
struct LostTracking {
    /// How far back the evidence is looked for (s). Shorter spans fired where the filter
    /// recovers on its own: MH_01 with its IMU thinned to 50 Hz turns quickly on the spot at
    /// 15 s, and for 0.7 s nearly every feature fails against the coarse propagation; the filter
    /// coasts and comes back (24.6 mm over the clip), which 11 frames (0.55 s) or a second took
    /// for lost. A real loss (MH_01 at 10 Hz with ±2 ms jitter) goes on for seconds.
    static let span = 1.5
    /// Fewest frames looked back over, whatever the rate.
    static let fewestFrames = 5
    /// Fewest inconsistent features over those frames before the filter counts as lost.
    static let minInconsistent = 30
    /// How many times the features used the inconsistent ones must outnumber.
    static let ratio = 2
    private var recent: [(time: Double, used: Int, inconsistent: Int)] = []
    /// Whether the frames kept reach back a whole span (or frames were already dropped from it).
    private var covered = false

    /// Counted as inconsistent with the clones' poses.
    static func isInconsistent(_ reason: FeatureUpdate.Rejection) -> Bool {
        switch reason {
        case .behindCamera, .triangulation(.behindCamera), .triangulation(.highReprojectionError), .gate: return true
        case .numerical, .triangulation: return false
        }
    }

    /// How many of the features counted by reason in `used` (an updater's tally) were rejected as
    /// inconsistent.
    static func inconsistent(in used: [FeatureUpdate.Rejection?: Int]) -> Int {
        used.reduce(0) { total, entry in entry.key.map(isInconsistent) == true ? total + entry.value : total }
    }

    /// A frame at `time` (s) whose updates used `used` features and rejected `inconsistent` as
    /// inconsistent; returns whether the filter is lost: over the frames of the last ``span``
    /// (at least ``fewestFrames`` of them, and the span covered) at least ``minInconsistent``
    /// inconsistent ones, more than ``ratio`` times those used.
    mutating func record(time: Double, used: Int, inconsistent: Int) -> Bool {
        recent.append((time, used, inconsistent))
        while recent.count > Self.fewestFrames, let first = recent.first, time - first.time > Self.span {
            recent.removeFirst()
            covered = true
        }
        if recent.count >= Self.fewestFrames, let first = recent.first, time - first.time >= Self.span { covered = true }
        guard covered, recent.count >= Self.fewestFrames else { return false }
        let bad = recent.reduce(0) { $0 + $1.inconsistent }, good = recent.reduce(0) { $0 + $1.used }
        return bad >= Self.minInconsistent && bad > Self.ratio * good
    }

    /// The share of the features counted over the recent frames (the last ``span``, at least 10
    /// frames) that were inconsistent (0…1; `nil` with fewer frames or features): 0–0.02 on a
    /// rendered orbit whose camera is up to 100 ms off the IMU's clock (the filter fits it), 0.37 at
    /// 300 ms off; about 0.1 over EuRoC MH_01.
    var inconsistentShare: Double? {
        guard recent.count >= 10 else { return nil }
        let bad = recent.reduce(0) { $0 + $1.inconsistent }, good = recent.reduce(0) { $0 + $1.used }
        return bad + good >= 100 ? Double(bad) / Double(bad + good) : nil
    }

    /// A reset: the frames counted belong to the lost track.
    mutating func reset() {
        recent = []
        covered = false
    }
}
