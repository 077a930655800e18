import ParallaxMath

/// How trustworthy an estimator's output is, per frame (ARKit's `ARCamera.TrackingState`).
public enum TrackingState: Sendable, Equatable, Hashable, Codable {
    /// Why tracking is limited.
    public enum Reason: String, Sendable, Codable { case initializing, excessiveMotion, insufficientFeatures, relocalizing }
    case normal
    case limited(Reason)
    case notAvailable
}

/// A body pose estimate (or ground truth) at one time.
public struct Pose: Sendable, Equatable {
    /// Body-to-world transform `T_WB` (`p_W = T_WB * p_B`).
    public var worldFromBody: SE3
    /// Body velocity in the world frame `v_WB` (m/s), when estimated.
    public var velocity: Vector3?
    /// 6×6 covariance of the pose error `(δp, δθ)` in the world frame (m², rad²), when estimated.
    public var covariance: Matrix?
    /// Tracking quality.
    public var trackingState: TrackingState

    /// A pose.
    public init(worldFromBody: SE3, velocity: Vector3? = nil, covariance: Matrix? = nil, trackingState: TrackingState = .normal) {
        self.worldFromBody = worldFromBody
        self.velocity = velocity
        self.covariance = covariance
        self.trackingState = trackingState
    }
}
