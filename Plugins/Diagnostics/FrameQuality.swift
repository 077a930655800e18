import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxOutputs
import ParallaxFiles

/// How usable one camera frame is: its sharpness (motion blur, defocus) and exposure, measured
/// on its 8-bit luma. Carries its own capabilities: JSON (`events.jsonl`), a label over the
/// frame in `report.html`, a schema of its own in MCAP recordings and a CSV file in `--out`.
public struct FrameQuality: Sendable, Codable, Equatable {
    /// The camera stream measured.
    public var camera: String
    /// The frame size (px).
    public var width: Int, height: Int
    /// Variance of the 4-neighbour Laplacian over the interior pixels (gray levels²): high for
    /// a sharp, textured frame, low for a blurred or featureless one (Pech-Pacheco et al. 2000).
    public var sharpness: Double
    /// ``sharpness`` over the median sharpness of the stream's recent frames (1: as sharp as
    /// usual; 0.3: much blurrier than its neighbours, as a frame taken during a fast turn is).
    /// 1 for the first frame, and when the recent frames had no texture at all (median 0):
    /// there is nothing to be blurrier than.
    public var relativeSharpness: Double
    /// Whether ``relativeSharpness`` is below the analyzer's `blur-ratio`.
    public var blurred: Bool
    /// Mean luma (0…255).
    public var meanLuma: Double
    /// Fraction of pixels at luma 0 (crushed blacks) and at 255 (blown highlights).
    public var blackClipped: Double, whiteClipped: Double
}

extension FrameQuality: FrameOverlayDrawable {
    /// The frame outlined and labelled with its sharpness and exposure, over its own camera's frames.
    public func frameOverlay(camera: String, stream: String) -> FrameOverlay? {
        guard camera == self.camera, width > 2, height > 2 else { return nil }
        let label = String(format: "%@sharpness %.0f (%.2f× usual), luma %.0f, clipped %.1f/%.1f %%", blurred ? "BLURRED " : "",
                           sharpness, relativeSharpness, meanLuma, 100 * blackClipped, 100 * whiteClipped)
        return FrameOverlay(boxes: [.init(box: BoundingBox(x: 1, y: 1, width: Double(width - 2), height: Double(height - 2)), label: label)])
    }
}

extension FrameQuality: MCAPRecordable {
    /// `parallax.FrameQuality`: the payload's JSON under a schema that says what each field means.
    public static let schema = RecordedSchema(name: "parallax.FrameQuality", jsonSchema: Data("""
        {"type":"object","title":"parallax.FrameQuality","properties":{"camera":{"type":"string"},\
        "width":{"type":"integer"},"height":{"type":"integer"},\
        "sharpness":{"type":"number","description":"variance of the Laplacian of the luma, gray levels squared"},\
        "relativeSharpness":{"type":"number","description":"sharpness over the median of recent frames"},\
        "blurred":{"type":"boolean"},"meanLuma":{"type":"number","description":"0 to 255"},\
        "blackClipped":{"type":"number","description":"fraction of pixels at 0"},\
        "whiteClipped":{"type":"number","description":"fraction of pixels at 255"}}}
        """.utf8))

    public static func mcapMessages(_ batch: [FrameQuality], stream: String, time: Timestamp, options: MCAPRecordingOptions) throws -> [RecordedMessage] {
        batch.map { RecordedMessage(topic: "/" + stream, schema: schema, message: $0) }
    }
}

extension FrameQuality: StreamFileWritable {
    /// `<stream>.csv`, one row per frame.
    public static func streamFileWriter(stream: String, folder: URL) throws -> any StreamFileWriter {
        try FrameQualityListWriter(path: try OutputWriterRegistry.outputPath(for: stream, extension: "csv", in: folder))
    }
}

/// Writes a ``FrameQuality`` stream as CSV, one row per frame: time (ns), sharpness, relative
/// sharpness, blurred (0/1), mean luma, clipped fractions — what a keyframe or frame-rejection
/// script reads.
public final class FrameQualityListWriter: StreamFileWriter {
    private let file: StagedTextFile

    /// Starts `path.partial`.
    public init(path: String) throws {
        file = try StagedTextFile(path: path, name: "a frame-quality list",
                                  header: "t_ns,sharpness,relative_sharpness,blurred,mean_luma,black_clipped,white_clipped\n")
    }

    public func write(_ packet: AnyPacket) throws {
        guard let q = packet.payload as? FrameQuality else { return }
        try file.append("\(packet.timestamp.nanoseconds),\(q.sharpness),\(q.relativeSharpness),\(q.blurred ? 1 : 0),\(q.meanLuma),\(q.blackClipped),\(q.whiteClipped)\n")
    }

    public func finish() throws -> String { try file.finish() }
}
