import Foundation
import Testing
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
@testable import ParallaxOutputs

/// A payload brings its own MCAP encoding (``MCAPRecordable``): the recorder writes it under the
/// payload's schema, batches consecutive packets when the payload asks, and falls back to the
/// payload's JSON (`parallax.<Type>`) or to counting it as skipped.
@Suite struct FoxgloveRecorderTests {
    /// A plugin's payload: a heat value, recorded under a schema of its own.
    struct Heat: Sendable, Codable, MCAPRecordable {
        var celsius: Double
        static func mcapMessages(_ batch: [Heat], stream: String, time: Timestamp, options: MCAPRecordingOptions) throws -> [RecordedMessage] {
            batch.map { RecordedMessage(topic: "/" + stream + "/heat", schema: RecordedSchema(name: "example.Heat", jsonSchema: Data(#"{"type":"object"}"#.utf8)), message: $0) }
        }
    }

    /// Batched: the readings of one time become one message with their mean.
    struct Reading: Sendable, MCAPRecordable {
        var value: Double
        static var recordsInBatches: Bool { true }
        struct Mean: Encodable { var mean: Double; var count: Int }
        static func mcapMessages(_ batch: [Reading], stream: String, time: Timestamp, options: MCAPRecordingOptions) throws -> [RecordedMessage] {
            [RecordedMessage(topic: "/" + stream, schema: RecordedSchema(name: "example.Mean", jsonSchema: Data("{}".utf8)),
                             message: Mean(mean: batch.map(\.value).reduce(0, +) / Double(batch.count), count: batch.count))]
        }
    }

    struct Opaque: Sendable {}

    @Test func aPayloadIsRecordedUnderItsOwnSchema() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-recorder-\(UUID()).mcap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try FoxgloveRecorder(path: path)
        let t1 = Timestamp(nanoseconds: 1_000), t2 = Timestamp(nanoseconds: 2_000)
        try recorder.record(AnyPacket(stream: "oven", timestamp: t1, payload: Heat(celsius: 180.5)))
        for (t, v) in [(t1, 1.0), (t1, 3.0), (t2, 10.0)] { try recorder.record(AnyPacket(stream: "probe", timestamp: t, payload: Reading(value: v))) }
        try recorder.record(AnyPacket(stream: "imu0", timestamp: t2, payload: ParallaxPayloads.IMUSample(gyroscope: Vector3(0, 0, 1), accelerometer: Vector3(0, 0, 9.81))))
        try recorder.record(AnyPacket(stream: "blob", timestamp: t2, payload: Opaque()))
        try recorder.finish()
        #expect(recorder.recorded == ["oven": 1, "probe": 2, "imu0": 1])
        #expect(recorder.skipped == ["blob": 1])
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        // Chunks are stored uncompressed: the messages and schemas are in the bytes.
        let text = String(decoding: file, as: UTF8.self)
        for expected in ["example.Heat", "/oven/heat", #"{"celsius":180.5}"#, "example.Mean", #"{"count":2,"mean":2}"#, #"{"count":1,"mean":10}"#, "parallax.IMUSample"] {
            #expect(text.contains(expected), "\(expected)")
        }
    }

    /// A type of this test module named like the vocabulary's `IMUSample`.
    struct IMUSample: Codable, Sendable { var note: String }

    /// Two payload types named alike never share a schema: the second recorded as its JSON is
    /// named with its module, and each channel points at its own schema.
    @Test func typesNamedAlikeGetSchemasOfTheirOwn() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-recorder-\(UUID()).mcap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try FoxgloveRecorder(path: path)
        let t = Timestamp(nanoseconds: 1_000)
        try recorder.record(AnyPacket(stream: "imu0", timestamp: t, payload: ParallaxPayloads.IMUSample(gyroscope: Vector3(0, 0, 1), accelerometer: Vector3(0, 0, 9.81))))
        try recorder.record(AnyPacket(stream: "mine", timestamp: t, payload: IMUSample(note: "not an IMU")))
        try recorder.record(AnyPacket(stream: "imu1", timestamp: t, payload: ParallaxPayloads.IMUSample(gyroscope: Vector3(0, 0, 2), accelerometer: Vector3(0, 0, 9.81))))
        try recorder.finish()
        let records = try MCAPRecords.records(try Data(contentsOf: URL(fileURLWithPath: path)))
        // Schema records (op 0x03): id (u16), then the name as a u32-prefixed string.
        let schemas = records.filter { $0.op == 0x03 }.map { r -> (UInt16, String) in
            let n = Int(MCAPRecords.le(r.body, 2, UInt32.self))
            return (MCAPRecords.le(r.body, 0, UInt16.self), String(decoding: r.body.subdata(in: 6..<(6 + n)), as: UTF8.self))
        }
        let names = Dictionary(schemas, uniquingKeysWith: { a, _ in a })
        #expect(Set(names.values) == ["parallax.IMUSample", "ParallaxOutputsTests.FoxgloveRecorderTests.IMUSample"])
        // Channel records (op 0x04): id (u16), schema id (u16), then the topic.
        let channels = records.filter { $0.op == 0x04 }.map { r -> (String, UInt16) in
            let n = Int(MCAPRecords.le(r.body, 4, UInt32.self))
            return (String(decoding: r.body.subdata(in: 8..<(8 + n)), as: UTF8.self), MCAPRecords.le(r.body, 2, UInt16.self))
        }
        let schemaOf = Dictionary(channels, uniquingKeysWith: { a, _ in a })
        #expect(names[schemaOf["/imu0"] ?? 0] == "parallax.IMUSample" && schemaOf["/imu0"] == schemaOf["/imu1"])
        #expect(names[schemaOf["/mine"] ?? 0] == "ParallaxOutputsTests.FoxgloveRecorderTests.IMUSample")
    }
}
