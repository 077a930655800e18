import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
import ParallaxFiles

/// Writes an ``ImageAnchors`` stream as one CSV per reference picture, `<stream>/<name>.csv`:
/// a header, then per frame after the picture was first found
/// `t_ns,tracked,confidence,tx,ty,tz,qx,qy,qz,qw,x0,y0,x1,y1,x2,y2,x3,y3,wtx,wty,wtz,wqx,wqy,wqz,wqw` —
/// the pose `T_CI` (m; Hamilton quaternion; while not tracked the last known, or for an
/// anchored picture where the anchor is seen from this frame's camera), the corners in the frame
/// (px; top-left, top-right, bottom-right, bottom-left; empty while not tracked) and `T_WI`
/// (anchored pictures, `image-detect`; empty otherwise). Written when the run ends, each file
/// atomically. File names follow ``OutputPath/fileName(_:)``; two pictures whose names make one
/// file name are refused (`image-track` refuses them when it opens).
public final class ImageAnchorWriter: StreamFileWriter {
    public static let header = "t_ns,tracked,confidence,tx,ty,tz,qx,qy,qz,qw,x0,y0,x1,y1,x2,y2,x3,y3,wtx,wty,wtz,wqx,wqy,wqz,wqw"
    private let folder: URL
    private var lines: [String: [String]] = [:]
    private var order: [String] = []

    public init(folder: URL) { self.folder = folder }

    public func write(_ packet: AnyPacket) throws {
        guard let frame = packet.payload as? ImageAnchors else { return }
        for a in frame.anchors {
            if lines[a.name] == nil {
                // One file per picture: a second name that makes the same file name is refused.
                let file = OutputPath.fileName(a.name)
                if let other = order.first(where: { OutputPath.fileName($0) == file }) {
                    throw OutputPath.RefusedError(option: "picture", path: a.name, reason: "would share the result file '\(file).csv' with picture '\(other)'; rename one")
                }
                order.append(a.name)
                lines[a.name] = []
            }
            let corners = a.isTracked && a.corners.count == 4 ? a.corners.map { "\($0.x),\($0.y)" }.joined(separator: ",") : ",,,,,,,"
            let world = a.worldFromImage.map(Self.columns) ?? ",,,,,,"
            lines[a.name]?.append("\(packet.timestamp.nanoseconds),\(a.isTracked ? 1 : 0),\(a.confidence),\(Self.columns(a.pose)),\(corners),\(world)")
        }
    }

    /// `tx,ty,tz,qx,qy,qz,qw` of `pose`.
    static func columns(_ pose: SE3) -> String {
        let t = pose.translation, q = pose.rotation.quaternion
        return "\(t.x),\(t.y),\(t.z),\(q.vector.x),\(q.vector.y),\(q.vector.z),\(q.w)"
    }

    public func finish() throws -> String {
        for name in order {
            let safe = OutputPath.fileName(name)
            try ([Self.header] + (lines[name] ?? [])).joined(separator: "\n").appending("\n")
                .write(to: folder.appendingPathComponent("\(safe).csv"), atomically: true, encoding: .utf8)
        }
        return folder.path
    }
}
