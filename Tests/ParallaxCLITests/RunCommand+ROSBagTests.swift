import Foundation
import Testing
@testable import ParallaxCLI
@testable import ParallaxApp
import Parallax

/// The bundled EuRoC cut written as ROS 1 bags by the Python rosbags package
/// and as a ROS 2 bag (`scripts/reference/to-rosbag`; skipped without `pip install rosbags`)
/// reads back with the same streams, times and pixels: `klt` gives byte-identical events from
/// the folder and from each bag (ROS 1 uncompressed, bz2, lz4; ROS 2 MCAP).
@Suite struct ROSBagCommandTests {
    @Test(.enabled(if: PythonModule.available("rosbags"), "the Python rosbags package is not installed (pip install rosbags)"))
    func theEuRoCCutRoundTripsThroughBags() throws {
        let dir = Paths.temporary("rosbag-roundtrip")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func tracks(_ dataset: String, _ name: String) throws -> Data {
            let out = dir.appendingPathComponent("klt-\(name)")
            #expect(parallax(["run", "klt camera=cam0", dataset, "--out", out.path, "--quiet"]) == 0)
            return try Data(contentsOf: out.appendingPathComponent("events.jsonl"))
        }
        let folder = try tracks(Paths.cut, "folder")
        let original = try DatasetInspection.inspect(path: Paths.cut)
        // ROS 1 bags in three compressions, and a ROS 2 bag (MCAP, CDR).
        for compression in ["none", "bz2", "lz4", "ros2"] {
            let bag = dir.appendingPathComponent(compression == "ros2" ? "cut-ros2" : "cut-\(compression).bag").path
            let writer = Process()
            writer.executableURL = Paths.root.appendingPathComponent("scripts/reference/to-rosbag")
            writer.arguments = compression == "ros2" ? ["euroc2", Paths.cut, bag] : ["euroc", Paths.cut, bag, compression]
            try writer.run()
            writer.waitUntilExit()
            #expect(writer.terminationStatus == 0)
            #expect(try tracks(bag, compression) == folder)
            let inspected = try DatasetInspection.inspect(path: bag)
            for s in original.streams {
                let t = try #require(inspected.streams.first { $0.name == s.name })
                #expect(t.count == s.count && t.first == s.first && t.last == s.last && t.imageSize == s.imageSize)
            }
            #expect(inspected.groundTruthPoses == original.groundTruthPoses)
        }
    }

    @Test func badTopicOptionsExitWithTwo() {
        let bag = Paths.root.appendingPathComponent("Tests/Fixtures/rosbag/tiny-none.bag").path
        #expect(parallax(["inspect", bag, "--topic", "cam0=left"]) == 2)
        #expect(parallax(["inspect", bag, "--topic", "/imu0=cam0"]) == 2)  // two topics, one stream
        #expect(parallax(["inspect", bag, "--topic", "/cam0/image_raw=left"]) == 0)
        // A topic the bag does not have, or one named twice, is a mistake, not a no-op.
        #expect(parallax(["inspect", bag, "--topic", "/nonexistent=left"]) == 2)
        #expect(parallax(["inspect", bag, "--topic", "/cam0/image_raw=left", "--topic", "/cam0/image_raw=right"]) == 2)
    }

    /// Two topics that differ only in their Unicode form (`/é/imu` precomposed and decomposed) are
    /// two topics: refused as both becoming one stream, not merged into it (Swift's String
    /// equality is canonical); one of them alone reads.
    @Test(.enabled(if: PythonModule.available("rosbags"), "the Python rosbags package is not installed (pip install rosbags)"))
    func topicsDifferingOnlyInUnicodeFormAreNotMerged() throws {
        let dir = Paths.temporary("unicode-topics")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = """
        import sys, unicodedata, numpy as np
        from pathlib import Path
        from rosbags.rosbag1 import Writer
        from rosbags.typesys import Stores, get_typestore
        ts = get_typestore(Stores.ROS1_NOETIC)
        Imu = ts.types['sensor_msgs/msg/Imu']; H = ts.types['std_msgs/msg/Header']; T = ts.types['builtin_interfaces/msg/Time']
        Q = ts.types['geometry_msgs/msg/Quaternion']; V = ts.types['geometry_msgs/msg/Vector3']
        def imu(t): return Imu(header=H(seq=0, stamp=T(sec=t // 10**9, nanosec=t % 10**9), frame_id='imu'),
            orientation=Q(x=0., y=0., z=0., w=1.), orientation_covariance=np.zeros(9), angular_velocity=V(x=0., y=0., z=0.),
            angular_velocity_covariance=np.zeros(9), linear_acceleration=V(x=0., y=0., z=9.81), linear_acceleration_covariance=np.zeros(9))
        for path, forms in [(sys.argv[1], ['NFC', 'NFD']), (sys.argv[2], ['NFD'])]:
            with Writer(Path(path)) as w:
                for k, form in enumerate(forms):
                    c = w.add_connection('/' + unicodedata.normalize(form, 'é') + '/imu', Imu.__msgtype__, typestore=ts)
                    for i in range(10):
                        t = (k + 1) * 10**9 + i * 5_000_000
                        w.write(c, t, ts.serialize_ros1(imu(t), Imu.__msgtype__))
        """
        let both = dir.appendingPathComponent("both.bag").path, one = dir.appendingPathComponent("one.bag").path
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = ["python3", "-c", script, both, one]
        try writer.run()
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(parallax(["inspect", both]) == 2)
        #expect(parallax(["inspect", one]) == 0)
    }
}

/// Whether `python3` can import a module (the reference tools some tests compare with).
enum PythonModule {
    static func available(_ module: String) -> Bool {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import \(module)"]
        probe.standardError = FileHandle.nullDevice
        probe.standardOutput = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }
}
