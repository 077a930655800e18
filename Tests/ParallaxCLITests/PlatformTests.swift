import Foundation
import Testing
@testable import ParallaxApp
import Parallax
@testable import ParallaxCLI

/// Passes the dataset's ground-truth poses on as an estimator would (a pose stream).
struct PoseRelay: Analyzer {
    static let name = "pose-relay"
    static let summary = "test: re-emits ground truth as an estimate"
    typealias Options = NoOptions
    let truth = InputPort<Pose>.each("groundtruth")
    let estimate = OutputPort<Pose>("relay/pose")
    init(options: Options) {}
    mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        context.emit(try input.trigger(truth).payload, on: estimate, at: input.timestamp)
    }
}

/// Reads its inputs' calibrations in `open` and reports them with the first frame.
struct CalibrationProbe: Analyzer {
    static let name = "calibration-probe"
    static let summary = "test: reads camera and IMU calibration in open"
    typealias Options = NoOptions
    let frames = InputPort<CameraFrame>.each("cam0")
    let imu = InputPort<IMUSample>.between("imu0", through: .firstAfter)
    let report = OutputPort<String>("probe")
    var text = ""
    init(options: Options) {}
    mutating func open(context: inout AnalyzerContext) throws {
        let camera = try context.cameraCalibration(of: frames), sensor = try context.imuCalibration(of: imu)
        text = "fx \(camera.model.intrinsics.fx) imu \(sensor.rateHz) Hz σg \(sensor.noise.gyroscopeNoiseDensity)"
    }
    mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        if !text.isEmpty { context.emit(text, on: report, at: input.timestamp); text = "" }
    }
}

@Suite struct PlatformTests {
    func withTestAnalyzers(_ body: () throws -> Void) rethrows {
        var plugins = BuiltinPlugins.registry
        plugins.analyzers.register(PoseRelay.self)
        plugins.analyzers.register(CalibrationProbe.self)
        try ParallaxCLI.$plugins.withValue(plugins, operation: body)
    }

    @Test func aPoseStreamRoundTripsThroughTheTUMFileRunWrites() throws {
        let data = Paths.temporary("pose-data"), out = Paths.temporary("pose-out")
        defer { try? FileManager.default.removeItem(at: data); try? FileManager.default.removeItem(at: out) }
        try Scenario.orbit(seconds: 1, seed: 2, width: 94).write(to: data)
        try withTestAnalyzers {
            #expect(parallax(["run", "pose-relay", data.path, "--out", out.path, "--quiet"]) == 0)
        }
        let truth = try #require(try DatasetFolder.open(data.path).groundTruth)
        let written = try TrajectoryFile.read(path: out.appendingPathComponent("relay/pose.tum").path, format: .tum)
        #expect(written.count == truth.count && truth.count > 100)
        for (a, b) in zip(written.poses, truth.poses) {
            #expect(a.timestamp == b.timestamp)
            #expect((a.pose.translation - b.pose.translation).norm < 1e-12 && (a.pose.rotation.inverse * b.pose.rotation).angle < 1e-12)
        }
        // And parallax eval takes it directly: zero error against the truth.
        #expect(parallax(["eval", data.appendingPathComponent("groundtruth.csv").path, out.appendingPathComponent("relay/pose.tum").path]) == 0)
    }

    @Test func anAnalyzerReadsCameraAndIMUCalibrationInOpen() throws {
        let out = Paths.temporary("probe")
        defer { try? FileManager.default.removeItem(at: out) }
        try withTestAnalyzers {
            #expect(parallax(["run", "calibration-probe", Paths.cut, "--out", out.path, "--quiet"]) == 0)
        }
        let events = try String(contentsOf: out.appendingPathComponent("events.jsonl"), encoding: .utf8)
        #expect(events.contains("\"payload\":\"fx 458.654 imu 200.0 Hz σg 0.00016968\""))
        // The look-ahead latency of its IMU input is in run.json.
        let run = try String(contentsOf: out.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(run.contains("lookAheadMaxMilliseconds"))
    }
}

@Suite struct BuiltinAnalyzerTests {
    /// Every built-in analyzer can be made with its defaults, and its options round-trip through
    /// their snake_case names (an acronym in a field name, `maxIMUGapMs`, would not).
    @Test func defaultsAreValidAndEveryOptionCanBeSetByName() throws {
        let registry = BuiltinAnalyzers.registry
        for name in registry.names {
            let entry = try #require(registry.entry(name))
            #expect(entry.defaultsProblem == nil, "\(name): \(entry.defaultsProblem ?? "")")
            for option in entry.options where option.defaultValue != "none" {
                let text = option.defaultValue.hasPrefix("\"") ? String(option.defaultValue.dropFirst().dropLast()) : option.defaultValue
                let value = text.hasPrefix("[") ? String(text.dropFirst().dropLast()).replacingOccurrences(of: "\"", with: "") : text
                #expect(throws: Never.self, "\(name) \(option.name)=\(value)") { _ = try registry.make(name, options: [option.name: value]) }
            }
        }
    }
}

@Suite struct SimulateOptionTests {
    /// Numbers that used to trap (`--seconds nan` converted to Int) are usage errors naming the option.
    @Test func outOfRangeNumbersAreUsageErrors() {
        let out = Paths.temporary("sim-bad").path
        for arguments in [["--seconds", "nan"], ["--seconds", "inf"], ["--seconds", "1e30"], ["--seconds=-1"], ["--seconds", "0"],
                          ["--depth-rate", "nan"], ["--pixel-noise=-3"], ["--still", "inf"]] {
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
                          ["--scene", "face", "--textures", "a.png"]] {
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
}

@Suite struct LargeTimestampTests {
    /// TUM files whose times are nanoseconds (EuRoC stamps in a TUM file) used to trap when read;
    /// they are legal input: evaluated as given, with a warning about the units.
    @Test func nanosecondTimesInATUMFileAreReadAndOutOfRangeOnesAreErrors() throws {
        let folder = Paths.temporary("ns")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("ns.tum")
        try (0..<5).map { "\(1_403_636_580_838_555_648 + $0 * 5_000_000) \($0) \($0 * $0) \($0 % 2) 0 0 0 1" }.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let trajectory = try TrajectoryFile.read(path: file.path, format: .tum)
        #expect(trajectory.poses[1].timestamp.nanoseconds == 1_403_636_580_843_555_648)
        #expect(parallax(["eval", file.path, file.path]) == 0)
        let bad = folder.appendingPathComponent("bad.tum")
        try "1e300 0 0 0 0 0 0 1\n".write(to: bad, atomically: true, encoding: .utf8)
        #expect { _ = try TrajectoryFile.read(path: bad.path, format: .tum) } throws: { "\($0)".contains("bad.tum:1: timestamp '1e300' is out of range") }
        #expect(parallax(["eval", bad.path, file.path]) == 2)
    }
}
