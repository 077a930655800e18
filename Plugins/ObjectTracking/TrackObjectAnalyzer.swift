import ParallaxBus
import ParallaxPayloads
import ParallaxImage
import ParallaxTracking
import ParallaxFiles

/// Follows boxes through a camera stream (Vision's `VNTrackObjectRequest` for dataset folders):
/// per object a kernelized correlation filter over FHOG and intensity cells with scale search
/// (``CorrelationFilterTracker``), a confidence in [0, 1] per frame, and a lost state below
/// `lost_threshold` (no learning while lost; a widening search finds the object again).
///
/// Start boxes, each one object, ids 1, 2, … in this order:
/// - `box` (frame pixels: top-left corner and size, pixel centres at integers, so the image
///   spans −0.5 … width − 0.5) or `normalized_box` (Vision's convention: fractions of the
///   image, origin at the bottom-left corner, y upward), started on the first frame;
/// - `boxes`: several pixel boxes, started on the first frame;
/// - `start`: streams of ``BoundingBox`` (a detector's, or a dataset's ground truth): each
///   stream is one object, started on the first frame at or after its stream's first box
///   (later boxes on it are not used).
/// Without any of them, the object is the dataset's ground truth `object0/box` (OTB and VOT
/// sequences, `parallax simulate --scene object`): tracked from its first box on.
/// An object is reported from the frame that starts it (confidence 1) on.
///
/// Emits `<camera>/objects` (``TrackedObjects``: per object the box, confidence and state —
/// `normal` while tracked, `notAvailable` while lost, the box then being the last one seen)
/// every frame; `parallax run` also writes it as OTB result files (`<camera>/objects/<id>.txt`).
///
/// Example chain: `track-object camera=cam0 box={x: 120, y: 80, width: 64, height: 48} level=accurate`
public struct TrackObjectAnalyzer: Analyzer {
    public static let name = "track-object"
    public static let summary = "Follows boxes frame by frame (correlation filter): box, confidence in [0, 1], tracking or lost"

    /// Vision's tracking levels: the tracker's own.
    public typealias Level = CorrelationFilterTracker.Level

    /// The stream of start boxes used when no start is given: a dataset's ground truth.
    public static let groundTruthStream = "object0/box"

    public struct Options: AnalyzerOptions {
        @Parameter("camera stream") public var camera = "cam0"
        @Parameter("start box in frame pixels (top-left corner and size)") public var box: BoundingBox? = nil
        @Parameter("start box normalized to the image, origin bottom-left, y up (Vision's convention)") public var normalizedBox: BoundingBox? = nil
        @Parameter("start boxes of further objects in frame pixels") public var boxes: [BoundingBox] = []
        @Parameter("streams of start boxes, one object each (default without boxes: the dataset's object0/box)") public var start: [String] = []
        @Parameter("fast, or accurate (searches 25 windows per frame while lost instead of 9)") public var level = Level.fast
        @Parameter("confidence below which the object is lost", range: 0...1) public var lostThreshold = 0.3
        @Parameter("confidence a re-detection needs to resume tracking", range: 0...1) public var recoverThreshold = 0.5
        public init() {}
    }

    /// Where an object's start box comes from.
    private enum Start {
        case pixels(BoundingBox)
        case normalized(BoundingBox)
        /// The first box of `starts[index]`.
        case stream(index: Int)
    }

    /// One object: how it starts, and its tracker once started.
    private struct Object {
        var id: UInt64
        var start: Start
        /// The option that gave its start, for messages.
        var option: String
        var tracker: CorrelationFilterTracker?
    }

    private let frames: InputPort<CameraFrame>
    private let starts: [InputPort<BoundingBox>]
    private let output: OutputPort<TrackedObjects>
    private let options: Options
    private let settings: CorrelationFilterTracker.Settings
    private var objects: [Object] = []
    private var size: (width: Int, height: Int, channels: Int)?

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        guard options.box == nil || options.normalizedBox == nil else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "box", reason: "give box or normalized_box, not both")
        }
        self.options = options
        var settings = CorrelationFilterTracker.Settings(level: options.level)
        settings.lostThreshold = options.lostThreshold
        settings.recoverThreshold = options.recoverThreshold
        self.settings = settings
        frames = .each(options.camera)
        output = OutputPort("\(options.camera)/objects")
        var given: [(Start, String)] = []
        if let box = options.box { given.append((.pixels(box), "box")) }
        if let box = options.normalizedBox { given.append((.normalized(box), "normalized_box")) }
        given += options.boxes.enumerated().map { (.pixels($1), "boxes[\($0)]") }
        let streams = given.isEmpty && options.start.isEmpty ? [Self.groundTruthStream] : options.start
        // The newest start box at or before each frame: a box between frames starts the next one.
        starts = streams.map { .latest($0, tolerance: .max) }
        given += streams.enumerated().map { (.stream(index: $0), "start (stream '\($1)')") }
        objects = given.enumerated().map { Object(id: UInt64($0 + 1), start: $1.0, option: $1.1) }
    }

    /// `normalized` (fractions, origin bottom-left, y up) in pixels of a `width × height` image.
    public static func pixels(ofNormalized normalized: BoundingBox, width: Int, height: Int) -> BoundingBox {
        let w = Double(width), h = Double(height)
        return BoundingBox(x: normalized.x * w - 0.5, y: (1 - normalized.y - normalized.height) * h - 0.5,
                           width: normalized.width * w, height: normalized.height * h)
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let frame = input.payload(frames) else { return }
        let image = frame.image
        if let size, size != (image.width, image.height, image.channels) {
            throw TrackObjectError.imageChanged(stream: options.camera, timestamp: input.timestamp.nanoseconds,
                                                from: "\(size.width)×\(size.height)×\(size.channels)", to: "\(image.width)×\(image.height)×\(image.channels)")
        }
        size = (image.width, image.height, image.channels)
        var pyramid = FramePyramid(GrayImage(image.luma))
        var observations: [TrackedObject] = []
        for k in objects.indices {
            if var tracker = objects[k].tracker {
                let o = tracker.update(&pyramid)
                objects[k].tracker = tracker
                observations.append(TrackedObject(id: objects[k].id, box: o.box, confidence: o.confidence, state: o.state == .tracking ? .normal : .notAvailable))
                continue
            }
            let object = objects[k]
            let start: BoundingBox?, when: String
            switch object.start {
            case let .pixels(box): (start, when) = (box, "")
            case let .normalized(box): (start, when) = (Self.pixels(ofNormalized: box, width: image.width, height: image.height), "")
            case let .stream(index): (start, when) = (input.latest(starts[index])?.payload, " (its first box, at \(input.timestamp.nanoseconds) ns)")
            }
            guard let start else { continue }
            do {
                objects[k].tracker = try CorrelationFilterTracker(frame: &pyramid, box: start, settings: settings)
            } catch {
                throw AnalyzerError.invalidOption(analyzer: context.instanceName, option: object.option, reason: "\(error)" + when)
            }
            observations.append(TrackedObject(id: object.id, box: start, confidence: 1, state: .normal))
        }
        context.emit(TrackedObjects(imageWidth: image.width, imageHeight: image.height, objects: observations), on: output, at: input.timestamp)
    }
}

/// The tracker's levels are option values (`level=fast`); the tracker sits below the bus, which
/// defines option values, so the conformance is declared here, by its one user.
extension CorrelationFilterTracker.Level: OptionValue {}

/// A camera stream the tracker cannot follow.
public enum TrackObjectError: Error, BadInput, Equatable, CustomStringConvertible {
    /// The image size or channel count changed mid-stream (width×height×channels).
    case imageChanged(stream: String, timestamp: Int64, from: String, to: String)

    public var description: String {
        switch self {
        case let .imageChanged(stream, timestamp, from, to):
            return "track-object: stream '\(stream)' at \(timestamp) ns: the image changed from \(from) to \(to) mid-sequence"
        }
    }
}
