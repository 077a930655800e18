import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
import ParallaxCodecs

/// Foxglove's well-known message schemas (https://docs.foxglove.dev/docs/visualization/message-schemas),
/// as the JSON messages ``FoxgloveRecorder`` writes and the JSON Schemas it registers for them.
/// Field names are Foxglove's (snake case); bytes are base64 strings, as its JSON encoding wants.
enum Foxglove {
    struct Time: Encodable {
        var sec: UInt32
        var nsec: UInt32
        init(_ t: Timestamp) {
            let ns = max(0, t.nanoseconds)
            sec = UInt32(clamping: ns / 1_000_000_000)
            nsec = UInt32(ns % 1_000_000_000)
        }
    }

    struct Vector3: Encodable { var x, y, z: Double }
    struct Quaternion: Encodable { var x, y, z, w: Double }
    struct Point2: Encodable { var x, y: Double }
    struct Color: Encodable { var r, g, b, a: Double }

    struct Pose: Encodable {
        var position: Vector3
        var orientation: Quaternion
        init(_ pose: SE3) {
            let t = pose.translation, q = pose.rotation.quaternion
            position = Vector3(x: t.x, y: t.y, z: t.z)
            orientation = Quaternion(x: q.x, y: q.y, z: q.z, w: q.w)
        }
    }

    struct CompressedImage: Encodable {
        var timestamp: Time
        var frame_id: String
        var data: String
        var format: String
    }

    struct PoseInFrame: Encodable {
        var timestamp: Time
        var frame_id: String
        var pose: Pose
    }

    struct FrameTransform: Encodable {
        var timestamp: Time
        var parent_frame_id: String
        var child_frame_id: String
        var translation: Vector3
        var rotation: Quaternion
    }

    /// `type`: 1 points, 2 line loop, 3 line strip, 4 line list.
    struct PointsAnnotation: Encodable {
        var timestamp: Time
        var type: Int
        var points: [Point2]
        var outline_color: Color
        var outline_colors: [Color]
        var fill_color: Color
        var thickness: Double

        /// A box's outline (a closed loop of its corners, px).
        static func box(_ b: BoundingBox, time: Timestamp, color: Color) -> PointsAnnotation {
            PointsAnnotation(timestamp: Time(time), type: 2,
                             points: [Point2(x: b.x, y: b.y), Point2(x: b.x + b.width, y: b.y), Point2(x: b.x + b.width, y: b.y + b.height), Point2(x: b.x, y: b.y + b.height)],
                             outline_color: color, outline_colors: [], fill_color: Color(r: 0, g: 0, b: 0, a: 0), thickness: 2)
        }
    }

    struct ImageAnnotations: Encodable {
        var circles: [String] = []
        var points: [PointsAnnotation]
        var texts: [String] = []
    }

    struct PackedElementField: Encodable {
        var name: String
        var offset: UInt32
        /// 7: FLOAT32.
        var type: Int
    }

    struct PointCloud: Encodable {
        var timestamp: Time
        var frame_id: String
        var pose: Pose
        var point_stride: UInt32
        var fields: [PackedElementField]
        var data: String

        /// `points` (m, in `frame_id`) as little-endian float32 x, y, z.
        init(timestamp: Time, frame_id: String, points: [ParallaxMath.Vector3]) {
            self.timestamp = timestamp
            self.frame_id = frame_id
            pose = Pose(.identity)
            point_stride = 12
            fields = [PackedElementField(name: "x", offset: 0, type: 7), PackedElementField(name: "y", offset: 4, type: 7), PackedElementField(name: "z", offset: 8, type: 7)]
            var bytes = Data(capacity: points.count * 12)
            for p in points { for v in [p.x, p.y, p.z] { bytes.mcapLE(Float(v).bitPattern) } }
            data = bytes.base64EncodedString()
        }
    }

    /// The JSON Schema registered for a well-known schema name.
    static func jsonSchema(_ name: String) -> Data {
        let time = #"{"type":"object","properties":{"sec":{"type":"integer","minimum":0},"nsec":{"type":"integer","minimum":0,"maximum":999999999}}}"#
        let vector3 = #"{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"},"z":{"type":"number"}}}"#
        let quaternion = #"{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"},"z":{"type":"number"},"w":{"type":"number"}}}"#
        let pose = #"{"type":"object","properties":{"position":\#(vector3),"orientation":\#(quaternion)}}"#
        let color = #"{"type":"object","properties":{"r":{"type":"number"},"g":{"type":"number"},"b":{"type":"number"},"a":{"type":"number"}}}"#
        let point2 = #"{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}}}"#
        let properties: String
        switch name {
        case "foxglove.CompressedImage":
            properties = #""timestamp":\#(time),"frame_id":{"type":"string"},"data":{"type":"string","contentEncoding":"base64"},"format":{"type":"string"}"#
        case "foxglove.PoseInFrame":
            properties = #""timestamp":\#(time),"frame_id":{"type":"string"},"pose":\#(pose)"#
        case "foxglove.FrameTransform":
            properties = #""timestamp":\#(time),"parent_frame_id":{"type":"string"},"child_frame_id":{"type":"string"},"translation":\#(vector3),"rotation":\#(quaternion)"#
        case "foxglove.ImageAnnotations":
            let annotation = #"{"type":"object","properties":{"timestamp":\#(time),"type":{"type":"integer","description":"0 unknown, 1 points, 2 line loop, 3 line strip, 4 line list"},"points":{"type":"array","items":\#(point2)},"outline_color":\#(color),"outline_colors":{"type":"array","items":\#(color)},"fill_color":\#(color),"thickness":{"type":"number"}}}"#
            properties = #""circles":{"type":"array"},"points":{"type":"array","items":\#(annotation)},"texts":{"type":"array"}"#
        case "foxglove.PointCloud":
            let field = #"{"type":"object","properties":{"name":{"type":"string"},"offset":{"type":"integer"},"type":{"type":"integer"}}}"#
            properties = #""timestamp":\#(time),"frame_id":{"type":"string"},"pose":\#(pose),"point_stride":{"type":"integer"},"fields":{"type":"array","items":\#(field)},"data":{"type":"string","contentEncoding":"base64"}"#
        default:
            properties = ""
        }
        return Data(#"{"title":"\#(name)","type":"object","properties":{\#(properties)}}"#.utf8)
    }
}
