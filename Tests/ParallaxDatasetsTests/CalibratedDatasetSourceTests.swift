import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxFiles
@testable import ParallaxDatasets
import TestSupport

/// Calibrations replaced and supplied from files: the metadata changes, the packets do not; what
/// was done is said per stream; streams that do not exist, streams of another kind and sizes that
/// do not fit are refused (at open when the dataset had a size, at the first frame otherwise).
@Suite struct CalibratedDatasetSourceTests {
    static let cut = RepositoryPaths.root.appendingPathComponent("datasets/euroc_v1_01_cut")
    static func fixture(_ name: String) -> String { RepositoryPaths.fixtures.appendingPathComponent("calibration/\(name)").path }
    static func sensor(_ name: String) -> String { cut.appendingPathComponent("mav0/\(name)/sensor.yaml").path }

    func open(_ path: String, _ overrides: [String]) throws -> any DatasetSource {
        var options = DatasetOptions()
        options.calibrations = try overrides.map { try CalibrationOverride(parsing: $0) }
        return try DatasetFolder.open(path, options: options)
    }

    func drain(_ source: any PacketSource) throws -> [AnyPacket] {
        var out: [AnyPacket] = []
        while let p = try source.next() { out.append(p) }
        return out
    }

    func refusal(_ body: () throws -> Void) -> String {
        do { try body(); Issue.record("accepted"); return "" } catch let e as CalibrationOverrideError { return e.reason } catch { Issue.record("\(error)"); return "" }
    }

    /// A Parallax folder of the cut's first `frames` cam0 and cam1 images and its IMU, without
    /// any calibration (as a bag without CameraInfo).
    static func uncalibratedFolder(frames: Int = 2) throws -> URL {
        let folder = try TemporaryFolder.make("uncalibrated")
        let fm = FileManager.default
        for cam in ["cam0", "cam1"] {
            let rows = try String(contentsOf: cut.appendingPathComponent("mav0/\(cam)/data.csv"), encoding: .utf8)
                .split(separator: "\n").filter { !$0.hasPrefix("#") }.prefix(frames)
            try fm.createDirectory(at: folder.appendingPathComponent("\(cam)/data"), withIntermediateDirectories: true)
            for row in rows {
                let name = String(row.split(separator: ",")[1])
                try fm.copyItem(at: cut.appendingPathComponent("mav0/\(cam)/data/\(name)"), to: folder.appendingPathComponent("\(cam)/data/\(name)"))
            }
            try (rows.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("\(cam)/data.csv"), atomically: true, encoding: .utf8)
        }
        try fm.createDirectory(at: folder.appendingPathComponent("imu0"), withIntermediateDirectories: true)
        try fm.copyItem(at: cut.appendingPathComponent("mav0/imu0/data.csv"), to: folder.appendingPathComponent("imu0/data.csv"))
        try """
            format: parallax-dataset
            version: 1
            streams:
              - {name: cam0, type: camera}
              - {name: cam1, type: camera}
              - {name: imu0, type: imu}
            """.write(to: folder.appendingPathComponent("parallax.yaml"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func replacingKeepsThePacketsAndSaysWhatItReplaced() throws {
        let folder = try DatasetFolder.open(Self.cut.path)
        let info = Self.fixture("euroc-cam0-camera_info.yaml")
        let source = try open(Self.cut.path, ["cam0=\(info)"])
        #expect(source.appliedCalibrations.map(\.description)
                == ["cam0: calibration from \(info) (ROS camera_info 'cam0'), replacing mav0/cam0/sensor.yaml; it does not place the camera: T_BS kept"])
        // Same model as the sensor.yaml, T_BS and rate kept: the metadata is the folder's.
        #expect(source.streams == folder.streams)
        let a = try drain(folder), b = try drain(source)
        #expect(a.map(\.stream) == b.map(\.stream) && a.map(\.timestamp) == b.map(\.timestamp))
        #expect(source.formatName == folder.formatName && source.groundTruth?.count == folder.groundTruth?.count)
    }

    @Test func aKalibrChainChangesExtrinsicsAndTheStereoPair() throws {
        let chain = Self.fixture("euroc-camchain.yaml")
        let source = try open(Self.cut.path, ["cam0=\(chain)", "cam1=\(chain)", "imu0=\(Self.fixture("euroc-imu.yaml"))"])
        let folder = try DatasetFolder.open(Self.cut.path)
        #expect(source.appliedCalibrations.map(\.description) == [
            "cam0: calibration from \(chain) (Kalibr camchain cam0), replacing mav0/cam0/sensor.yaml",
            "cam1: calibration from \(chain) (Kalibr camchain cam1), replacing mav0/cam1/sensor.yaml",
            "imu0: calibration from \(Self.fixture("euroc-imu.yaml")) (Kalibr IMU file), replacing mav0/imu0/sensor.yaml; it does not place the IMU: T_BS kept",
        ])
        let before = try #require(folder.streams.first { $0.name == "cam0" }?.metadata.stereo)
        let after = try #require(source.streams.first { $0.name == "cam0" }?.metadata.stereo)
        #expect(after.stream == "cam1" && (after.partnerFromThis.translation - before.partnerFromThis.translation).norm < 1e-9)
        #expect(source.streams.first { $0.name == "imu0" }?.metadata.imu == folder.streams.first { $0.name == "imu0" }?.metadata.imu)
    }

    @Test func supplyingToAStreamWithoutCalibration() throws {
        let folder = try Self.uncalibratedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // One camera placed: no pair. Both placed: the pair the EuRoC reader declares.
        let one = try open(folder.path, ["cam0=\(Self.sensor("cam0"))"])
        #expect(one.appliedCalibrations.map(\.description) == ["cam0: calibration from \(Self.sensor("cam0")) (EuRoC sensor.yaml), supplied"])
        #expect(one.streams.allSatisfy { $0.metadata.stereo == nil })
        let both = try open(folder.path, ["cam0=\(Self.sensor("cam0"))", "cam1=\(Self.sensor("cam1"))", "imu0=\(Self.fixture("euroc-imu.yaml"))"])
        let euroc = try DatasetFolder.open(Self.cut.path)
        for name in ["cam0", "cam1", "imu0"] {
            #expect(both.streams.first { $0.name == name }?.metadata == euroc.streams.first { $0.name == name }?.metadata, "\(name)")
        }
        #expect(both.appliedCalibrations.last?.description.hasSuffix("(Kalibr IMU file), supplied; it does not place the IMU: T_BS identity") == true)
        #expect(try drain(both).count == 2 + 2 + 61)
        // Camera-info files place no camera: no pair from them.
        let infos = try open(folder.path, ["cam0=\(Self.fixture("euroc-cam0-camera_info.yaml"))", "cam1=\(Self.fixture("euroc-cam0-camera_info.yaml"))"])
        #expect(infos.streams.allSatisfy { $0.metadata.stereo == nil })
        // What the wrapped folder provides besides packets is found through it.
        #expect(both.provider((any FaceTruthProviding).self) != nil)
    }

    @Test func sizesThatDoNotFitAreRefused() throws {
        let scratch = try TemporaryFolder.make("calib-size")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let small = scratch.appendingPathComponent("cam0-640.yaml").path
        try String(contentsOfFile: Self.fixture("euroc-cam0-camera_info.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "image_width: 752", with: "image_width: 640").write(toFile: small, atomically: true, encoding: .utf8)
        // The dataset has a size for cam0: refused when it opens.
        #expect(refusal { _ = try open(Self.cut.path, ["cam0=\(small)"]) }
                == "\(small) is for 640×480 px but cam0's own calibration (mav0/cam0/sensor.yaml) is for 752×480 px, which its frames are checked against")
        // It had none: the first frame is refused, naming stream, time and both sizes.
        let folder = try Self.uncalibratedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try open(folder.path, ["cam0=\(small)"])
        do {
            _ = try drain(source)
            Issue.record("a 752×480 frame was accepted for a 640×480 calibration")
        } catch let e as CalibrationOverrideError {
            #expect(e.given == "--calibration cam0=\(small)")
            #expect(e.reason == "cam0 at 1403715273262142976 ns: the frame is 752×480 px but the calibration is for 640×480 px")
            #expect(e is any BadInput)
        }
        // Decoded on worker threads, the same refusal in the same place.
        let again = try open(folder.path, ["cam0=\(small)"])
        let prefetched = PrefetchingSource(again, workers: 2)
        #expect(throws: CalibrationOverrideError.self) { _ = try drain(prefetched) }
    }

    @Test func unknownStreamsAndKindsAreRefused() throws {
        #expect(refusal { _ = try open(Self.cut.path, ["cam3=\(Self.sensor("cam0"))"]) }
                == "the dataset has no stream 'cam3'; did you mean 'cam0'? (its streams: cam0, cam1, imu0, groundtruth)")
        #expect(refusal { _ = try open(Self.cut.path, ["left=\(Self.sensor("cam0"))"]) } == "the dataset has no stream 'left' (its streams: cam0, cam1, imu0, groundtruth)")
        #expect(refusal { _ = try open(Self.cut.path, ["groundtruth=\(Self.sensor("cam0"))"]) }
                .hasPrefix("'groundtruth' is a Pose stream: a calibration is for a camera (frames, depth, face landmarks) or an IMU stream"))
        #expect(refusal { _ = try open(Self.cut.path, ["cam0=\(Self.sensor("imu0"))"]) }.hasSuffix("but 'cam0' is a camera stream: give a camera's calibration"))
        #expect(refusal { _ = try open(Self.cut.path, ["cam0=\(Self.sensor("cam0"))", "cam0=\(Self.sensor("cam1"))"]) }.hasPrefix("stream 'cam0' is already calibrated"))
    }
}
