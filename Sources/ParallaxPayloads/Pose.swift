import ParallaxMath

/// How trustworthy an estimator's output is, per frame (ARKit's `ARCamera.TrackingState`).
///
/// In JSON: `"normal"`, `"notAvailable"` or `"limited(initializing)"` (the reason in brackets).
public enum TrackingState: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// Why tracking is limited.
    public enum Reason: String, Sendable, Codable, CaseIterable { case initializing, excessiveMotion, insufficientFeatures, relocalizing }
    case normal
    case limited(Reason)
    case notAvailable

    public var description: String {
        switch self {
        case .normal: return "normal"
        case .notAvailable: return "notAvailable"
        case let .limited(reason): return "limited(\(reason.rawValue))"
        }
    }

    /// The state named by `text` (``description``'s form), or `nil`.
    public init?(_ text: String) {
        switch text {
        case "normal": self = .normal
        case "notAvailable": self = .notAvailable
        default:
            guard text.hasPrefix("limited("), text.hasSuffix(")"),
                  let reason = Reason(rawValue: String(text.dropFirst(8).dropLast())) else { return nil }
            self = .limited(reason)
        }
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let state = TrackingState(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown tracking state '\(text)'"))
        }
        self = state
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// A body pose estimate (or ground truth) at one time.
///
/// In JSON: `{"worldFromBody": {"rotation": {w,x,y,z}, "translation": [x,y,z]}, "velocity": [x,y,z],
/// "covariance": [[…6 rows…]], "trackingState": "normal"}` (absent fields omitted).
public struct Pose: Sendable, Equatable, Codable {
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
