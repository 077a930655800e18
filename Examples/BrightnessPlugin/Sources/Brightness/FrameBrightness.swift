import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxOutputs
import ParallaxFiles
import ParallaxImage

/// Mean intensity and clipping of one frame: the plugin's own payload, with its own
/// capabilities — JSON (`Codable`: events.jsonl), an overlay over the frame in report.html
/// (``FrameOverlayDrawable``), a schema of its own in MCAP recordings (``MCAPRecordable``) and a
/// file of its own in `--out` (``StreamFileWritable``).
public struct Brightness: Sendable, Codable, Equatable {
    /// Mean intensity in [0, 255].
    public var mean: Double
    /// Fraction of pixels at 0 or 255 (under/over-exposed).
    public var clipped: Double
    /// The camera measured, and its frame size (px).
    public var camera: String
    public var width: Int
    public var height: Int
}

extension Brightness: FrameOverlayDrawable {
    /// The frame outlined and labelled with its brightness, over its own camera's frames.
    public func frameOverlay(camera: String, stream: String) -> FrameOverlay? {
        guard camera == self.camera else { return nil }
        let label = String(format: "brightness %.0f, clipped %.1f %%", mean, 100 * clipped)
        return FrameOverlay(boxes: [.init(box: BoundingBox(x: 1, y: 1, width: Double(max(1, width - 2)), height: Double(max(1, height - 2))), label: label)])
    }
}

extension Brightness: MCAPRecordable {
    /// `example.Brightness`: the payload's JSON under a schema of its own.
    public static let schema = RecordedSchema(name: "example.Brightness", jsonSchema: Data("""
        {"type":"object","title":"example.Brightness","properties":{"mean":{"type":"number","description":"mean intensity, 0…255"},\
        "clipped":{"type":"number","description":"share of pixels at 0 or 255"},"camera":{"type":"string"},\
        "width":{"type":"integer"},"height":{"type":"integer"}}}
        """.utf8))

    public static func mcapMessages(_ batch: [Brightness], stream: String, time: Timestamp, options: MCAPRecordingOptions) throws -> [RecordedMessage] {
        batch.map { RecordedMessage(topic: "/" + stream, schema: schema, message: $0) }
    }
}

extension Brightness: StreamFileWritable {
    /// `<stream>.csv` in `--out`: one `t_ns,mean,clipped` row per frame.
    public static func streamFileWriter(stream: String, folder: URL) throws -> any StreamFileWriter {
        try BrightnessListWriter(path: try OutputWriterRegistry.outputPath(for: stream, extension: "csv", in: folder))
    }
}

/// Writes a brightness stream as CSV, staged and committed atomically as built-in writers are.
public final class BrightnessListWriter: StreamFileWriter {
    private let file: StagedTextFile
    public init(path: String) throws {
        file = try StagedTextFile(path: path, name: "a brightness list", header: "t_ns,mean,clipped\n")
    }
    public func write(_ packet: AnyPacket) throws {
        guard let b = packet.payload as? Brightness else { return }
        try file.append("\(packet.timestamp.nanoseconds),\(b.mean),\(b.clipped)\n")
    }
    public func finish() throws -> String { try file.finish() }
}

/// A part of stream metadata of the example's own: the full-scale intensity of the frames a
/// brightness stream measured (255 for 8-bit), declared by `frame-brightness` for its output.
public enum BrightnessFullScaleKey: StreamMetadataKey { public typealias Value = Double }

/// Mean brightness and clipped fraction of every frame: a user-written analyzer.
///
/// Example chain: `frame-brightness camera=cam0`
public struct FrameBrightness: Analyzer {
    public static let name = "frame-brightness"
    public static let summary = "Mean intensity and clipped-pixel fraction of each frame (example plugin)"

    public struct Options: AnalyzerOptions {
        @Parameter("camera stream to measure (output: <camera>/brightness)") public var camera = "cam0"
        public init() {}
    }

    var camera: String
    let frames: InputPort<CameraFrame>
    let brightness: OutputPort<Brightness>

    public init(options: Options) {
        camera = options.camera
        frames = .each(options.camera)
        brightness = OutputPort("\(options.camera)/brightness")
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        // The stream really read: the chain may have wired `frames` elsewhere (`frames=@cam1`).
        camera = context.stream(of: frames)
        var described = StreamMetadata.none
        described[BrightnessFullScaleKey.self] = 255
        context.describe(brightness, as: described)
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        let frame = try input.trigger(frames).payload
        let (sum, clipped) = frame.image.withUnsafeSamples { p in
            p.reduce(into: (0, 0)) { acc, v in acc.0 += Int(v); if v == 0 || v == 255 { acc.1 += 1 } }
        }
        let n = Double(max(1, frame.image.samples.count))
        context.emit(Brightness(mean: Double(sum) / n, clipped: Double(clipped) / n, camera: camera, width: frame.width, height: frame.height),
                     on: brightness, at: input.timestamp)
    }
}

/// The package's analyzer and evaluation as a plugin bundle: what `my-parallax` adds to the stock CLI.
public enum BrightnessPlugin: ParallaxPlugin {
    public static let name = "brightness"
    public static func register(into registry: inout PluginRegistry) {
        registry.analyzers.register(FrameBrightness.self)
        registry.evaluations.register(BrightnessFlicker.self)
    }
}
