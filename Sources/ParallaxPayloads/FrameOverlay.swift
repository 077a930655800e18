import Foundation
import ParallaxImage
import ParallaxMath

/// What one output packet draws over a camera frame in the HTML reports (`report.html` of
/// `run` and `bench`): feature points coloured by age, labelled boxes, and outlines (face
/// landmarks), all in the frame's pixels (px, origin at the top-left corner).
public struct FrameOverlay: Sendable, Equatable {
    /// A point, drawn as a dot coloured by `age` (frames it has been tracked: young yellow, old
    /// blue at 20 and more).
    public struct Point: Sendable, Equatable {
        public var pixel: Vector2
        public var age: Int
        public init(pixel: Vector2, age: Int) {
            self.pixel = pixel
            self.age = age
        }
    }

    /// A box with the label drawn above it.
    public struct Box: Sendable, Equatable {
        public var box: BoundingBox
        public var label: String
        public init(box: BoundingBox, label: String) {
            self.box = box
            self.label = label
        }
    }

    public var points: [Point]
    public var boxes: [Box]
    /// Sets of points drawn as small marks (one set per face, say); non-finite ones are skipped.
    public var outlines: [[Vector2]]

    public init(points: [Point] = [], boxes: [Box] = [], outlines: [[Vector2]] = []) {
        self.points = points
        self.boxes = boxes
        self.outlines = outlines
    }

    /// Whether it draws nothing.
    public var isEmpty: Bool { points.isEmpty && boxes.isEmpty && outlines.isEmpty }

    /// This overlay and `other` drawn together.
    public mutating func add(_ other: FrameOverlay) {
        points += other.points
        boxes += other.boxes
        outlines += other.outlines
    }
}

/// A payload that can be drawn over the frames of a camera: the capability the HTML reports ask
/// every output for (a payload without it is not drawn). A plugin's payload conforms the same way
/// a built-in one does.
public protocol FrameOverlayDrawable {
    /// What this payload, an output on `stream`, draws over a frame of `camera` at its time; nil
    /// when it belongs to another camera.
    func frameOverlay(camera: String, stream: String) -> FrameOverlay?
}
