/// How trustworthy an estimate is, per frame (ARKit's `ARCamera.TrackingState`; the bus's
/// `TrackingState` payload says the same).
public enum VIOTrackingState: Sendable, Equatable, Hashable {
    /// Why tracking is limited.
    public enum Reason: Sendable, Equatable, Hashable {
        /// No filter yet: waiting for a still or a moving start.
        case initializing
        /// Accelerometer readings at full scale in the last frames: the uncertainty was widened.
        case excessiveMotion
        /// Fewer features than ``VIOSettings/minFeaturesPer10Frames`` updated the last 10 frames.
        case insufficientFeatures
        /// A map was loaded and the filter has not found itself in it yet: no pose in its frame.
        case relocalizing
    }

    case normal
    case limited(Reason)
    /// The filter was reset at this frame (an IMU gap or a failure).
    case notAvailable
}
