import Foundation
import Parallax

/// Runs a ``BenchSuite`` and produces its results.
struct BenchRunner {
    /// One run's outcome. Metrics are deterministic; timing is not (kept apart).
    struct Result: Codable {
        var name: String
        var dataset: String
        var chain: String
        var status: String               // ok | skipped | failed
        var note: String?
        var packets: [String: Int] = [:]
        /// The evaluations asked for, in order, with what each found.
        var evaluations: [Evaluated] = []
        var timing: [RunReport.AnalyzerTiming] = []
        var realtimeFactor: Double = 0
    }

    /// One evaluation of a run.
    struct Evaluated: Codable {
        var evaluation: String
        var result: EvaluationResult
    }

    let suite: BenchSuite
    let scratch: URL
    var registry = ParallaxCLI.registry
    var evaluations = EvaluationRegistry.standard
    var progress: (String) -> Void = { _ in }

    func run() throws -> [Result] {
        try suite.runs.map(runOne)
    }

    private func runOne(_ run: BenchSuite.Run) throws -> Result {
        var scene: TexturedScene?
        var result = Result(name: run.name, dataset: run.dataset ?? "simulated", chain: run.chain, status: "ok")
        progress("\(run.name): preparing")
        let datasetPath: String
        if let dataset = run.dataset {
            guard FileManager.default.fileExists(atPath: dataset) else {
                result.status = "skipped"
                result.note = "dataset not present on this machine: \(dataset)"
                return result
            }
            datasetPath = dataset
        } else {
            let (seconds, seed, width, textures) = run.simulate!
            let folder = scratch.appendingPathComponent("sim-\(run.name)")
            try? FileManager.default.removeItem(at: folder)
            scene = try Self.simulate(seconds: seconds, seed: seed, width: width, textures: textures, into: folder)
            datasetPath = folder.path
            result.dataset = String(format: "simulated (%.0f s, seed %d)", seconds, seed)
        }
        let runner = try ChainRunner(chain: run.chain, dataset: datasetPath, registry: registry)
        progress("\(run.name): running \(runner.chain.name)")
        let (outcome, outputs) = try runner.runCollecting()
        for s in outcome.report.streams { result.packets[s.stream] = s.packets }
        result.timing = outcome.report.analyzers
        result.realtimeFactor = outcome.report.realtimeFactor
        if let failure = outcome.failure {
            result.status = "failed"
            result.note = failure.description
            return result
        }
        let input = runner.evaluationInput(outputs: outputs, outcome: outcome, scene: scene)
        var problems: [String] = []
        for name in run.evaluate {
            do {
                result.evaluations.append(Evaluated(evaluation: name, result: try evaluations.make(name).evaluate(input)))
            } catch {
                // One evaluation failing (missing truth, a bad ground-truth file) fails this run
                // only; the other runs' results are kept.
                problems.append("\(error)")
            }
        }
        if !problems.isEmpty {
            result.status = "failed"
            result.note = problems.joined(separator: "; ")
        } else {
            let notes = result.evaluations.compactMap(\.result.note)
            if !notes.isEmpty { result.note = notes.joined(separator: "; ") }
        }
        return result
    }

    /// The bench's simulated sequence: built-in orbit, EuRoC calibration and noise, the room
    /// textured with `textures` (paths; an unreadable one is an error naming it), or with a
    /// seeded noise texture when none are given. Independent of the working directory.
    @discardableResult
    static func simulate(seconds: Double, seed: UInt64, width: Int, textures texturePaths: [String], into folder: URL) throws -> TexturedScene {
        // EuRoC cam0 intrinsics scaled from its 752 px width.
        let s = Double(width) / 752
        let camera = CameraCalibration(
            model: CameraModel(width: width, height: Int((480 * s).rounded()),
                               intrinsics: PinholeIntrinsics(fx: 458.654 * s, fy: 457.296 * s, cx: (367.215 + 0.5) * s - 0.5, cy: (248.375 + 0.5) * s - 0.5),
                               distortion: .radialTangential(k1: -0.28340811, k2: 0.07395907, p1: 0.00019359, p2: 1.76187114e-05)),
            bodyFromSensor: SE3(rotation: SO3(Matrix3(rows: Vector3(0, 0, 1), Vector3(-1, 0, 0), Vector3(0, -1, 0))), translation: .zero),
            rateHz: 20, comment: "simulated, EuRoC cam0 intrinsics scaled to \(width) px, looking along body x")
        let noise = IMUNoiseModel(gyroscopeNoiseDensity: 1.6968e-04, gyroscopeRandomWalk: 1.9393e-05, accelerometerNoiseDensity: 2.0e-3, accelerometerRandomWalk: 3.0e-3)
        var textures = try texturePaths.map { try ImageDecoder.decodeGray8(path: $0) }
        if textures.isEmpty {
            var rng = SeededGenerator(seed: seed)
            textures = [ImageBuffer<UInt8>(width: 256, height: 256, samples: (0..<65536).map { _ in UInt8(truncatingIfNeeded: rng.next()) })]
        }
        let spline = SyntheticMotion.orbit(seconds: seconds)
        let scene = TexturedScene.room(min: Vector3(-4, -3, 0), max: Vector3(4, 3, 3.5), textures: textures)
        var config = SequenceSimulator.Configuration(camera: camera, imu: IMUSimulator(noise: noise, rateHz: 200))
        config.duration = seconds
        config.seed = seed
        config.depthRateHz = 0
        let simulator = SequenceSimulator(spline: spline, scene: scene, configuration: config)
        // Rendered lazily on worker threads and written as it comes.
        let sequence = try simulator.source()
        let reader = PrefetchingSource(sequence)
        defer { reader.stop() }
        let writer = try ParallaxFolderWriter(path: folder.path)
        for s in simulator.streams { writer.declare(s) }
        while let p = try reader.next() { try writer.write(p) }
        try writer.finish(groundTruth: sequence.groundTruth)
        return scene
    }
}
