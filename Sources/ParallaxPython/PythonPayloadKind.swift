import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath

/// The payload types a Python analyzer can read and write, by the names the worker protocol
/// uses (`parallax.CAMERA` is `camera`): how each travels to the worker (images through
/// ``SharedImageMemory``, the rest as JSON) and back.
enum PythonPayloadKind: String, Sendable, CaseIterable {
    case camera, imu, depth, pose, number, json, tracks, boxes, landmark, matches, any

    /// The Swift payload type on the bus.
    var payloadType: PayloadType {
        switch self {
        case .camera: return PayloadType(CameraFrame.self)
        case .imu: return PayloadType(IMUSample.self)
        case .depth: return PayloadType(DepthMap.self)
        case .pose: return PayloadType(Pose.self)
        case .number: return PayloadType(Double.self)
        case .json: return PayloadType(JSONValue.self)
        case .tracks: return PayloadType(FeatureTracks.self)
        case .boxes: return PayloadType(TrackedObjects.self)
        case .landmark: return PayloadType(Landmark.self)
        case .matches: return PayloadType(FeatureMatches.self)
        case .any: return PortDescription.anyPayload
        }
    }

    /// The packets `port` (declared stream `stream`) holds in this call: the trigger, the
    /// joined packet, or those between triggers, each as (timestamp, payload).
    func packets(_ input: AnalyzerInput, stream: String, policy: SyncPolicy) -> [(Timestamp, any Sendable)] {
        switch self {
        case .camera: return Self.packets(CameraFrame.self, input, stream, policy)
        case .imu: return Self.packets(IMUSample.self, input, stream, policy)
        case .depth: return Self.packets(DepthMap.self, input, stream, policy)
        case .pose: return Self.packets(Pose.self, input, stream, policy)
        case .number: return Self.packets(Double.self, input, stream, policy)
        case .json: return Self.packets(JSONValue.self, input, stream, policy)
        case .tracks: return Self.packets(FeatureTracks.self, input, stream, policy)
        case .boxes: return Self.packets(TrackedObjects.self, input, stream, policy)
        case .landmark: return Self.packets(Landmark.self, input, stream, policy)
        case .matches: return Self.packets(FeatureMatches.self, input, stream, policy)
        case .any:
            switch policy {
            case .each: return input.triggerStream == stream ? [(input.timestamp, 0 as Int)] : []
            case .between: return input.betweenTimestamps(stream).map { ($0, 0 as Int) }
            case .latest, .nearest: return input.joinedTimestamp(stream).map { [($0, 0 as Int)] } ?? []
            }
        }
    }

    private static func packets<P: Sendable>(_: P.Type, _ input: AnalyzerInput, _ stream: String, _ policy: SyncPolicy) -> [(Timestamp, any Sendable)] {
        let port = InputPort<P>.each(stream)
        switch policy {
        case .each: return input[port].map { [($0.timestamp, $0.payload)] } ?? []
        case .latest, .nearest: return input.latest(port).map { [($0.timestamp, $0.payload)] } ?? []
        case .between: return input.between(port).map { ($0.timestamp, $0.payload) }
        }
    }

    /// One packet as the JSON object the worker reads (`{"t": ns, …}`), its images written to
    /// `memory` at `cursor` (advanced, 64-byte aligned).
    func encode(_ timestamp: Timestamp, _ payload: any Sendable, memory: SharedImageMemory, cursor: inout Int) throws -> String {
        var fields = ["\"t\":\(timestamp.nanoseconds)"]
        func image<Pixel>(_ buffer: ImageBuffer<Pixel>, dtype: String) throws {
            let bytes = buffer.width * buffer.height * buffer.channels * MemoryLayout<Pixel>.stride
            let offset = cursor
            try memory.reserve(offset + bytes)
            try buffer.withUnsafeSamples { samples in try memory.write(UnsafeRawBufferPointer(samples), at: offset) }
            cursor = (offset + bytes + 63) / 64 * 64
            let shape = buffer.channels == 1 ? "[\(buffer.height),\(buffer.width)]" : "[\(buffer.height),\(buffer.width),\(buffer.channels)]"
            fields.append("\"shm\":[\(offset),\(bytes)],\"shape\":\(shape),\"dtype\":\"\(dtype)\"")
        }
        switch (self, payload) {
        case let (.camera, frame as CameraFrame):
            try image(frame.image, dtype: "uint8")
            if let e = frame.exposure { fields.append("\"exposure\":\(JSONText.number(e))") }
        case let (.depth, depth as DepthMap):
            try image(depth.values, dtype: "float32")
            fields.append("\"kind\":\(JSONText.quoted(depth.kind.rawValue))")
        case let (.imu, s as IMUSample):
            fields.append("\"gyro\":\(JSONText.numbers([s.gyroscope.x, s.gyroscope.y, s.gyroscope.z]))")
            fields.append("\"accel\":\(JSONText.numbers([s.accelerometer.x, s.accelerometer.y, s.accelerometer.z]))")
        case let (.pose, p as Pose):
            let m = p.worldFromBody.matrix
            fields.append("\"matrix\":\(JSONText.numbers((0..<4).flatMap { i in (0..<4).map { j in m[i, j] } }))")
            if let c = p.covariance, c.rows == 6, c.columns == 6 {
                fields.append("\"covariance\":\(JSONText.numbers((0..<6).flatMap { i in (0..<6).map { j in c[i, j] } }))")
            }
            fields.append("\"state\":\(JSONText.quoted(p.trackingState.description))")
        case let (.number, d as Double):
            fields.append("\"value\":\(JSONText.number(d))")
        case let (.json, v as JSONValue):
            fields.append("\"value\":\(v.jsonText)")
        case (.any, _):
            break
        case let (_, codable as any Encodable):
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
            fields.append("\"value\":" + String(decoding: try encoder.encode(codable), as: UTF8.self))
        default:
            throw PythonWorkerError.protocolViolation("a \(type(of: payload)) payload on a port of type \(rawValue)")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}
