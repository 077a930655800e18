import Foundation
import ParallaxCore
import ParallaxMath

/// Records packets — a run's input streams and its analyzers' outputs — into an MCAP file for
/// Foxglove, with Foxglove's well-known schemas in JSON encoding, one topic per stream
/// (`/cam0`, `/cam0/tracks`, `/vio/pose`):
///
/// | payload | schema |
/// |---|---|
/// | ``CameraFrame`` | `foxglove.CompressedImage` (JPEG at ``imageQuality``: a view, not an archive; lossless PNG took ~85 ms a frame on the MH_01 clip, JPEG a few) |
/// | ``Pose`` (ground truth, `vio`) | `foxglove.PoseInFrame` in `world`, and `foxglove.FrameTransform` on `/tf/<stream>` (`world` → the stream) |
/// | ``FeatureTracks`` | `foxglove.ImageAnnotations`: each feature a point, coloured by its age |
/// | ``TrackedObjects``, ``DetectedFaces`` | `foxglove.ImageAnnotations`: boxes (and landmarks) |
/// | ``Landmark`` (`triangulate`) | `foxglove.PointCloud` in `world`: every landmark of one time together |
/// | ``PointCloud`` | `foxglove.PointCloud` in the cloud's camera frame |
/// | anything else `Encodable` (``IMUSample``, …) | `parallax.<Type>`: the payload's own JSON (as `events.jsonl` writes it) |
///
/// Payloads that are neither (depth maps) are counted in ``skipped``. Same packets in the same
/// order give the same bytes.
public final class FoxgloveRecorder {
    private let writer: MCAPWriter
    private var schemaIDs: [String: UInt16] = [:]
    private var channelIDs: [String: UInt16] = [:]
    /// Landmarks waiting to be written as one cloud per stream and time.
    private var pendingLandmarks: (stream: String, time: Timestamp, points: [Vector3])?
    private let encoder: JSONEncoder
    /// JPEG quality of recorded images (1…100).
    public var imageQuality = 90
    /// Packets not recorded, per stream (payloads with no JSON form).
    public private(set) var skipped: [String: Int] = [:]
    /// Packets recorded, per stream.
    public private(set) var recorded: [String: Int] = [:]

    public init(path: String) throws {
        writer = try MCAPWriter(path: path)
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    }

    /// Records one packet.
    public func record(_ packet: AnyPacket) throws {
        if let pending = pendingLandmarks, pending.stream != packet.stream || pending.time != packet.timestamp || !(packet.payload is Landmark) {
            try flushLandmarks()
        }
        let topic = "/" + packet.stream
        let time = packet.timestamp
        switch packet.payload {
        case let frame as CameraFrame:
            let jpeg = try ImageEncoder.jpegData(frame.image, quality: imageQuality, name: "\(packet.stream) at \(time.nanoseconds) ns")
            try write(Foxglove.CompressedImage(timestamp: .init(time), frame_id: frame.cameraID, data: jpeg.base64EncodedString(), format: "jpeg"),
                      schema: "foxglove.CompressedImage", topic: topic, time: time, stream: packet.stream)
        case let pose as Pose:
            let p = Foxglove.Pose(pose.worldFromBody)
            try write(Foxglove.PoseInFrame(timestamp: .init(time), frame_id: "world", pose: p), schema: "foxglove.PoseInFrame", topic: topic, time: time, stream: packet.stream)
            try write(Foxglove.FrameTransform(timestamp: .init(time), parent_frame_id: "world", child_frame_id: packet.stream, translation: p.position, rotation: p.orientation),
                      schema: "foxglove.FrameTransform", topic: "/tf/" + packet.stream, time: time, stream: nil)
        case let tracks as FeatureTracks:
            // Young tracks yellow, old ones (≥ 20 frames) blue.
            let points = tracks.features.map { f -> (Foxglove.Point2, Foxglove.Color) in
                let a = min(1, Double(f.age) / 20)
                return (Foxglove.Point2(x: f.pixel.x, y: f.pixel.y), Foxglove.Color(r: 1 - a, g: 1 - 0.5 * a, b: a, a: 1))
            }
            let annotation = Foxglove.PointsAnnotation(timestamp: .init(time), type: 1, points: points.map(\.0), outline_color: .init(r: 1, g: 1, b: 0, a: 1),
                                                       outline_colors: points.map(\.1), fill_color: .init(r: 0, g: 0, b: 0, a: 0), thickness: 4)
            try write(Foxglove.ImageAnnotations(points: [annotation]), schema: "foxglove.ImageAnnotations", topic: topic, time: time, stream: packet.stream)
        case let objects as TrackedObjects:
            let boxes = objects.objects.map { Foxglove.PointsAnnotation.box($0.box, time: time, color: .init(r: 0.2, g: 1, b: 0.2, a: 1)) }
            try write(Foxglove.ImageAnnotations(points: boxes), schema: "foxglove.ImageAnnotations", topic: topic, time: time, stream: packet.stream)
        case let faces as DetectedFaces:
            var shapes: [Foxglove.PointsAnnotation] = []
            for face in faces.faces {
                shapes.append(.box(face.box, time: time, color: .init(r: 1, g: 0.4, b: 0.2, a: 1)))
                let points = face.landmarks.points.filter { $0.x.isFinite && $0.y.isFinite }.map { Foxglove.Point2(x: $0.x, y: $0.y) }
                shapes.append(Foxglove.PointsAnnotation(timestamp: .init(time), type: 1, points: points, outline_color: .init(r: 1, g: 0.4, b: 0.2, a: 1),
                                                        outline_colors: [], fill_color: .init(r: 0, g: 0, b: 0, a: 0), thickness: 3))
            }
            try write(Foxglove.ImageAnnotations(points: shapes), schema: "foxglove.ImageAnnotations", topic: topic, time: time, stream: packet.stream)
        case let landmark as Landmark:
            if pendingLandmarks == nil { pendingLandmarks = (packet.stream, time, []) }
            pendingLandmarks?.points.append(landmark.position)
        case let cloud as PointCloud:
            try write(Foxglove.PointCloud(timestamp: .init(time), frame_id: cloud.camera, points: cloud.points.map { Vector3(Double($0.x), Double($0.y), Double($0.z)) }),
                      schema: "foxglove.PointCloud", topic: topic, time: time, stream: packet.stream)
        case let value as any Encodable:
            let name = "parallax." + String(describing: type(of: value))
            let schema = try schemaID(name, Data(#"{"type":"object","title":"\#(name)","description":"A Parallax payload as its JSON (docs/outputs.md)"}"#.utf8))
            let channel = try channelID(topic, schema: schema)
            try writer.write(channel: channel, time: UInt64(clamping: time.nanoseconds), data: try encoder.encode(value))
            recorded[packet.stream, default: 0] += 1
        default:
            skipped[packet.stream, default: 0] += 1
        }
    }

    /// Writes what is pending and finishes the file.
    public func finish() throws {
        try flushLandmarks()
        try writer.finish()
    }

    private func flushLandmarks() throws {
        guard let pending = pendingLandmarks else { return }
        pendingLandmarks = nil
        try write(Foxglove.PointCloud(timestamp: .init(pending.time), frame_id: "world", points: pending.points), schema: "foxglove.PointCloud",
                  topic: "/" + pending.stream, time: pending.time, stream: pending.stream)
    }

    private func write<M: Encodable>(_ message: M, schema: String, topic: String, time: Timestamp, stream: String?) throws {
        let channel = try channelID(topic, schema: try schemaID(schema, Foxglove.jsonSchema(schema)))
        try writer.write(channel: channel, time: UInt64(clamping: time.nanoseconds), data: try encoder.encode(message))
        if let stream { recorded[stream, default: 0] += 1 }
    }

    private func schemaID(_ name: String, _ data: @autoclosure () -> Data) throws -> UInt16 {
        if let id = schemaIDs[name] { return id }
        let id = try writer.addSchema(name: name, encoding: "jsonschema", data: data())
        schemaIDs[name] = id
        return id
    }

    private func channelID(_ topic: String, schema: UInt16) throws -> UInt16 {
        if let id = channelIDs[topic] { return id }
        let id = try writer.addChannel(topic: topic, schema: schema, messageEncoding: "json")
        channelIDs[topic] = id
        return id
    }
}
