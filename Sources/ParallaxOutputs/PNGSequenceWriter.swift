import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxImage
import ParallaxMath
import ParallaxCodecs

/// Writes image-like outputs (overlays, depth and disparity maps) as PNG files
/// `<t_ns>.png`: 8-bit frames as they are, depth maps through the turbo colormap (near blue,
/// far red; invalid black) over the stream's own value range: from the 1st to the 99th
/// percentile of its first map's valid values (a few stray matches at 50 m would otherwise
/// paint everything else one colour), values beyond clamped to the ends.
public final class PNGSequenceWriter: StreamFileWriter {
    private let folder: URL
    private var range: ClosedRange<Double>?

    public init(folder: URL) throws { self.folder = folder }

    public func write(_ packet: AnyPacket) throws {
        let path = folder.appendingPathComponent("\(packet.timestamp.nanoseconds).png").path
        switch packet.payload {
        case let frame as CameraFrame:
            try ImageEncoder.writePNG(frame.image, to: path)
        case let depth as DepthMap:
            // One range for the whole stream (from its first map), so colours compare across frames.
            if range == nil { range = Colormap.percentileRange(depth.values.samples) }
            try ImageEncoder.writePNG(Colormap.turbo(depth.values, range: range), to: path)
        default:
            return
        }
    }

    public func finish() throws -> String { folder.path }

}
