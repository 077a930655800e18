import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxFiles
@testable import ParallaxDatasets
import TestSupport

/// Every calibration file kind is told by its keys and read for the stream it is given to:
/// EuRoC sensor files, Kalibr camchains (by name, by topic, `#camN`) and IMU files, ROS
/// camera_info, a Parallax folder's streams; a file of the other kind, an entry that is not
/// there, a file that is none of these: errors naming the override and the file.
@Suite struct StreamCalibrationFileTests {
    static let cut = RepositoryPaths.root.appendingPathComponent("datasets/euroc_v1_01_cut/mav0")
    static func fixture(_ name: String) -> String { RepositoryPaths.fixtures.appendingPathComponent("calibration/\(name)").path }
    let cam0 = cut.appendingPathComponent("cam0/sensor.yaml").path
    let imu0 = cut.appendingPathComponent("imu0/sensor.yaml").path

    func load(_ text: String, _ kind: StreamCalibrationFile.Kind, topics: [String: String] = [:]) throws -> StreamCalibration {
        try StreamCalibrationFile.load(try CalibrationOverride(parsing: text), for: kind, topicNames: topics)
    }

    /// The reason of the override error `body` throws.
    func refusal(_ body: () throws -> Void) -> String {
        do { try body(); Issue.record("accepted"); return "" } catch let e as CalibrationOverrideError { return e.reason } catch { Issue.record("\(error)"); return "" }
    }

    func camera(_ c: StreamCalibration) -> CameraCalibration? { if case let .camera(x) = c.sensor { return x }; return nil }
    func imu(_ c: StreamCalibration) -> IMUCalibration? { if case let .imu(x) = c.sensor { return x }; return nil }

    @Test func eurocSensorFiles() throws {
        let c = try load("cam0=\(cam0)", .camera)
        #expect(camera(c) == (try EuRoCSensorFile.loadCamera(path: cam0)) && c.placesSensor && c.origin == "EuRoC sensor.yaml")
        let i = try load("imu0=\(imu0)", .imu)
        #expect(imu(i) == (try EuRoCSensorFile.loadIMU(path: imu0)) && i.placesSensor)
        #expect(refusal { _ = try load("cam0=\(imu0)", .camera) } == "\(imu0) is an EuRoC sensor.yaml of an IMU, but 'cam0' is a camera stream: give a camera's calibration")
        #expect(refusal { _ = try load("imu0=\(cam0)", .imu) } == "\(cam0) is an EuRoC sensor.yaml of a camera, but 'imu0' is an IMU stream: give an IMU's calibration")
        #expect(refusal { _ = try load("cam0=\(cam0)#cam1", .camera) }.hasSuffix("holds one sensor: '#cam1' names nothing in it"))
    }

    @Test func kalibrCamchainEntriesByNameTopicOrHash() throws {
        let chain = Self.fixture("euroc-camchain.yaml")
        let cam1 = try EuRoCSensorFile.loadCamera(path: Self.cut.appendingPathComponent("cam1/sensor.yaml").path)
        let byName = try load("cam1=\(chain)", .camera)
        #expect(byName.origin == "Kalibr camchain cam1" && byName.placesSensor && camera(byName)?.model == cam1.model)
        // A stream renamed with --topic is matched by the entry's rostopic.
        let byTopic = try load("right=\(chain)", .camera, topics: ["/cam1/image_raw": "right"])
        #expect(byTopic.origin == "Kalibr camchain cam1")
        let byHash = try load("left=\(chain)#cam0", .camera)
        #expect(byHash.origin == "Kalibr camchain cam0")
        #expect(refusal { _ = try load("left=\(chain)", .camera) }
                == "\(chain) has no camera named 'left' or recorded from its topic (it has cam0 (/cam0/image_raw), cam1 (/cam1/image_raw)); name one: left=\(chain)#cam0")
        #expect(refusal { _ = try load("cam0=\(chain)#cam2", .camera) } == "\(chain) has no camera 'cam2'; did you mean '#cam0'? (it has cam0 (/cam0/image_raw), cam1 (/cam1/image_raw))")
        #expect(refusal { _ = try load("imu0=\(chain)", .imu) } == "\(chain) is a Kalibr camchain (cameras), but 'imu0' is an IMU stream: give an IMU's calibration")
    }

    @Test func openCVsDirectiveCRLFAndAByteOrderMarkAreRead() throws {
        let folder = try TemporaryFolder.make("camchain-crlf")
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try String(contentsOfFile: Self.fixture("euroc-camchain.yaml"), encoding: .utf8)
        let file = folder.appendingPathComponent("camchain.yaml").path
        try ("\u{FEFF}%YAML:1.0\r\n" + text.replacingOccurrences(of: "\n", with: "\r\n")).write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try load("cam1=\(file)", .camera).origin == "Kalibr camchain cam1")
    }

    /// A file far larger than any calibration (a wrong path) is refused before it is read.
    @Test func aHugeFileIsRefusedUnread() throws {
        let folder = try TemporaryFolder.make("calib-huge")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("huge.yaml")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data("camera_model: pinhole\n".utf8)))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(FileContents.maxDescriptionBytes + 1))  // sparse: nothing is written
        try handle.close()
        #expect { _ = try load("cam0=\(file.path)", .camera) } throws: { "\($0)".contains("\(FileContents.maxDescriptionBytes + 1) bytes: a description file is at most") }
    }

    @Test func kalibrTimeshiftIsNamedAsNotApplied() throws {
        let folder = try TemporaryFolder.make("camchain-shift")
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try String(contentsOfFile: Self.fixture("euroc-camchain.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "timeshift_cam_imu: 0.0\ncam1:", with: "timeshift_cam_imu: 0.0021\ncam1:")
        let file = folder.appendingPathComponent("camchain.yaml").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try load("cam0=\(file)", .camera).remarks == ["timeshift_cam_imu 0.0021 s not applied (frames keep their recorded times)"])
    }

    @Test func kalibrIMUFiles() throws {
        let euroc = try EuRoCSensorFile.loadIMU(path: imu0)
        let top = try load("imu0=\(Self.fixture("euroc-imu.yaml"))", .imu)
        #expect(imu(top) == euroc && !top.placesSensor && top.origin == "Kalibr IMU file")
        #expect(refusal { _ = try load("imu0=\(Self.fixture("euroc-imu.yaml"))#imu0", .imu) }.hasSuffix("is a Kalibr IMU file of one IMU, which holds one sensor: '#imu0' names nothing in it"))
        let chain = try load("imu0=\(Self.fixture("euroc-imu-chain.yaml"))", .imu)
        #expect(imu(chain) == euroc && chain.placesSensor && chain.origin == "Kalibr IMU file imu0")
        // A bag's IMU stream named otherwise is matched by the topic.
        #expect(try load("imu=\(Self.fixture("euroc-imu-chain.yaml"))", .imu, topics: ["/imu0": "imu"]).origin == "Kalibr IMU file imu0")
        #expect(refusal { _ = try load("cam0=\(Self.fixture("euroc-imu.yaml"))", .camera) }.hasSuffix("is a Kalibr IMU file, but 'cam0' is a camera stream: give a camera's calibration"))
    }

    @Test func rosCameraInfo() throws {
        let info = try load("cam0=\(Self.fixture("euroc-cam0-camera_info.yaml"))", .camera)
        #expect(camera(info)?.model == (try EuRoCSensorFile.loadCamera(path: cam0)).model)
        #expect(!info.placesSensor && info.origin == "ROS camera_info 'cam0'")
        #expect(refusal { _ = try load("imu0=\(Self.fixture("euroc-cam0-camera_info.yaml"))", .imu) }.contains("is a ROS camera_info file (a camera), but 'imu0' is an IMU stream"))
    }

    @Test func parallaxFolderStreams() throws {
        let folder = try TemporaryFolder.make("calib-folder")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fm = FileManager.default
        for name in ["cam0", "imu0"] {
            try fm.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
            try fm.copyItem(atPath: Self.cut.appendingPathComponent("\(name)/sensor.yaml").path, toPath: folder.appendingPathComponent("\(name)/sensor.yaml").path)
        }
        try """
            format: parallax-dataset
            version: 1
            streams:
              - {name: left, type: camera, calibration: cam0/sensor.yaml}
              - {name: imu0, type: imu, calibration: imu0/sensor.yaml}
              - {name: right, type: camera}
              - {name: accel0, type: accelerometer}
            """.write(to: folder.appendingPathComponent("parallax.yaml"), atomically: true, encoding: .utf8)
        let yaml = folder.appendingPathComponent("parallax.yaml").path
        let left = try load("cam0=\(yaml)#left", .camera)
        #expect(camera(left) == (try EuRoCSensorFile.loadCamera(path: cam0)) && left.origin == "Parallax folder stream left: cam0/sensor.yaml")
        // The folder itself names its parallax.yaml; the stream of the same name is read.
        #expect(imu(try load("imu0=\(folder.path)", .imu)) == (try EuRoCSensorFile.loadIMU(path: imu0)))
        #expect(refusal { _ = try load("cam0=\(yaml)", .camera) }.hasPrefix("\(yaml) has no stream named 'cam0'"))
        #expect(refusal { _ = try load("cam0=\(yaml)#right", .camera) } == "\(yaml): stream 'right' has no calibration: (a sensor.yaml file of its own)")
        #expect(refusal { _ = try load("cam0=\(yaml)#imu0", .camera) }.hasSuffix("is a Parallax folder whose stream 'imu0' is an IMU, but 'cam0' is a camera stream: give a camera's calibration"))
        #expect(refusal { _ = try load("cam0=\(yaml)#lfet", .camera) }.contains("has no stream 'lfet'; did you mean '#left'?"))
    }

    @Test func otherFilesAreRefusedSayingWhatIsRead() throws {
        let folder = try TemporaryFolder.make("calib-other")
        defer { try? FileManager.default.removeItem(at: folder) }
        let other = folder.appendingPathComponent("chain.yaml").path
        try "name: x\nanalyzers: []\n".write(toFile: other, atomically: true, encoding: .utf8)
        #expect(refusal { _ = try load("cam0=\(other)", .camera) }.hasPrefix("\(other) is not a calibration file Parallax reads: expected an EuRoC sensor.yaml"))
        #expect(refusal { _ = try load("cam0=/nonexistent/sensor.yaml", .camera) } == "/nonexistent/sensor.yaml: no such file")
        #expect(refusal { _ = try load("cam0=\(folder.path)", .camera) }.hasSuffix("is a folder; name a calibration file (or a Parallax folder, with parallax.yaml)"))
        // Malformed YAML is the YAML decoder's located error.
        let broken = folder.appendingPathComponent("broken.yaml").path
        try "cam0: [unclosed\n".write(toFile: broken, atomically: true, encoding: .utf8)
        #expect(throws: YAMLDecodingError.self) { _ = try load("cam0=\(broken)", .camera) }
    }
}
