import Foundation
import ParallaxBus
import ParallaxMath

/// The truth of a simulated known picture (`parallax simulate --scene object` writes it beside
/// its OTB sequence, with the picture as `picture.png` and the camera as `sensor.yaml`):
/// `picture_pose.csv`, a header and per frame
/// `t_ns,visible_fraction,width_m,height_m,tx,ty,tz,qx,qy,qz,qw` — how much of the picture is
/// in view and unoccluded (0…1), its size, and `T_CP` (picture frame: origin at its centre, x
/// right, y down, z away from the camera; Hamilton quaternion).
public enum PictureTruthFile {
    public static let fileName = "picture_pose.csv"
    public static let pictureName = "picture.png"
    static let header = "t_ns,visible_fraction,width_m,height_m,tx,ty,tz,qx,qy,qz,qw"

    /// One frame's truth.
    public struct Row: Sendable, Equatable {
        public var timestamp: Timestamp
        public var visibleFraction: Double
        public var width: Double, height: Double
        public var cameraFromPicture: SE3
    }

    public static func write(_ frames: [(timestamp: Timestamp, visible: Double, pose: SE3)], size: Vector2, to path: String) throws {
        var text = header + "\n"
        for f in frames {
            let t = f.pose.translation, q = f.pose.rotation.quaternion
            text += "\(f.timestamp.nanoseconds),\(f.visible),\(size.x),\(size.y),\(t.x),\(t.y),\(t.z),\(q.x),\(q.y),\(q.z),\(q.w)\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Reads `path`; a malformed line is an error naming the file and line.
    public static func read(_ path: String) throws -> [Row] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw DatasetError.notADataset(path: path, expected: "a readable \(fileName)")
        }
        var rows: [Row] = []
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where k > 0 && !line.isEmpty {
            let v = line.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard v.count == 11, v.allSatisfy({ $0?.isFinite == true }), let ns = Int64(line.split(separator: ",")[0]) else {
                throw DatasetError.malformedRow(file: path, line: k + 1, reason: "expected \(header)")
            }
            let f = v.map { $0 ?? 0 }
            let q = Quaternion(w: f[10], x: f[7], y: f[8], z: f[9])
            guard q.norm > 0.5, f[2] > 0, f[3] > 0 else { throw DatasetError.malformedRow(file: path, line: k + 1, reason: "a size ≤ 0 or a quaternion that is not a rotation") }
            rows.append(Row(timestamp: Timestamp(nanoseconds: ns), visibleFraction: f[1], width: f[2], height: f[3],
                            cameraFromPicture: SE3(rotation: SO3(q.normalized), translation: Vector3(f[4], f[5], f[6]))))
        }
        return rows
    }
}
