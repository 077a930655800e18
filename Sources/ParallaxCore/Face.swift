import ParallaxGeometry
import ParallaxMath

/// Face landmarks in one image (e.g. MediaPipe's 468/478 mesh points or iBUG-68): pixels, and
/// 3D positions in the camera frame when the source measures them (depth camera, MediaPipe's
/// metric landmarks, ARKit's face geometry).
public struct FaceLandmarks: Sendable, Codable, Equatable {
    /// Landmark positions (px), in the model's index order.
    public var points: [Vector2]
    /// The same landmarks in the camera frame (m), when known.
    public var points3D: [Vector3]?

    /// Landmarks of one face; the camera's calibration travels as the stream's metadata.
    public init(points: [Vector2], points3D: [Vector3]? = nil) {
        self.points = points
        self.points3D = points3D
    }
}

/// A face's pose and gaze, as ARKit's `ARFaceAnchor` reports them.
///
/// Head frame `H` (ARKit's face coordinate space): origin between the eyes behind the nose,
/// +x toward the face's left, +y up, +z out of the face; metres.
public struct FaceAnchor: Sendable, Equatable, Codable {
    /// `T_CH`: head to camera.
    public var cameraFromHead: SE3
    /// `T_HE` of each eye: eyeball centre, +z along the line of sight.
    public var leftEye: SE3
    public var rightEye: SE3
    /// The point both eyes look at, in the head frame (m).
    public var lookAtPoint: Vector3

    public init(cameraFromHead: SE3, leftEye: SE3, rightEye: SE3, lookAtPoint: Vector3) {
        self.cameraFromHead = cameraFromHead
        self.leftEye = leftEye
        self.rightEye = rightEye
        self.lookAtPoint = lookAtPoint
    }
}
