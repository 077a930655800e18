import Foundation
import Testing
@testable import ParallaxApp
import Parallax
@testable import ParallaxCLI

@Suite struct SimulateOptionTests {
    /// Numbers that used to trap (`--seconds nan` converted to Int) are usage errors naming the option.
    @Test func outOfRangeNumbersAreUsageErrors() {
        let out = Paths.temporary("sim-bad").path
        for arguments in [["--seconds", "nan"], ["--seconds", "inf"], ["--seconds", "1e30"], ["--seconds=-1"], ["--seconds", "0"],
                          ["--depth-rate", "nan"], ["--pixel-noise=-3"], ["--still", "inf"],
                          ["--camera-time-offset", "2"], ["--camera-time-offset", "nan"], ["--camera-time-offset", "-1.5"]] {
            #expect(parallax(["simulate"] + arguments + ["--out", out]) == 2, "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// An option the chosen scene does not use is refused (it was ignored in silence), as are a
    /// format or depth rate the output layout cannot hold.
    @Test func optionsTheSceneDoesNotUseAreRefused() {
        let out = Paths.temporary("sim-scene").path
        for arguments in [["--face-model", "face.obj"], ["--scene", "face", "--trajectory", "gt.txt"], ["--scene", "object", "--stereo-calibration", "cam1.yaml"],
                          ["--scene", "face", "--format", "euroc"], ["--scene", "object", "--still", "2"], ["--format", "bag"], ["--format", "euroc"],
                          ["--scene", "face", "--pixel-noise", "50"], ["--scene", "face", "--depth-rate", "5.5"], ["--scene", "object", "--depth-rate", "3"],
                          ["--scene", "face", "--picture-width", "2"], ["--picture-width", "2"], ["--depth-rate", "0", "--depth-noise", "kinect"],
                          ["--scene", "face", "--textures", "a.png"], ["--scene", "face", "--camera-time-offset", "0.01"]] {
            #expect(parallax(["simulate", "--seconds", "1"] + arguments + ["--out", out]) == 2, "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A trajectory too short for the spline is a clear error (it trapped); one stamped in
    /// nanoseconds is followed on its real clock (it looped forever allocating knots).
    @Test func trajectoriesTooShortOrInNanosecondsAreHandled() throws {
        let folder = Paths.temporary("sim-traj")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let short = folder.appendingPathComponent("short.tum"), ns = folder.appendingPathComponent("ns.tum")
        try "1 0 0 0 0 0 0 1\n1.1 0.1 0 0 0 0 0 1\n".write(to: short, atomically: true, encoding: .utf8)
        try (0..<40).map { "\(1_403_636_580_838_555_648 + $0 * 50_000_000) \(0.1 * Double($0)) \(0.01 * Double($0 * $0)) 0 0 0 0 1" }
            .joined(separator: "\n").write(to: ns, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        #expect(parallax(["simulate", "--trajectory", short.path, "--seconds", "1", "--out", out.path]) == 2)
        #expect(parallax(["simulate", "--trajectory", ns.path, "--seconds", "0.5", "--depth-rate", "0", "--pixel-noise", "0",
                          "--out", out.path, "--camera-calibration", Paths.cut + "/mav0/cam0/sensor.yaml",
                          "--imu-calibration", Paths.cut + "/mav0/imu0/sensor.yaml",
                          "--textures", Paths.tum + "/rgb/1341847980.722988.png"]) == 0)
        let gt = try #require(try DatasetFolder.open(out.path).groundTruth)
        #expect(gt.poses[0].timestamp.nanoseconds / 1_000_000_000 == 1_403_636_580)
        // Nanoseconds written as decimal seconds (1.4e18 s) do not fit a timestamp: the reader
        // refuses the line (exit 2), nothing is simulated.
        let decimal = folder.appendingPathComponent("decimal.tum")
        try (0..<40).map { "\(1_403_636_580_838_555_648 + $0 * 50_000_000).0 \(0.1 * Double($0)) 0 0 0 0 0 1" }
            .joined(separator: "\n").write(to: decimal, atomically: true, encoding: .utf8)
        #expect(parallax(["simulate", "--trajectory", decimal.path, "--seconds", "0.5", "--out", folder.appendingPathComponent("out2").path]) == 2)
    }

    /// A negative offset is written as it is (`--camera-time-offset -0.02`, not only `=-0.02`):
    /// the frames are stamped 20 ms early.
    @Test func aNegativeCameraTimeOffsetIsTakenAsAValue() throws {
        let out = Paths.temporary("sim-offset")
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(parallax(["simulate", "--camera-time-offset", "-0.02", "--seconds", "0.2", "--depth-rate", "0", "--out", out.path]) == 0)
        let yaml = try String(contentsOf: out.appendingPathComponent("parallax.yaml"), encoding: .utf8)
        #expect(!yaml.isEmpty)
        let imu = try String(contentsOf: out.appendingPathComponent("imu0/data.csv"), encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        let cam = try String(contentsOf: out.appendingPathComponent("cam0/data.csv"), encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        let first = { (lines: [Substring]) in Int64(lines.first?.split(separator: ",").first ?? "") }
        #expect(first(imu).flatMap { i in first(cam).map { $0 - i } } == -20_000_000)
    }
}
