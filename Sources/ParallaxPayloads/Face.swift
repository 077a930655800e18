import Foundation
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
    /// Which landmark set the indices refer to.
    public var scheme: LandmarkScheme

    /// Landmarks of one face; the camera's calibration travels as the stream's metadata. The
    /// scheme defaults to the one with this many points.
    public init(points: [Vector2], points3D: [Vector3]? = nil, scheme: LandmarkScheme? = nil) {
        self.points = points
        self.points3D = points3D
        self.scheme = scheme ?? LandmarkScheme(count: points.count)
    }
}

/// A face landmark set: which point each index is.
public enum LandmarkScheme: String, Sendable, Codable, CaseIterable {
    /// iBUG 300-W's 68 points (dlib's shape predictor, AFLW2000-3D's labels).
    case ibug68
    /// MediaPipe Face Mesh's 468 points.
    case mediapipe468
    /// MediaPipe Face Mesh with irises (468 + 2 × 5).
    case mediapipe478
    /// Any other set.
    case other

    /// The scheme with `count` points (`other` when none has that many).
    public init(count: Int) {
        switch count {
        case 68: self = .ibug68
        case 468: self = .mediapipe468
        case 478: self = .mediapipe478
        default: self = .other
        }
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

/// One face's estimated pose and gaze in one frame: a face analyzer's output, with what a
/// consumer needs to trust or track it.
public struct FacePose: Sendable, Codable, Equatable {
    /// Stable across frames for one face.
    public var faceID: UInt64
    /// Head pose `T_CH`, eye poses and look-at point (ARKit's `ARFaceAnchor`).
    public var anchor: FaceAnchor
    /// The head's rotation as pitch, yaw and roll (degrees; ``HeadAngles``' convention, that of
    /// the AFLW2000-3D benchmark).
    public var angles: HeadAngles
    /// Whether the eye transforms and look-at point were measured (the landmarks show the
    /// irises). When not, the eyes are set looking straight ahead along the head's +z and the
    /// look-at point 2 m ahead of them: placeholders, not measurements.
    public var eyesMeasured: Bool
    /// Confidence in [0, 1] (landmark fit quality).
    public var confidence: Double
    /// `normal`, `limited(.initializing)` for the first frames of a face, `notAvailable` when lost.
    public var trackingState: TrackingState
    /// The landmark set the pose was fitted to.
    public var scheme: LandmarkScheme
    /// Indices of the landmarks on the side the head hides in this pose (ascending; ARKit has
    /// no such list): a detector places them on the visible outline, so the fit weighed them
    /// down. `nil` when not judged (a fit to 3D landmarks, or a model without surface normals).
    public var hiddenLandmarks: [Int]?

    public init(faceID: UInt64, anchor: FaceAnchor, angles: HeadAngles, eyesMeasured: Bool, confidence: Double,
                trackingState: TrackingState = .normal, scheme: LandmarkScheme, hiddenLandmarks: [Int]? = nil) {
        self.faceID = faceID
        self.anchor = anchor
        self.angles = angles
        self.eyesMeasured = eyesMeasured
        self.confidence = confidence
        self.trackingState = trackingState
        self.scheme = scheme
        self.hiddenLandmarks = hiddenLandmarks
    }
}

/// Every face of one frame (several faces per frame).
public struct FacePoses: Sendable, Codable, Equatable {
    public var faces: [FacePose]
    public init(faces: [FacePose]) { self.faces = faces }
}

/// One face found in an image: a stable id across frames, where it is, how sure the detector
/// is, and its landmarks.
public struct DetectedFace: Sendable, Codable, Equatable {
    /// Stable across frames while the face stays in view (a face that leaves and comes back
    /// gets a new one).
    public var id: UInt64
    /// The detector's box (pixels: top-left corner and size, pixel centres at integers).
    public var box: BoundingBox
    /// The detector's score (its own scale: dlib's HOG margin, > 0 above its default threshold).
    public var score: Double
    public var landmarks: FaceLandmarks

    public init(id: UInt64, box: BoundingBox, score: Double, landmarks: FaceLandmarks) {
        self.id = id
        self.box = box
        self.score = score
        self.landmarks = landmarks
    }
}

/// Every face found in one frame (none is a valid answer).
public struct DetectedFaces: Sendable, Codable, Equatable {
    public var imageWidth: Int
    public var imageHeight: Int
    public var faces: [DetectedFace]

    public init(imageWidth: Int, imageHeight: Int, faces: [DetectedFace]) {
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.faces = faces
    }
}

extension DetectedFaces: FrameOverlayDrawable {
    /// Each face's box, labelled with its id and score, and its landmarks, over the frames of
    /// the camera its stream is named after (`cam0/faces`).
    public func frameOverlay(camera: String, stream: String) -> FrameOverlay? {
        guard stream.hasPrefix(camera + "/") else { return nil }
        return FrameOverlay(boxes: faces.map { FrameOverlay.Box(box: $0.box, label: "face \($0.id) (\(String(format: "%.2f", $0.score)))") },
                            outlines: faces.map(\.landmarks.points))
    }
}
