import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxImage
import ParallaxMath

/// Writes a ``TrackedObjects`` stream as OTB result files, one per object id
/// (`<id>.txt`, one `x,y,w,h` line per frame of the stream, OTB's 1-based pixel convention:
/// `x_otb = x + 1.5` for Parallax's edge coordinates where pixel centres are integers), with
/// `0,0,0,0` where the object was absent or lost, and `frames.txt` listing each frame's time
/// (ns) so lines can be matched to frames.
public final class OTBResultWriter: StreamFileWriter {
    private let folder: URL
    private var times: [Int64] = []
    private var lines: [UInt64: [String]] = [:]

    public init(folder: URL) throws { self.folder = folder }

    public func write(_ packet: AnyPacket) throws {
        guard let frame = packet.payload as? TrackedObjects else { return }
        times.append(packet.timestamp.nanoseconds)
        let k = times.count - 1
        for o in frame.objects {
            var list = lines[o.id] ?? Array(repeating: "0,0,0,0", count: k)
            if list.count < k { list += Array(repeating: "0,0,0,0", count: k - list.count) }
            let b = o.box
            let visible = o.state != .notAvailable && [b.x, b.y, b.width, b.height].allSatisfy(\.isFinite)
            list.append(visible ? "\(b.x + 1.5),\(b.y + 1.5),\(b.width),\(b.height)" : "0,0,0,0")
            lines[o.id] = list
        }
    }

    public func finish() throws -> String {
        for (id, var list) in lines {
            if list.count < times.count { list += Array(repeating: "0,0,0,0", count: times.count - list.count) }
            try (list.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("\(id).txt"), atomically: true, encoding: .utf8)
        }
        try (times.map(String.init).joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("frames.txt"), atomically: true, encoding: .utf8)
        return folder.path
    }
}
