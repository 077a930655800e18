import Foundation
/// One tracked object in one frame (Vision's `VNDetectedObjectObservation` as
/// `VNTrackObjectRequest` reports it): a stable id, its box, how sure the tracker is, and
/// whether it still tracks it.
public struct TrackedObject: Sendable, Codable, Equatable {
    /// Stable across frames for one object.
    public var id: UInt64
    /// Where it is (px, top-left corner and size).
    public var box: BoundingBox
    /// The tracker's confidence in [0, 1] (its peak-to-sidelobe or response, normalized).
    public var confidence: Double
    /// `normal` while tracked, `notAvailable` while lost (the tracker's confidence fell below
    /// its threshold; the box is then the last one seen, and the tracker may be searching).
    public var state: TrackingState

    public init(id: UInt64, box: BoundingBox, confidence: Double, state: TrackingState = .normal) {
        self.id = id
        self.box = box
        self.confidence = confidence
        self.state = state
    }
}

/// The tracked objects of one frame: a tracker's output packet.
public struct TrackedObjects: Sendable, Codable, Equatable {
    /// The frame's size (px), so a box can be judged against it.
    public var imageWidth: Int
    public var imageHeight: Int
    /// Every object the tracker follows, in id order.
    public var objects: [TrackedObject]

    public init(imageWidth: Int, imageHeight: Int, objects: [TrackedObject]) {
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.objects = objects
    }
}

extension TrackedObjects: FrameOverlayDrawable {
    /// Each object's box, labelled with its id and confidence, over the frames of the camera
    /// its stream is named after (`cam0/objects`).
    public func frameOverlay(camera: String, stream: String) -> FrameOverlay? {
        guard stream.hasPrefix(camera + "/") else { return nil }
        return FrameOverlay(boxes: objects.map { FrameOverlay.Box(box: $0.box, label: "object \($0.id) (\(String(format: "%.2f", $0.confidence)))") })
    }
}
