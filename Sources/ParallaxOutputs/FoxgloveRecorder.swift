import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
import ParallaxCodecs

/// Records packets — a run's input streams and its analyzers' outputs — into an MCAP file for
/// Foxglove, in JSON encoding, one topic per stream (`/cam0`, `/cam0/tracks`, `/vio/pose`). Each
/// payload brings its own encoding (``MCAPRecordable``); the shared ones use Foxglove's
/// well-known schemas:
///
/// | payload | schema |
/// |---|---|
/// | ``CameraFrame`` | `foxglove.CompressedImage` (JPEG at ``imageQuality``: a view, not an archive; lossless PNG took ~85 ms a frame on the MH_01 clip, JPEG a few) |
/// | ``Pose`` (ground truth, `vio`) | `foxglove.PoseInFrame` in `world`, and `foxglove.FrameTransform` on `/tf/<stream>` (`world` → the stream) |
/// | ``FeatureTracks`` | `foxglove.ImageAnnotations`: each feature a point, coloured by its age |
/// | ``TrackedObjects``, ``DetectedFaces`` | `foxglove.ImageAnnotations`: boxes (and landmarks) |
/// | ``Landmark`` (`triangulate`) | `foxglove.PointCloud` in `world`: every landmark of one time together |
/// | ``PointCloud`` | `foxglove.PointCloud` in the cloud's camera frame |
/// | a plugin's payload | its own schema (``MCAPRecordable``) |
/// | anything else `Encodable` (``IMUSample``, …) | `parallax.<Type>` (`<Module>.<Type>` when the recording already has a schema of that name): the payload's own JSON (as `events.jsonl` writes it) |
///
/// Payloads that are neither (depth maps) are counted in ``skipped``. Same packets in the same
/// order give the same bytes.
public final class FoxgloveRecorder {
    private let writer: MCAPWriter
    /// Schema ids by name, with the JSON Schema each was written with: two payload types may
    /// name their schemas alike, and each channel must point at its own.
    private var schemaIDs: [String: [(data: Data, id: UInt16)]] = [:]
    /// The schema of each payload type recorded as its own JSON (no MCAP encoding of its own).
    private var jsonSchemas: [ObjectIdentifier: UInt16] = [:]
    private var channelIDs: [String: UInt16] = [:]
    /// Packets waiting to be recorded together (``MCAPRecordable/recordsInBatches``): one stream,
    /// one time, one type.
    private var pending: (stream: String, time: Timestamp, type: any MCAPRecordable.Type, payloads: [any MCAPRecordable])?
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
        let payloadType = type(of: packet.payload)
        if let batch = pending, batch.stream != packet.stream || batch.time != packet.timestamp || ObjectIdentifier(batch.type) != ObjectIdentifier(payloadType) {
            try flushPending()
        }
        switch packet.payload {
        case let recordable as any MCAPRecordable:
            let kind = type(of: recordable)
            if kind.recordsInBatches {
                if pending == nil { pending = (packet.stream, packet.timestamp, kind, []) }
                pending?.payloads.append(recordable)
            } else {
                try write(kind.mcapMessages(ofBatch: [recordable], stream: packet.stream, time: packet.timestamp, options: options), time: packet.timestamp, stream: packet.stream)
            }
        case let value as any Encodable:
            let schema = try jsonSchemaID(type(of: value))
            let channel = try channelID("/" + packet.stream, schema: schema)
            try writer.write(channel: channel, time: UInt64(clamping: packet.timestamp.nanoseconds), data: try encoder.encode(value))
            recorded[packet.stream, default: 0] += 1
        default:
            skipped[packet.stream, default: 0] += 1
        }
    }

    /// Writes what is pending and finishes the file; with `commit` false (an interrupted run) it
    /// stays under ``stagedPath`` (``MCAPWriter/finish(commit:)``).
    public func finish(commit: Bool = true) throws {
        try flushPending()
        try writer.finish(commit: commit)
    }

    /// Where the recording is written until it is finished and moved to its name.
    public var stagedPath: String { writer.stagedPath }

    private var options: MCAPRecordingOptions { MCAPRecordingOptions(imageQuality: imageQuality) }

    private func flushPending() throws {
        guard let batch = pending else { return }
        pending = nil
        try write(batch.type.mcapMessages(ofBatch: batch.payloads, stream: batch.stream, time: batch.time, options: options), time: batch.time, stream: batch.stream)
    }

    private func write(_ messages: [RecordedMessage], time: Timestamp, stream: String) throws {
        for m in messages {
            let channel = try channelID(m.topic, schema: try schemaID(m.schema.name, m.schema.jsonSchema))
            try writer.write(channel: channel, time: UInt64(clamping: time.nanoseconds), data: try encoder.encode(m.message))
            if m.countsForStream { recorded[stream, default: 0] += 1 }
        }
    }

    private func schemaID(_ name: String, _ data: Data) throws -> UInt16 {
        if let id = schemaIDs[name]?.first(where: { $0.data == data })?.id { return id }
        let id = try writer.addSchema(name: name, encoding: "jsonschema", data: data)
        schemaIDs[name, default: []].append((data, id))
        return id
    }

    /// The schema of a payload type recorded as its JSON: `parallax.<Type>`, or `<Module>.<Type>`
    /// when another schema of the recording already has that name (a plugin's type named like a
    /// built-in one).
    private func jsonSchemaID(_ type: any Any.Type) throws -> UInt16 {
        if let id = jsonSchemas[ObjectIdentifier(type)] { return id }
        var name = "parallax." + String(describing: type)
        if schemaIDs[name] != nil { name = String(reflecting: type) }
        let id = try schemaID(name, Data(#"{"type":"object","title":"\#(name)","description":"A Parallax payload as its JSON (docs/outputs.md)"}"#.utf8))
        jsonSchemas[ObjectIdentifier(type)] = id
        return id
    }

    private func channelID(_ topic: String, schema: UInt16) throws -> UInt16 {
        if let id = channelIDs[topic] { return id }
        let id = try writer.addChannel(topic: topic, schema: schema, messageEncoding: "json")
        channelIDs[topic] = id
        return id
    }
}
