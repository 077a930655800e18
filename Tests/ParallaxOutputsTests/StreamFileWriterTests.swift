import Foundation
import Testing
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
import ParallaxFiles
import ParallaxCodecs
@testable import ParallaxOutputs

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
            try writer.write(AnyPacket(stream: "vio/pose", timestamp: t, payload: Pose(worldFromBody: pose, trackingState: .limited(.insufficientFeatures))))
            expected.append((t, pose))
            // A pose without an estimate behind it (initializing, lost) is not written.
            try writer.write(AnyPacket(stream: "vio/pose", timestamp: Timestamp(nanoseconds: t.nanoseconds + 1),
                                       payload: Pose(worldFromBody: .identity, trackingState: k % 2 == 0 ? .limited(.initializing) : .notAvailable)))
        }
        // A pose with a NaN is skipped and counted, never written.
        try writer.write(AnyPacket(stream: "vio/pose", timestamp: Timestamp(nanoseconds: 1_403_715_283_000_000_000),
                                   payload: Pose(worldFromBody: SE3(translation: Vector3(.nan, 0, 0)))))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("vio/pose.tum").path))  // still .partial
        let path = try writer.finish()
        #expect(path == folder.appendingPathComponent("vio/pose.tum").path)
        #expect((writer as? TUMTrajectoryWriter)?.skipped == 1)
        // The run report says how many were left out for want of an estimate (run.json's notes).
        #expect(writer.notes == ["50 pose(s) written to pose.tum; 50 without an estimate (initializing, relocalizing or not available) left out"])
        // After each reset (`notAvailable`, every other pose) the next pose written is marked as
        // the start of a new world frame, a comment TUM readers skip: 24 of them (the last
        // reset has no pose after it).
        #expect(TrajectoryFile.restarts(path: path) == 24)
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

    @Test func trackedObjectsBecomeOTBFilesAndImageOutputsPNGs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-otb-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = try #require(try OutputWriterRegistry.standard.writer(for: StreamDescription(StreamKey<TrackedObjects>("objects")), in: folder))
        let a = TrackedObject(id: 1, box: BoundingBox(x: 9.5, y: 19.5, width: 30, height: 40), confidence: 0.9)
        let b = TrackedObject(id: 2, box: BoundingBox(x: 0, y: 0, width: 5, height: 5), confidence: 0.2, state: .notAvailable)
        for (k, objects) in [[a], [a, b], [b]].enumerated() {
            try writer.write(AnyPacket(stream: "objects", timestamp: Timestamp(nanoseconds: Int64(k) * 100), payload: TrackedObjects(imageWidth: 64, imageHeight: 48, objects: objects)))
        }
        try writer.finish()
        let one = try String(contentsOf: folder.appendingPathComponent("objects/1.txt"), encoding: .utf8)
        #expect(one == "11.0,21.0,30.0,40.0\n11.0,21.0,30.0,40.0\n0,0,0,0\n")   // absent in the last frame
        let two = try String(contentsOf: folder.appendingPathComponent("objects/2.txt"), encoding: .utf8)
        #expect(two == "0,0,0,0\n0,0,0,0\n0,0,0,0\n")                       // lost throughout
        #expect(try String(contentsOf: folder.appendingPathComponent("objects/frames.txt"), encoding: .utf8) == "0\n100\n200\n")

        let png = try #require(try OutputWriterRegistry.standard.writer(for: StreamDescription(StreamKey<DepthMap>("stereo/disparity")), in: folder))
        var values = ImageBuffer<Float>(width: 4, height: 2, repeating: 10)
        values[0, 0] = .nan
        values[3, 1] = 20
        try png.write(AnyPacket(stream: "stereo/disparity", timestamp: Timestamp(nanoseconds: 7), payload: DepthMap(sensorID: "d", kind: .pixelDisparity, values: values)))
        try png.finish()
        let decoded = try ImageDecoder.decode(path: folder.appendingPathComponent("stereo/disparity/7.png").path)
        guard case let .rgb8(image) = decoded else { Issue.record("expected an RGB PNG"); return }
        #expect(image.width == 4 && image.height == 2)
        #expect(Array(image.samples[0..<3]) == [0, 0, 0])   // invalid: black
        #expect(image.samples[3] != image.samples[21])      // near and far differ in colour
    }
}

extension StreamFileWriterTests {
    /// A staged text file (a pose stream's TUM file) whose name became a folder during the run is
    /// not replaced: the error keeps the staged file, the folder keeps its files.
    @Test func aStagedFileNeverReplacesAFolder() throws {
        let dir = try TemporaryFolder.make("staged")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("pose.tum").path
        let writer = try TUMTrajectoryWriter(path: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try "keep".write(toFile: path + "/notes.txt", atomically: true, encoding: .utf8)
        #expect(throws: OutputPath.CommitError.self) { try writer.finish() }
        #expect(try String(contentsOfFile: path + "/notes.txt", encoding: .utf8) == "keep")
        #expect(FileManager.default.fileExists(atPath: path + ".partial"))
        #expect(throws: OutputPath.RefusedError.self) { _ = try TUMTrajectoryWriter(path: path) }
    }

    /// Two pictures whose names make one file name never share (or overwrite) one CSV.
    @Test func imageAnchorsOfPicturesWithOneFileNameAreRefused() throws {
        let dir = try TemporaryFolder.make("anchors")
        defer { try? FileManager.default.removeItem(at: dir) }
        let writer = ImageAnchorWriter(folder: dir)
        func anchor(_ name: String) -> ImageAnchor {
            ImageAnchor(name: name, pose: SE3(), physicalWidth: 1, physicalHeight: 1, isTracked: false, confidence: 0, corners: [])
        }
        try writer.write(AnyPacket(stream: "img", timestamp: Timestamp(nanoseconds: 1), payload: ImageAnchors(anchors: [anchor("a b"), anchor("c")])))
        #expect { try writer.write(AnyPacket(stream: "img", timestamp: Timestamp(nanoseconds: 2), payload: ImageAnchors(anchors: [anchor("a_b")]))) } throws: {
            $0 is any BadInput && "\($0)".contains("'a b'") && "\($0)".contains("a_b.csv")
        }
        try writer.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["a_b.csv", "c.csv"])
        // A name that is a path stays inside the folder.
        let escape = ImageAnchorWriter(folder: dir)
        try escape.write(AnyPacket(stream: "img", timestamp: Timestamp(nanoseconds: 1), payload: ImageAnchors(anchors: [anchor("../../x")])))
        try escape.finish()
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(OutputPath.fileName("../../x") + ".csv").path))
        #expect(!FileManager.default.fileExists(atPath: dir.deletingLastPathComponent().appendingPathComponent("x.csv").path))
    }

    /// Two output streams whose names make one file (`a b` and `a_b` → `a_b.tum`) are refused
    /// before any writer is made, instead of sharing (or overwriting) one file.
    @Test func streamsThatWouldShareAFileAreRefusedBeforeAnyWriterIsMade() throws {
        let dir = try TemporaryFolder.make("writers")
        defer { try? FileManager.default.removeItem(at: dir) }
        let streams = [StreamDescription(StreamKey<Pose>("a b")), StreamDescription(StreamKey<IMUSample>("imu0")), StreamDescription(StreamKey<Pose>("a_b"))]
        #expect { _ = try OutputWriterRegistry.standard.writers(for: streams, in: dir) } throws: { error in
            error is any BadInput && "\(error)".contains("'a b'") && "\(error)".contains("a_b")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        let writers = try OutputWriterRegistry.standard.writers(for: Array(streams.prefix(2)), in: dir)
        #expect(writers.keys.sorted() == ["a b"])
    }

    /// A stream whose name makes a path deeper than the system holds (30 levels of 200 bytes, each
    /// part a valid name) is refused naming it, before any folder is made.
    @Test func aStreamNameMakingTooLongAPathIsRefusedBeforeAnyFolderIsMade() throws {
        let dir = try TemporaryFolder.make("writers-deep")
        defer { try? FileManager.default.removeItem(at: dir) }
        let deep = Array(repeating: String(repeating: "d", count: 200), count: 30).joined(separator: "/")
        #expect { _ = try OutputWriterRegistry.standard.writers(for: [StreamDescription(StreamKey<Pose>(deep))], in: dir) } throws: { error in
            error is any BadInput && "\(error)".contains("makes a path of 6029 bytes") && "\(error)".contains("ddd")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
