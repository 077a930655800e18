import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath

/// What a dataset knows about a face in one frame: its head angles, metric pose, eyes and true
/// landmarks, as far as it has them.
public struct FaceTruth: Sendable {
    public var timestamp: Timestamp
    /// Pitch, yaw, roll (degrees, ``HeadAngles``' convention), when known.
    public var angles: HeadAngles?
    /// `T_CH`, eyes and look-at point (simulated faces).
    public var anchor: FaceAnchor?
    /// The true landmarks (px), in the scheme of the dataset's landmark stream.
    public var landmarks: [Vector2]?

    public init(timestamp: Timestamp, angles: HeadAngles?, anchor: FaceAnchor? = nil, landmarks: [Vector2]? = nil) {
        self.timestamp = timestamp
        self.angles = angles
        self.anchor = anchor
        self.landmarks = landmarks
    }
}

/// A dataset that knows its faces' poses or landmarks (AFLW2000-3D, iBUG `.pts` folders,
/// `parallax simulate --scene face`).
public protocol FaceTruthProviding {
    /// Per face (named by its streams' first component: `face0` for `face0/landmarks`), the
    /// frames with truth in time order.
    var faceTruth: [String: [FaceTruth]] { get }
}
