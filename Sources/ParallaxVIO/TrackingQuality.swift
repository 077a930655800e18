/// The tracking state of each frame the filter runs: `normal`, or `limited` after readings at
/// full scale (``framesLimitedAfterSaturation`` frames of `excessiveMotion`), when fewer than
/// ``minFeaturesPer10Frames`` features updated the last 10 frames (`insufficientFeatures`;
/// standing still counts as enough), or after a camera gap (`insufficientFeatures`: the IMU
/// alone carried the state, and the first frames after it are still pulling the velocity back)
/// until the velocity is as certain as it was before it or ``framesToRecover`` frames have
/// come, whichever is first.
struct TrackingQuality {
    /// Frames a saturated reading keeps the state `limited(excessiveMotion)` (0.5 s at 20 Hz:
    /// long enough for the features to pull the widened velocity back).
    static let framesLimitedAfterSaturation = 10
    let minFeaturesPer10Frames: Int
    /// Frames after a camera gap that end its recovery at the latest: twice the sliding window's
    /// length, by when the window has held frames after the gap only for a whole window (on
    /// MH_01 with 1 s without frames right after the start, the velocity took 19 frames to come
    /// back; in a short simulation whose filter had not settled before the gap, never).
    let framesToRecover: Int
    /// Features used by the updates of the last 10 frames.
    private var recentUpdates: [Int] = []
    /// Frames left in `limited(excessiveMotion)` after saturated readings.
    private var excessiveMotionFrames = 0
    /// After a camera gap: the velocity σ (m/s, largest axis) the state must come back under,
    /// and the frames left before the recovery ends anyway.
    private var recoveryVelocitySigma: Double?
    private var recoveryFrames = 0
    /// How far above its σ before a camera gap the velocity's may be for the state to be
    /// `normal` again. On EuRoC MH_01 with 5 s without frames (the IMU alone: σ 2.4 → 35 mm/s,
    /// position 0.49 m off), σ came back to 2.8 mm/s 0.7 s after the gap, when the error had
    /// settled (57 mm, the drift over the gap, which no image can undo).
    static let recoveryFactor = 2.0

    init(minFeaturesPer10Frames: Int, framesToRecover: Int = 22) {
        self.minFeaturesPer10Frames = minFeaturesPer10Frames
        self.framesToRecover = framesToRecover
    }

    /// Readings at full scale were propagated through.
    mutating func saturated() { excessiveMotionFrames = Self.framesLimitedAfterSaturation }

    /// The camera was silent (longer than the gap limit) while the velocity's σ was
    /// `velocitySigma` (m/s, largest axis).
    mutating func cameraGap(velocitySigma: Double) {
        recoveryVelocitySigma = max(recoveryVelocitySigma ?? 0, Self.recoveryFactor * velocitySigma)
        recoveryFrames = framesToRecover
    }

    /// The state of a frame whose updates used `used` features (or that stood still), with the
    /// velocity's σ `velocitySigma` (m/s, largest axis) after them.
    mutating func state(used: Int, still: Bool, velocitySigma: Double = 0) -> VIOTrackingState {
        recentUpdates.append(still ? minFeaturesPer10Frames : used)
        if recentUpdates.count > 10 { recentUpdates.removeFirst() }
        let constrained = recentUpdates.count < 10 || recentUpdates.reduce(0, +) >= minFeaturesPer10Frames
        if excessiveMotionFrames > 0 {
            excessiveMotionFrames -= 1
            return .limited(.excessiveMotion)
        }
        if let limit = recoveryVelocitySigma {
            recoveryFrames -= 1
            if velocitySigma > limit && recoveryFrames > 0 { return .limited(.insufficientFeatures) }
            recoveryVelocitySigma = nil
        }
        return constrained ? .normal : .limited(.insufficientFeatures)
    }

    /// A reset: the features counted so far belong to the lost track.
    mutating func reset() {
        recentUpdates = []
        recoveryVelocitySigma = nil
    }
}
