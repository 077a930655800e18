import Foundation
import Testing
import ParallaxCore
import ParallaxMath
@testable import ParallaxDatasets

@Suite struct StreamFileWriterTests {
    @Test func aPoseStreamRoundTripsThroughItsTUMFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-writers-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = try #require(try OutputWriterRegistry.standard.writer(for: StreamDescription(StreamKey<Pose>("vio/pose")), in: folder))
        var rng = SystemRandomNumberGenerator()
        var expected: [(Timestamp, SE3)] = []
        for k in 0..<50 {
            let t = Timestamp(nanoseconds: 1_403_715_273_262_142_976 + Int64(k) * 50_000_001)
            let pose = SE3(rotation: .exp(Vector3(Double.random(in: -2...2, using: &rng), Double.random(in: -2...2, using: &rng), 0.3)),
                           translation: Vector3(Double.random(in: -100...100, using: &rng), 1e-7 * Double(k), -3))
            try writer.write(AnyPacket(stream: "vio/pose", timestamp: t, payload: Pose(worldFromBody: pose, trackingState: .limited(.initializing))))
            expected.append((t, pose))
        }
        // A pose with a NaN is skipped and counted, never written.
        try writer.write(AnyPacket(stream: "vio/pose", timestamp: Timestamp(nanoseconds: 1_403_715_283_000_000_000),
                                   payload: Pose(worldFromBody: SE3(translation: Vector3(.nan, 0, 0)))))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("vio/pose.tum").path))  // still .partial
        let path = try writer.finish()
        #expect(path == folder.appendingPathComponent("vio/pose.tum").path)
        #expect((writer as? TUMTrajectoryWriter)?.skipped == 1)
        let back = try TrajectoryFile.read(path: path, format: .tum)
        #expect(back.poses.count == expected.count)
        for (p, (t, pose)) in zip(back.poses, expected) {
            #expect(p.timestamp == t)  // exact nanoseconds
            #expect((p.pose.translation - pose.translation).norm == 0)
            #expect((p.pose.rotation.inverse * pose.rotation).angle < 1e-15)
        }
    }

    @Test func streamNamesNeverLeaveTheOutputFolder() throws {
        let folder = URL(fileURLWithPath: "/tmp/parallax-out-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try OutputWriterRegistry.outputPath(for: "../../etc/pose", extension: "tum", in: folder) == folder.path + "/_/_/etc/pose.tum")
        #expect(try OutputWriterRegistry.outputPath(for: "/abs", extension: "tum", in: folder) == folder.path + "/_/abs.tum")
        #expect(try OutputWriterRegistry.outputPath(for: "vio/pose", extension: "tum", in: folder) == folder.path + "/vio/pose.tum")
    }

    @Test func posesAndTheirPartsEncodeAsReadableJSON() throws {
        let pose = Pose(worldFromBody: SE3(rotation: .exp(Vector3(0.1, 0.2, 0.3)), translation: Vector3(1, 2, 3)), velocity: Vector3(0.5, 0, 0),
                        covariance: Matrix.identity(6), trackingState: .limited(.insufficientFeatures))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(pose), as: UTF8.self)
        #expect(text.contains("\"trackingState\":\"limited(insufficientFeatures)\""))
        #expect(text.contains("\"translation\":[1,2,3]"))
        #expect(text.contains("\"rotation\":{\"w\":"))
        let back = try JSONDecoder().decode(Pose.self, from: Data(text.utf8))
        #expect(back.covariance == pose.covariance && back.velocity == pose.velocity && back.trackingState == pose.trackingState)
        #expect((back.worldFromBody.rotation.inverse * pose.worldFromBody.rotation).angle < 1e-15)
        for state in [TrackingState.normal, .notAvailable] + TrackingState.Reason.allCases.map(TrackingState.limited) {
            #expect(TrackingState(state.description) == state)
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SO3.self, from: Data(#"{"w":0,"x":0,"y":0,"z":0}"#.utf8)) }
    }
}
