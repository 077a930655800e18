import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxFiles
/// Writes a ``Fixation`` stream as a CSV list, one fixation per line: start and end (ns),
/// duration (s), screen point (m from the screen's top-left corner; empty when the gaze missed
/// the screen's plane), dispersion (°), samples — the fixation list eye-tracking tools exchange.
public final class FixationListWriter: StreamFileWriter {
    /// The final path.
    public var path: String { file.path }
    private let file: StagedTextFile

    /// Starts `path.partial`.
    public init(path: String) throws {
        file = try StagedTextFile(path: path, name: "a fixation list", header: "start_ns,end_ns,duration_s,screen_x_m,screen_y_m,dispersion_deg,samples\n")
    }

    public func write(_ packet: AnyPacket) throws {
        guard let f = packet.payload as? Fixation else { return }
        let point = f.screenPoint.map { "\($0.x),\($0.y)" } ?? ","
        try file.append("\(f.start.nanoseconds),\(f.end.nanoseconds),\(f.duration),\(point),\(f.dispersion),\(f.samples)\n")
    }

    public func finish() throws -> String { try file.finish() }
}
