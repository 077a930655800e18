import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxFiles
import ParallaxCodecs
@testable import ParallaxDatasets
import ParallaxOutputs
import TestSupport

@Suite struct ParallaxFolderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func all(_ source: any PacketSource) throws -> [AnyPacket] {
        var out: [AnyPacket] = []
        while let p = try source.next() { out.append(p) }
        return out
    }

    /// Packets equal in stream, timestamp and payload (images byte for byte, samples bit for bit).
    func same(_ a: AnyPacket, _ b: AnyPacket) -> Bool {
        guard a.stream == b.stream, a.timestamp == b.timestamp else { return false }
        switch (a.payload, b.payload) {
        case let (x as CameraFrame, y as CameraFrame):
            return x.image == y.image && x.cameraID == y.cameraID
        case let (x as IMUSample, y as IMUSample):
            return x == y
        case let (x as DepthMap, y as DepthMap):
            return x.kind == y.kind && zip(x.values.samples, y.values.samples).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
        default:
            return false
        }
    }

    /// Calibrations equal: the model exactly, `T_BS` to rounding (it is re-orthonormalized on load).
    func same(_ a: CameraCalibration?, _ b: CameraCalibration?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.model == b.model && a.rateHz == b.rateHz
            && (a.bodyFromSensor.translation - b.bodyFromSensor.translation).norm < 1e-15
            && (a.bodyFromSensor.rotation.inverse * b.bodyFromSensor.rotation).angle < 1e-12
    }

    /// Stream metadata equal (calibrations as above, IMU and depth descriptions exactly).
    func same(_ a: StreamDescription, _ b: StreamDescription) -> Bool {
        a.name == b.name && a.type == b.type && same(a.metadata.camera, b.metadata.camera) && a.metadata.imu == b.metadata.imu
            && a.metadata.stereo?.stream == b.metadata.stereo?.stream && a.metadata.depth?.kind == b.metadata.depth?.kind
    }

    func roundTrip(_ dataset: String) throws -> (original: [AnyPacket], back: [AnyPacket], folder: URL) {
        let source = try DatasetFolder.open(dataset)
        // Ground truth travels whole (groundtruth.csv), not as packets.
        let original = try all(source).filter { $0.stream != DatasetStreams.groundTruth }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-folder-\(UUID())")
        try ParallaxFolderWriter.write(original, streams: source.streams, groundTruth: source.groundTruth, to: folder.path)
        let copy = try DatasetFolder.open(folder.path)
        let back = try all(copy).filter { $0.stream != DatasetStreams.groundTruth }
        #expect(copy.groundTruth?.poses.map(\.timestamp) == source.groundTruth?.poses.map(\.timestamp))
        let streams = source.streams
        #expect(streams.count == copy.streams.count)
        for (a, b) in zip(streams, copy.streams) { #expect(same(a, b), "metadata of \(a.name) differs") }
        return (original, back, folder)
    }

    @Test func euRoCToParallaxAndBackGivesIdenticalPackets() throws {
        let (original, back, folder) = try roundTrip(Self.root.appendingPathComponent("datasets/euroc_v1_01_cut").path)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(original.count == 73 && back.count == 73)
        for (a, b) in zip(original, back) { #expect(same(a, b), "packet on \(a.stream) at \(a.timestamp) differs") }
        let source = try ParallaxFolderSource(path: folder.path)
        #expect(source.streams.first { $0.name == "cam0" }?.metadata.camera?.model.intrinsics.fx == 458.654)
        #expect(source.streams.first { $0.name == "imu0" }?.metadata.imu?.rateHz == 200)
    }

    @Test func tumDepthRoundTripsExactly() throws {
        let (original, back, folder) = try roundTrip(Self.root.appendingPathComponent("datasets/tum_rgbd_frame").path)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(original.count == 2 && back.count == 2)
        for (a, b) in zip(original, back) { #expect(same(a, b), "packet on \(a.stream) differs") }
    }

    @Test func euRoCWriterRoundTripsTheEuRoCCut() throws {
        let input = try DatasetFolder.open(Self.root.appendingPathComponent("datasets/euroc_v1_01_cut").path)
        let original = try all(input).filter { $0.stream != DatasetStreams.groundTruth }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-euroc-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = try EuRoCFolderWriter(path: folder.path)
        for s in input.streams { writer.declare(s) }
        let imu = IMUCalibration(rateHz: 200, noise: IMUNoiseModel(gyroscopeNoiseDensity: 1e-4, gyroscopeRandomWalk: 1e-5, accelerometerNoiseDensity: 1e-3, accelerometerRandomWalk: 1e-3))
        writer.declare(StreamDescription(StreamKey<IMUSample>("imu0"), metadata: StreamMetadata(imu: imu)))
        for p in original { try writer.write(p) }
        let gt = Trajectory(poses: [StampedPose(time: 1, timestamp: Timestamp(nanoseconds: 1_403_715_273_262_142_976), pose: .identity),
                                    StampedPose(time: 2, timestamp: Timestamp(nanoseconds: 1_403_715_273_512_143_104), pose: SE3(translation: Vector3(1, 2, 3)))])
        try writer.finish(groundTruth: gt)
        let source = try EuRoCSource(path: folder.path)
        let back = try all(source).filter { $0.stream != "groundtruth" }
        #expect(back.count == original.count)
        for (a, b) in zip(original, back) { #expect(same(a, b), "packet on \(a.stream) at \(a.timestamp) differs") }
        #expect(source.groundTruth?.poses.map(\.timestamp) == gt.poses.map(\.timestamp))
        #expect(try EuRoCSensorFile.loadIMU(path: folder.appendingPathComponent("mav0/imu0/sensor.yaml").path).noise.gyroscopeRandomWalk == 1e-5)
        #expect(throws: ParallaxFolderWriter.WriterError.self) {
            try writer.write(AnyPacket(stream: "depth0", timestamp: Timestamp(nanoseconds: 5), payload: DepthMap(sensorID: "d", kind: .depth, values: ImageBuffer(width: 1, height: 1, repeating: 1))))
        }
    }

    /// Float32 depth: a PFM holds the values themselves (here 1/m, the stream's kind); PFM's
    /// inf is an invalid pixel.
    @Test func float32DepthFromPFMFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-pfm-\(UUID())")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("depth0/data"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "format: parallax-dataset\nversion: 1\nstreams:\n  - name: depth0\n    type: depth\n    kind: disparity\n".write(
            to: folder.appendingPathComponent("parallax.yaml"), atomically: true, encoding: .utf8)
        try "#timestamp [ns],filename\n1000,1000.pfm\n".write(to: folder.appendingPathComponent("depth0/data.csv"), atomically: true, encoding: .utf8)
        try DenseFiles.writePFM(ImageBuffer(width: 3, height: 2, samples: [0.5, 0.25, .infinity, 1, 2, 0.125]),
                                path: folder.appendingPathComponent("depth0/data/1000.pfm").path)
        let source = try ParallaxFolderSource(path: folder.path)
        let map = try #require(try source.next()?.payload as? DepthMap)
        #expect(map.kind == .disparity && map.values[0, 0] == 0.5 && map.values[2, 1] == 0.125 && map.values[2, 0].isNaN)
        #expect(map.depth(x: 1, y: 0) == 4)
    }

    /// A depth stream's `range: [near, far]` (m) is its sensor's, read into the metadata and
    /// written back by the folder writer; a range that is not two increasing metres is refused at
    /// its line.
    @Test func aDepthStreamsRangeIsItsSensorsAndRoundTrips() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-range-\(UUID())")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("depth0/data"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func describe(_ range: String) throws {
            try "format: parallax-dataset\nversion: 1\nstreams:\n  - name: depth0\n    type: depth\n    range: \(range)\n".write(
                to: folder.appendingPathComponent("parallax.yaml"), atomically: true, encoding: .utf8)
        }
        try "#timestamp [ns],filename\n1000,1000.pfm\n".write(to: folder.appendingPathComponent("depth0/data.csv"), atomically: true, encoding: .utf8)
        try DenseFiles.writePFM(ImageBuffer(width: 2, height: 1, samples: [1.5, 2]), path: folder.appendingPathComponent("depth0/data/1000.pfm").path)
        try describe("[0.3, 8]")
        let source = try ParallaxFolderSource(path: folder.path)
        #expect(source.streams.first?.metadata.depth?.range == 0.3...8)
        let copy = folder.appendingPathComponent("copy")
        var packets: [AnyPacket] = []
        while let p = try source.next() { packets.append(p) }
        try ParallaxFolderWriter.write(packets, streams: source.streams, to: copy.path)
        #expect(try ParallaxFolderSource(path: copy.path).streams.first?.metadata.depth?.range == 0.3...8)
        for bad in ["[8, 0.3]", "[1]", "[-1, 2]", "[0, .inf]"] {
            try describe(bad)
            #expect(throws: (any Error).self, "\(bad)") { _ = try ParallaxFolderSource(path: folder.path) }
        }
        try describe("[8, 0.3]")
        #expect { _ = try ParallaxFolderSource(path: folder.path) } throws: {
            "\($0)".contains("parallax.yaml:6:") && "\($0)".contains("range must be [near, far] in metres with 0 ≤ near < far, got [8.0, 0.3]")
        }
    }

    /// A stream may not take a name the folder keeps for itself: it would overwrite the folder's
    /// description or be read back as its ground truth. Nothing is written for it.
    @Test func streamsCannotTakeTheFoldersOwnNames() throws {
        for name in ["parallax.yaml", "Parallax.yaml/x", "groundtruth", "groundtruth.csv", ".parallax-output"] {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-folder-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let writer = try ParallaxFolderWriter(path: folder.path)
            let sample = IMUSample(gyroscope: Vector3(0, 0, 0), accelerometer: Vector3(0, 0, 9.81))
            #expect(throws: OutputPath.RefusedError.self, "\(name)") { try writer.write(AnyPacket(stream: name, timestamp: Timestamp(nanoseconds: 1), payload: sample)) }
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
        }
    }

    @Test func badParallaxYAMLNamesTheLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-badyaml-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "format: parallax-dataset\nversion: 1\nstreams:\n  - name: cam0\n    type: lidar\n".write(to: folder.appendingPathComponent("parallax.yaml"), atomically: true, encoding: .utf8)
        #expect { _ = try ParallaxFolderSource(path: folder.path) } throws: { error in
            "\(error)".contains("parallax.yaml:5:") && "\(error)".hasSuffix("streams['cam0']: unknown stream type 'lidar' (camera, imu, depth, accelerometer, face_landmarks, face_anchor, box)")
        }
        // A depth kind it does not know is an error, not silently read as metric depth.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("depth0"), withIntermediateDirectories: true)
        try "".write(to: folder.appendingPathComponent("depth0/data.csv"), atomically: true, encoding: .utf8)
        try "format: parallax-dataset\nversion: 1\nstreams:\n  - name: depth0\n    type: depth\n    kind: distance\n".write(
            to: folder.appendingPathComponent("parallax.yaml"), atomically: true, encoding: .utf8)
        #expect { _ = try ParallaxFolderSource(path: folder.path) } throws: { error in
            "\(error)".contains("parallax.yaml:6:") && "\(error)".contains("unknown depth kind 'distance' (depth, disparity, pixelDisparity)")
        }
    }

    @Test func aMisspeltKeyInParallaxYAMLIsAnErrorWithADidYouMean() throws {
        let folder = try TemporaryFolder.make("parallax-yaml-typo")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("cam0"), withIntermediateDirectories: true)
        try "".write(to: folder.appendingPathComponent("cam0/data.csv"), atomically: true, encoding: .utf8)
        try "format: parallax-dataset\nversion: 1\nstreams:\n  - name: cam0\n    type: camera\n    calibraton: cam0/sensor.yaml\n"
            .write(to: folder.appendingPathComponent("parallax.yaml"), atomically: true, encoding: .utf8)
        #expect { _ = try ParallaxFolderSource(path: folder.path) } throws: { error in
            "\(error)".contains("parallax.yaml:6:5: streams['cam0']: unknown key 'calibraton'; did you mean 'calibration'?") && error is any BadInput
        }
        try "format: parallax-dataset\nversion: 9\nstreams: []\n".write(to: folder.appendingPathComponent("parallax.yaml"), atomically: true, encoding: .utf8)
        #expect { _ = try ParallaxFolderSource(path: folder.path) } throws: { "\($0)".contains("parallax.yaml:2:") && "\($0)".contains("unsupported version") }
    }
}
