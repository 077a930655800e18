import Foundation
import Testing
@testable import ParallaxCLI
@testable import ParallaxApp
import Parallax
import TestSupport

/// `--calibration STREAM=FILE`: EuRoC's bags carry no CameraInfo; made so from the bundled cut
/// (ROS 1 and ROS 2, `scripts/reference/to-rosbag --no-camera-info`) and given the folder's
/// sensor.yaml, `klt` gives the folder's events byte for byte; the run says which calibration it
/// used (stderr, run.json); bad options and files exit 2 naming them.
@Suite struct CalibrationOptionTests {
    /// Writes the EuRoC folder `dataset` as a bag without camera info (`ros2`: a rosbag2 folder).
    static func bagWithoutCameraInfo(_ dataset: String, to path: String, ros2: Bool) throws {
        let writer = Process()
        writer.executableURL = Paths.root.appendingPathComponent("scripts/reference/to-rosbag")
        writer.arguments = (ros2 ? ["euroc2", dataset, path] : ["euroc", dataset, path, "none"]) + ["--no-camera-info"]
        try writer.run()
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
    }

    /// `chain` over `dataset` into `out`; its events.jsonl (empty when the run failed).
    static func events(_ chain: String, _ dataset: String, out: URL, _ extra: [String] = []) throws -> Data {
        #expect(parallax(["run", chain, dataset, "--out", out.path, "--quiet"] + extra) == 0)
        return (try? Data(contentsOf: out.appendingPathComponent("events.jsonl"))) ?? Data()
    }

    @Test(.enabled(if: PythonModule.available("rosbags"), "the Python rosbags package is not installed (pip install rosbags)"))
    func bagsWithoutCameraInfoTrackAsTheFolderWithItsSensorYAML() throws {
        let dir = try TemporaryFolder.make("calibration-bags")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cam0 = Paths.cut + "/mav0/cam0/sensor.yaml"
        let folder = try Self.events("klt camera=cam0", Paths.cut, out: dir.appendingPathComponent("folder"))
        for ros2 in [false, true] {
            let bag = dir.appendingPathComponent(ros2 ? "cut-ros2" : "cut.bag").path
            try Self.bagWithoutCameraInfo(Paths.cut, to: bag, ros2: ros2)
            let inspected = try DatasetInspection.inspect(path: bag)
            #expect(inspected.streams.first { $0.name == "cam0" }?.calibration == nil)
            // Without a calibration klt has no normalized coordinates: other events.
            let bare = try Self.events("klt camera=cam0", bag, out: dir.appendingPathComponent("bare-\(ros2)"))
            #expect(!bare.isEmpty && bare != folder)
            let out = dir.appendingPathComponent("calibrated-\(ros2)")
            #expect(try Self.events("klt camera=cam0", bag, out: out, ["--calibration", "cam0=\(cam0)"]) == folder)
            let run = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
            #expect(run?["calibrations"] as? [String] == ["cam0: calibration from \(cam0) (EuRoC sensor.yaml), supplied"])
            // Kalibr's camchain gives the same intrinsics: the same tracks.
            let chain = RepositoryPaths.fixtures.appendingPathComponent("calibration/euroc-camchain.yaml").path
            #expect(try Self.events("klt camera=cam0", bag, out: dir.appendingPathComponent("kalibr-\(ros2)"), ["--calibration", "cam0=\(chain)"]) == folder)
        }
    }

    /// The first `frames` cam0 frames of the EuRoC folder `source` and its IMU up to the last
    /// of them, with both sensor.yaml files, as an EuRoC folder at `folder` (images linked).
    static func eurocPrefix(of source: String, frames: Int, to folder: URL) throws {
        let fm = FileManager.default
        let mav0 = URL(fileURLWithPath: source).appendingPathComponent("mav0"), out = folder.appendingPathComponent("mav0")
        let rows = try String(contentsOf: mav0.appendingPathComponent("cam0/data.csv"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.prefix(frames)
        try fm.createDirectory(at: out.appendingPathComponent("cam0/data"), withIntermediateDirectories: true)
        try fm.createDirectory(at: out.appendingPathComponent("imu0"), withIntermediateDirectories: true)
        for row in rows {
            let name = String(row.split(separator: ",")[1])
            try fm.createSymbolicLink(at: out.appendingPathComponent("cam0/data/\(name)"), withDestinationURL: mav0.appendingPathComponent("cam0/data/\(name)"))
        }
        try (rows.joined(separator: "\n") + "\n").write(to: out.appendingPathComponent("cam0/data.csv"), atomically: true, encoding: .utf8)
        let last = Int64(rows.last?.split(separator: ",")[0] ?? "0") ?? 0
        let imu = try String(contentsOf: mav0.appendingPathComponent("imu0/data.csv"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") && (Int64($0.split(separator: ",")[0]) ?? .max) <= last }
        try (imu.joined(separator: "\n") + "\n").write(to: out.appendingPathComponent("imu0/data.csv"), atomically: true, encoding: .utf8)
        for sensor in ["cam0", "imu0"] {
            try fm.copyItem(at: mav0.appendingPathComponent("\(sensor)/sensor.yaml"), to: out.appendingPathComponent("\(sensor)/sensor.yaml"))
        }
    }

    /// EuRoC MH_01_easy (its first 4 s: 80 frames, the IMU from 1 s before them; the whole 20 s
    /// take 5 minutes a run in a debug build) as a bag without camera info, given cam0's and
    /// imu0's sensor.yaml: `vio` gives the folder's trajectory, byte for byte.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("euroc/MH_01_easy_20s"), "../shared/data/euroc/MH_01_easy_20s is not on this machine"),
          .enabled(if: PythonModule.available("rosbags"), "the Python rosbags package is not installed (pip install rosbags)"))
    func vioOnABagWithTheFoldersCalibrationGivesTheFoldersPoses() throws {
        let dir = try TemporaryFolder.make("calibration-vio")
        defer { try? FileManager.default.removeItem(at: dir) }
        let mh01 = dir.appendingPathComponent("mh01")
        try Self.eurocPrefix(of: RepositoryPaths.sharedData("euroc/MH_01_easy_20s").path, frames: 80, to: mh01)
        let bag = dir.appendingPathComponent("mh01.bag").path
        try Self.bagWithoutCameraInfo(mh01.path, to: bag, ros2: false)
        let chain = Paths.chains + "/vio-mono.yaml"
        let folder = dir.appendingPathComponent("folder"), fromBag = dir.appendingPathComponent("bag")
        let calibration = ["--calibration", "cam0=\(mh01.path)/mav0/cam0/sensor.yaml", "--calibration", "imu0=\(mh01.path)/mav0/imu0/sensor.yaml"]
        _ = try Self.events(chain, mh01.path, out: folder)
        _ = try Self.events(chain, bag, out: fromBag, calibration)
        let a = try String(contentsOf: folder.appendingPathComponent("vio/pose.tum"), encoding: .utf8)
        let b = try String(contentsOf: fromBag.appendingPathComponent("vio/pose.tum"), encoding: .utf8)
        #expect(a.split(separator: "\n").count > 20 && a == b, "\(a.split(separator: "\n").count) poses from the folder")
        // Without the IMU's noise vio cannot start: bad input, exit 2.
        #expect(parallax(["run", chain, bag, "--out", dir.appendingPathComponent("no-imu").path, "--quiet", calibration[0], calibration[1]]) == 2)
    }

    @Test func badCalibrationsExitWithTwo() throws {
        let dir = try TemporaryFolder.make("calibration-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cam0 = Paths.cut + "/mav0/cam0/sensor.yaml", imu0 = Paths.cut + "/mav0/imu0/sensor.yaml"
        let out = dir.appendingPathComponent("out").path
        for bad in [["cam0"], ["cam3=\(cam0)"], ["cam0=\(imu0)"], ["imu0=\(cam0)"], ["cam0=/nonexistent.yaml"], ["cam0=\(cam0)", "cam0=\(cam0)"],
                    ["groundtruth=\(cam0)"], ["cam0=\(cam0)#cam1"]] {
            let options = bad.flatMap { ["--calibration", $0] }
            #expect(parallax(["run", "klt camera=cam0", Paths.cut, "--out", out, "--quiet"] + options) == 2, "\(bad)")
            #expect(parallax(["inspect", Paths.cut] + options) == 2, "\(bad)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(parallax(["convert", Paths.cut, "--out", out, "--calibration", "cam9=\(cam0)"]) == 2)
        // A suite says it per case; one case takes it from the command line.
        #expect(parallax(["bench", Paths.root.appendingPathComponent("bench/default.yaml").path, "--out", out, "--no-record", "--calibration", "cam0=\(cam0)"]) == 2)
        #expect(parallax(["bench", "--chain", "klt camera=cam0", "--dataset", Paths.cut, "--out", out, "--no-record", "--quiet", "--calibration", "cam7=\(cam0)"]) == 2)
        #expect(parallax(["bench", "--chain", "klt camera=cam0", "--dataset", Paths.cut, "--out", out, "--no-record", "--quiet", "--calibration", "cam0=\(cam0)"]) == 0)
    }

    @Test func inspectAndConvertSayAndKeepTheCalibration() throws {
        let dir = try TemporaryFolder.make("calibration-inspect")
        defer { try? FileManager.default.removeItem(at: dir) }
        let info = RepositoryPaths.fixtures.appendingPathComponent("calibration/euroc-cam0-camera_info.yaml").path
        var options = DatasetOptions.builtin()
        options.calibrations = [try CalibrationOverride(parsing: "cam0=\(info)")]
        let report = try DatasetInspection.inspect(path: Paths.cut, options: options)
        #expect(report.calibrations == ["cam0: calibration from \(info) (ROS camera_info 'cam0'), replacing mav0/cam0/sensor.yaml; it does not place the camera: T_BS kept"])
        // Converted, the supplied calibration is the new folder's own.
        let converted = dir.appendingPathComponent("converted").path
        let chain = RepositoryPaths.fixtures.appendingPathComponent("calibration/euroc-camchain.yaml").path
        #expect(parallax(["convert", Paths.cut, "--out", converted, "--calibration", "cam1=\(chain)"]) == 0)
        let again = try DatasetFolder.open(converted)
        let kalibr = try KalibrCamchain.load(path: chain)
        #expect(again.streams.first { $0.name == "cam1" }?.metadata.camera?.model == kalibr.camera(named: "cam1")?.model)
    }

    @Test(.enabled(if: RealExecutable.isBuilt, "the parallax executable is not built (swift build)"))
    func theRunSaysWhichCalibrationItUsedOnStandardError() throws {
        let dir = try TemporaryFolder.make("calibration-stderr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let chain = RepositoryPaths.fixtures.appendingPathComponent("calibration/euroc-camchain.yaml").path
        let imu = RepositoryPaths.fixtures.appendingPathComponent("calibration/euroc-imu.yaml").path
        let run = try RealExecutable.start(["run", "klt camera=cam0", Paths.cut, "--out", dir.appendingPathComponent("out").path, "--quiet",
                                            "--calibration", "cam0=\(chain)", "--calibration", "imu0=\(imu)"])
        let stderr = run.finish()
        #expect(run.process.terminationStatus == 0, "\(stderr)")
        #expect(stderr.split(separator: "\n").prefix(2) == [
            "parallax: cam0: calibration from \(chain) (Kalibr camchain cam0), replacing mav0/cam0/sensor.yaml",
            "parallax: imu0: calibration from \(imu) (Kalibr IMU file), replacing mav0/imu0/sensor.yaml; it does not place the IMU: T_BS kept",
        ], "\(stderr)")
        let missing = try RealExecutable.start(["run", "klt camera=cam0", Paths.cut, "--out", dir.appendingPathComponent("bad").path, "--quiet",
                                                "--calibration", "cam3=\(chain)"])
        let message = missing.finish()
        #expect(missing.process.terminationStatus == 2)
        #expect(message == "parallax: --calibration cam3=\(chain): the dataset has no stream 'cam3'; did you mean 'cam0'? (its streams: cam0, cam1, imu0, groundtruth)\n")
    }
}
