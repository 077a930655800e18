import Foundation
import ParallaxBus
import ParallaxPayloads
/// A schema of messages in an MCAP recording: its name (`foxglove.PointCloud`, `myplugin.Heat`)
/// and its JSON Schema.
public struct RecordedSchema: Sendable, Equatable {
    public var name: String
    public var jsonSchema: Data
    public init(name: String, jsonSchema: Data) {
        self.name = name
        self.jsonSchema = jsonSchema
    }
    /// One of Foxglove's well-known schemas by name (`foxglove.ImageAnnotations`, …), with the
    /// JSON Schema ``FoxgloveRecorder`` registers for it.
    /// Built once per name: recorders ask for one per message.
    public static func foxglove(_ name: String) -> RecordedSchema {
        wellKnown[name] ?? RecordedSchema(name: name, jsonSchema: Foxglove.jsonSchema(name))
    }

    private static let wellKnown: [String: RecordedSchema] = Dictionary(uniqueKeysWithValues:
        ["foxglove.CompressedImage", "foxglove.PoseInFrame", "foxglove.FrameTransform", "foxglove.ImageAnnotations", "foxglove.PointCloud"]
            .map { ($0, RecordedSchema(name: $0, jsonSchema: Foxglove.jsonSchema($0))) })
}

/// One message a payload records: on a topic (`/cam0`, `/tf/vio/pose`), under a schema, as JSON.
public struct RecordedMessage {
    public var topic: String
    public var schema: RecordedSchema
    /// The message, encoded as JSON (sorted keys, no escaped slashes, non-finite numbers as
    /// strings) into the file.
    public var message: any Encodable
    /// Whether it counts as a recorded packet of the stream (a helper topic such as `/tf/…`
    /// does not).
    public var countsForStream: Bool
    public init(topic: String, schema: RecordedSchema, message: any Encodable, countsForStream: Bool = true) {
        self.topic = topic
        self.schema = schema
        self.message = message
        self.countsForStream = countsForStream
    }
}

/// How recordings are made (the recorder's settings a payload's encoding may use).
public struct MCAPRecordingOptions: Sendable {
    /// JPEG quality of recorded images (1…100).
    public var imageQuality: Int
    public init(imageQuality: Int = 90) { self.imageQuality = imageQuality }
}

/// A payload with its own encoding in an MCAP recording (``FoxgloveRecorder``): the capability
/// the recorder asks every packet for. Without it an `Encodable` payload is recorded as its own
/// JSON under the schema `parallax.<Type>`, and anything else is counted as skipped. A plugin's
/// payload conforms the same way a built-in one does.
public protocol MCAPRecordable {
    /// The messages of `batch`: consecutive packets of this type on `stream` at `time`, in order
    /// (one packet, mostly: a batch lets several make one message, as a time's landmarks make one
    /// cloud).
    static func mcapMessages(_ batch: [Self], stream: String, time: Timestamp, options: MCAPRecordingOptions) throws -> [RecordedMessage]

    /// Whether consecutive packets of one stream and time are recorded together (default false:
    /// each packet is recorded when it comes).
    static var recordsInBatches: Bool { get }
}

extension MCAPRecordable {
    public static var recordsInBatches: Bool { false }

    /// ``mcapMessages(_:stream:time:options:)`` of the members of `batch` that are of this type.
    static func mcapMessages(ofBatch batch: [any MCAPRecordable], stream: String, time: Timestamp, options: MCAPRecordingOptions) throws -> [RecordedMessage] {
        try mcapMessages(batch.compactMap { $0 as? Self }, stream: stream, time: time, options: options)
    }
}
