import Foundation
import ParallaxCore

/// Writes a ``Fixation`` stream as a CSV list, one fixation per line: start and end (ns),
/// duration (s), screen point (m from the screen's top-left corner; empty when the gaze missed
/// the screen's plane), dispersion (°), samples — the fixation list eye-tracking tools exchange.
public final class FixationListWriter: StreamFileWriter {
    /// The final path.
    public let path: String
    private let file: LineFile
    private var buffer = "start_ns,end_ns,duration_s,screen_x_m,screen_y_m,dispersion_deg,samples\n"

    /// Starts `path.partial`.
    public init(path: String) throws {
        self.path = path
        file = try LineFile(path: path + ".partial")
    }

    public func write(_ packet: AnyPacket) throws {
        guard let f = packet.payload as? Fixation else { return }
        let point = f.screenPoint.map { "\($0.x),\($0.y)" } ?? ","
        buffer += "\(f.start.nanoseconds),\(f.end.nanoseconds),\(f.duration),\(point),\(f.dispersion),\(f.samples)\n"
        if buffer.utf8.count > 1 << 16 { try flush() }
    }

    public func finish() throws -> String {
        try flush()
        try file.close()
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: path + ".partial", toPath: path)
        return path
    }

    private func flush() throws {
        try file.append(Data(buffer.utf8))
        buffer = ""
    }
}
