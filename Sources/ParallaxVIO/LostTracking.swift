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
    /// Frames looked back over.
    let frames: Int
    /// Fewest inconsistent features over those frames before the filter counts as lost.
    static let minInconsistent = 30
    /// How many times the features used the inconsistent ones must outnumber.
    static let ratio = 2
    private var recent: [(used: Int, inconsistent: Int)] = []

    init(frames: Int) { self.frames = max(1, frames) }

    /// Counted as inconsistent with the clones' poses.
    static func isInconsistent(_ reason: FeatureUpdate.Rejection) -> Bool {
        switch reason {
        case .behindCamera, .triangulation(.behindCamera), .triangulation(.highReprojectionError), .gate: return true
        case .numerical, .triangulation: return false
        }
    }

    /// A frame whose updates used `used` features and rejected `inconsistent` as
    /// inconsistent; returns whether the filter is lost: over the last ``frames`` frames at least
    /// ``minInconsistent`` inconsistent ones, more than ``ratio`` times those used.
    mutating func record(used: Int, inconsistent: Int) -> Bool {
        recent.append((used, inconsistent))
        if recent.count > frames { recent.removeFirst(recent.count - frames) }
        guard recent.count == frames else { return false }
        let bad = recent.reduce(0) { $0 + $1.inconsistent }, good = recent.reduce(0) { $0 + $1.used }
        return bad >= Self.minInconsistent && bad > Self.ratio * good
    }

    /// A reset: the frames counted belong to the lost track.
    mutating func reset() { recent = [] }
}
