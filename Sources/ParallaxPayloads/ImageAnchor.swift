import ParallaxMath

/// A known picture found in a camera frame (ARKit's `ARImageAnchor`): where it is, how big it
/// is, whether it is seen now and how sure that is.
///
/// The picture's frame I has its origin at the picture's centre, x to the right along its
/// width, y down along its height (as its pixels run) and z into the picture, away from the
/// side it is seen from: a picture facing the camera squarely has the camera's axes.
public struct ImageAnchor: Sendable, Codable, Equatable {
    /// The reference picture's name (its file name without extension, or as given).
    public var name: String
    /// `T_CI`: picture frame to camera frame (m). The last pose known while not tracked.
    public var pose: SE3
    /// Physical size (m): width as given, height from the picture's aspect ratio.
    public var physicalWidth: Double
    public var physicalHeight: Double
    /// Whether the picture is found in this frame.
    public var isTracked: Bool
    /// How sure the finding is, 0…1: the share of matched points that agree with the picture's
    /// homography, times the share of the 30 points that make a sure finding (0 when not tracked).
    public var confidence: Double
    /// Its corners in the frame (px; top-left, top-right, bottom-right, bottom-left of the
    /// picture), empty when not tracked.
    public var corners: [Vector2]
    /// `T_WI`: the picture in the world, for a static picture anchored with the camera's poses
    /// (`image-detect`); `nil` for pictures followed in the camera only (`image-track`).
    public var worldFromImage: SE3?

    public init(name: String, pose: SE3, physicalWidth: Double, physicalHeight: Double, isTracked: Bool, confidence: Double, corners: [Vector2],
                worldFromImage: SE3? = nil) {
        self.worldFromImage = worldFromImage
        self.name = name
        self.pose = pose
        self.physicalWidth = physicalWidth
        self.physicalHeight = physicalHeight
        self.isTracked = isTracked
        self.confidence = confidence
        self.corners = corners
    }
}

/// The reference pictures of one camera frame: the `image-track` and `image-detect` analyzers'
/// output packet, one anchor per reference picture that has been found at least once.
public struct ImageAnchors: Sendable, Codable, Equatable {
    public var anchors: [ImageAnchor]
    public init(anchors: [ImageAnchor]) { self.anchors = anchors }
}
