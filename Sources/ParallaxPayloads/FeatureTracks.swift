import ParallaxGeometry
import ParallaxMath

/// One feature point tracked in a frame (ARKit's `rawFeaturePoints` with identifiers).
public struct TrackedFeature: Sendable, Codable, Equatable {
    /// Stable identifier for the life of the track.
    public var id: UInt64
    /// Position in the image (px, pixel centres at integers).
    public var pixel: Vector2
    /// Undistorted normalized coordinates (`z = 1` plane), when the camera is calibrated.
    public var normalized: Vector2?
    /// Frames this track has been seen in, this one included (1 = new).
    public var age: Int
    /// The same point in the stereo partner's image (px), when stereo matching is on and found.
    public var stereoPixel: Vector2?
    /// `stereoPixel` undistorted to the partner's normalized coordinates, when it is calibrated.
    public var stereoNormalized: Vector2?

    public init(id: UInt64, pixel: Vector2, normalized: Vector2? = nil, age: Int, stereoPixel: Vector2? = nil, stereoNormalized: Vector2? = nil) {
        self.id = id
        self.pixel = pixel
        self.normalized = normalized
        self.age = age
        self.stereoPixel = stereoPixel
        self.stereoNormalized = stereoNormalized
    }
}

/// Why a track ended.
public enum TrackEndReason: String, Sendable, Codable, CaseIterable {
    /// The point left the image (or its window did).
    case outOfImage
    /// Tracking back to the previous frame missed the start by more than the threshold.
    case forwardBackward
    /// Inconsistent with the frame-to-frame epipolar geometry (RANSAC outlier).
    case ransac
    /// Too little texture in the tracking window.
    case lowTexture
    /// The image size changed; all tracks were reset.
    case frameSizeChanged
}

/// A track that ended in this frame.
public struct EndedTrack: Sendable, Codable, Equatable {
    public var id: UInt64
    public var reason: TrackEndReason
    /// Frames it lived.
    public var age: Int

    public init(id: UInt64, reason: TrackEndReason, age: Int) {
        self.id = id
        self.reason = reason
        self.age = age
    }
}

/// The feature tracks of one camera frame: the front end's output, the input of
/// triangulation and visual(-inertial) odometry.
public struct FeatureTracks: Sendable, Codable, Equatable {
    /// Camera stream name.
    public var camera: String
    public var imageWidth: Int
    public var imageHeight: Int
    /// Live features in this frame (continuing tracks first, then new ones), ids unique.
    public var features: [TrackedFeature]
    /// Tracks that ended at this frame, with the reason.
    public var ended: [EndedTrack]

    /// Tracks of one frame; the camera's calibration travels as the stream's metadata.
    public init(camera: String, imageWidth: Int, imageHeight: Int, features: [TrackedFeature], ended: [EndedTrack]) {
        self.camera = camera
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.features = features
        self.ended = ended
    }
}

extension FeatureTracks: FrameOverlayDrawable {
    /// Its features, coloured by age, over the frames of its own camera.
    public func frameOverlay(camera: String, stream: String) -> FrameOverlay? {
        guard self.camera == camera else { return nil }
        return FrameOverlay(points: features.map { FrameOverlay.Point(pixel: $0.pixel, age: $0.age) })
    }
}
