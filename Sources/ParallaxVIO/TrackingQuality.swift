/// The tracking state of each frame the filter runs: `normal`, or `limited` after readings at
/// full scale (``framesLimitedAfterSaturation`` frames of `excessiveMotion`) or when fewer than
/// ``minFeaturesPer10Frames`` features updated the last 10 frames (`insufficientFeatures`;
/// standing still counts as enough).
struct TrackingQuality {
    /// Frames a saturated reading keeps the state `limited(excessiveMotion)` (0.5 s at 20 Hz:
    /// long enough for the features to pull the widened velocity back).
    static let framesLimitedAfterSaturation = 10
    let minFeaturesPer10Frames: Int
    /// Features used by the updates of the last 10 frames.
    private var recentUpdates: [Int] = []
    /// Frames left in `limited(excessiveMotion)` after saturated readings.
    private var excessiveMotionFrames = 0

    init(minFeaturesPer10Frames: Int) { self.minFeaturesPer10Frames = minFeaturesPer10Frames }

    /// Readings at full scale were propagated through.
    mutating func saturated() { excessiveMotionFrames = Self.framesLimitedAfterSaturation }

    /// The state of a frame whose updates used `used` features (or that stood still).
    mutating func state(used: Int, still: Bool) -> VIOTrackingState {
        recentUpdates.append(still ? minFeaturesPer10Frames : used)
        if recentUpdates.count > 10 { recentUpdates.removeFirst() }
        let constrained = recentUpdates.count < 10 || recentUpdates.reduce(0, +) >= minFeaturesPer10Frames
        if excessiveMotionFrames > 0 {
            excessiveMotionFrames -= 1
            return .limited(.excessiveMotion)
        }
        return constrained ? .normal : .limited(.insufficientFeatures)
    }

    /// A reset: the features counted so far belong to the lost track.
    mutating func reset() { recentUpdates = [] }
}
