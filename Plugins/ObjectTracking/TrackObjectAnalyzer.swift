import ParallaxCore
import ParallaxImage
import ParallaxTracking

/// Follows a box through a camera stream (Vision's `VNTrackObjectRequest` for dataset folders):
/// a kernelized correlation filter over FHOG and intensity cells with scale search
/// (``CorrelationFilterTracker``), a confidence in [0, 1] per frame, and a lost state below
/// `lost_threshold` (no learning while lost; a widening search finds the object again).
///
/// The start box comes from `box` (frame pixels: top-left corner and size, pixel centres at
/// integers, so the image spans −0.5 … width − 0.5) or from `normalized_box` (Vision's
/// convention: fractions of the image, origin at the bottom-left corner, y upward); the first
/// frame starts the tracker and is reported with confidence 1.
///
/// Emits `<camera>/objects` (``TrackedObjects``: the box, confidence and state — `normal` while
/// tracked, `notAvailable` while lost, the box then being the last one seen) every frame;
/// `parallax run` also writes it as OTB result files (`<camera>/objects/<id>.txt`).
///
/// Example chain: `track-object camera=cam0 box={x: 120, y: 80, width: 64, height: 48} level=accurate`
public struct TrackObjectAnalyzer: Analyzer {
    public static let name = "track-object"
    public static let summary = "Follows a box frame by frame (correlation filter): box, confidence in [0, 1], tracking or lost"

    /// Vision's tracking levels: the tracker's own.
    public typealias Level = CorrelationFilterTracker.Level

    public struct Options: AnalyzerOptions {
        @Parameter("camera stream") public var camera = "cam0"
        @Parameter("start box in frame pixels (top-left corner and size)") public var box: BoundingBox? = nil
        @Parameter("start box normalized to the image, origin bottom-left, y up (Vision's convention)") public var normalizedBox: BoundingBox? = nil
        @Parameter("fast (18×18 cells, 3 scales) or accurate (26×26 cells, 5 scales)") public var level = Level.fast
        @Parameter("confidence below which the object is lost", range: 0...1) public var lostThreshold = 0.3
        @Parameter("confidence a re-detection needs to resume tracking", range: 0...1) public var recoverThreshold = 0.5
        public init() {}
    }

    private let frames: InputPort<CameraFrame>
    private let objects: OutputPort<TrackedObjects>
    private let options: Options
    private var tracker: CorrelationFilterTracker?
    private var size: (width: Int, height: Int, channels: Int)?

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        guard options.box == nil || options.normalizedBox == nil else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "box", reason: "give box or normalized_box, not both")
        }
        self.options = options
        frames = .each(options.camera)
        objects = OutputPort("\(options.camera)/objects")
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
        var pyramid = FramePyramid(GrayImage(image.luma))
        let observation: TrackedObject
        if var tracker {
            let o = tracker.update(&pyramid)
            self.tracker = tracker
            observation = TrackedObject(id: 1, box: o.box, confidence: o.confidence, state: o.state == .tracking ? .normal : .notAvailable)
        } else {
            size = (image.width, image.height, image.channels)
            let start = options.box ?? options.normalizedBox.map { Self.pixels(ofNormalized: $0, width: image.width, height: image.height) }
            guard let start else {
                throw AnalyzerError.invalidOption(analyzer: context.instanceName, option: "box",
                                                  reason: "give the start box: box={x, y, width, height} (px) or normalized_box (0…1, origin bottom-left)")
            }
            var settings = CorrelationFilterTracker.Settings(level: options.level)
            settings.lostThreshold = options.lostThreshold
            settings.recoverThreshold = options.recoverThreshold
            do {
                tracker = try CorrelationFilterTracker(frame: &pyramid, box: start, settings: settings)
            } catch {
                throw AnalyzerError.invalidOption(analyzer: context.instanceName, option: options.box == nil ? "normalized_box" : "box", reason: "\(error)")
            }
            observation = TrackedObject(id: 1, box: start, confidence: 1, state: .normal)
        }
        context.emit(TrackedObjects(imageWidth: image.width, imageHeight: image.height, objects: [observation]), on: objects, at: input.timestamp)
    }
}

/// The tracker's levels are option values (`level=fast`); the tracker sits below the bus, which
/// defines option values, so the conformance is declared here, by its one user.
extension CorrelationFilterTracker.Level: OptionValue {}

/// A camera stream the tracker cannot follow.
public enum TrackObjectError: Error, Equatable, CustomStringConvertible {
    /// The image size or channel count changed mid-stream (width×height×channels).
    case imageChanged(stream: String, timestamp: Int64, from: String, to: String)

    public var description: String {
        switch self {
        case let .imageChanged(stream, timestamp, from, to):
            return "track-object: stream '\(stream)' at \(timestamp) ns: the image changed from \(from) to \(to) mid-sequence"
        }
    }
}
