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
