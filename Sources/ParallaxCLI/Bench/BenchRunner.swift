import Foundation
import Parallax

/// Runs a ``BenchSuite`` and produces its results.
struct BenchRunner {
    /// One run's outcome. Metrics are deterministic; timing is not (kept apart).
    struct Result: Codable {
        var name: String
        var dataset: String
        var chain: String
        var status: String               // ok | skipped | failed | invalid | interrupted
        var note: String?
        var packets: [String: Int] = [:]
        /// The evaluations asked for, in order, with what each found.
        var evaluations: [Evaluated] = []
        var timing: [RunReport.AnalyzerTiming] = []
        var realtimeFactor: Double = 0
        /// A few camera frames with what the chain found on them, as the HTML report shows them
        /// (not in report.json; kept by shard files).
        var framesHTML = ""
        /// The group of cases that differ by seed only (`seeds:`), nil for a case of its own.
        var group: String?
        /// What the case ran on, for the results database (not in report.json; kept by shard files).
        var provenance = Provenance()

        enum CodingKeys: String, CodingKey { case name, group, dataset, chain, status, note, packets, evaluations, timing, realtimeFactor }
    }

    /// Checksums of what a case ran: its chain and its data.
    struct Provenance: Codable, Equatable {
        var chainSHA256 = ""
        /// The chain file's git commit (`+dirty` when changed), empty when it is not in git.
        var chainCommit = ""
        var datasetSHA256 = ""
    }

    /// One evaluation of a run.
    struct Evaluated: Codable {
        var evaluation: String
        var result: EvaluationResult
    }

    let suite: BenchSuite
    let scratch: URL
    var registry = ParallaxCLI.registry
    var evaluations = ParallaxCLI.plugins.evaluations
    var progress: (String) -> Void = { _ in }
    /// How datasets are opened (a run's `groundtruth:` is added to it).
    var datasetOptions = DatasetOptions()
    /// Polled while running: when true, the current run stops where it is (its result is
    /// marked `interrupted`) and no further run starts.
    var cancelled: @Sendable () -> Bool = { false }
    /// Takes the checksums of each case's chain and data (for the results database).
    var recordsProvenance = false

    /// The results of the suite's runs (of those named in `cases`, when given), in suite order;
    /// only those that started when cancelled. `finished` is called after each.
    func run(cases: Set<String>? = nil, finished: (Result) -> Void = { _ in }) -> [Result] {
        var results: [Result] = []
        // A dataset several cases read is hashed once per run.
        var datasetDigests: [String: String] = [:]
        for r in suite.runs where cases?.contains(r.name) ?? true {
            if cancelled() { break }
            var result: Result
            do {
                result = try runOne(r)
            } catch {
                // Bad input in one case (a chain that does not wire, a ground-truth file that
                // cannot be used) must not lose the cases before and after it.
                result = Result(name: r.name, dataset: r.dataset ?? "simulated", chain: r.chain, status: "invalid", note: "\(error)")
            }
            result.group = r.group
            if recordsProvenance { result.provenance = BenchRecording.provenance(of: r, datasetDigests: &datasetDigests) }
            results.append(result)
            finished(result)
        }
        return results
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
            guard let simulation = run.simulate else {
                throw ChainError.syntax(message: "bench run '\(run.name)' has neither a dataset nor a simulation", location: nil)
            }
            if let trajectory = simulation.trajectory, !FileManager.default.fileExists(atPath: trajectory) {
                result.status = "skipped"
                result.note = "trajectory not present on this machine: \(trajectory)"
                return result
            }
            // Inside this run's own scratch folder (the case's name made a file name: it cannot
            // leave it), so what is removed is what an earlier case of this run simulated.
            let folder = scratch.appendingPathComponent("sim-\(HTMLPages.fileName(run.name))")
            try? FileManager.default.removeItem(at: folder)
            result.dataset = String(format: "simulated (%.0f s, seed %d%@)", simulation.seconds, simulation.seed,
                                    simulation.trajectory.map { ", along " + URL(fileURLWithPath: $0).lastPathComponent } ?? "")
            let following = try simulation.trajectory.map { path -> SE3Spline in
                let samples = try TrajectoryFile.read(path: path)
                guard let following = SE3Spline.following(samples, seconds: simulation.seconds) else {
                    throw DatasetError.invalidOption(path: path, option: "simulate trajectory", reason: "must span at least 0.3 s (it has \(samples.count) pose(s))")
                }
                return following
            }
            let cameras = try simulation.cameras.map { try EuRoCSensorFile.loadCamera(path: $0) }
            if simulation.scene == "face" {
                result.dataset = String(format: "simulated face (%.0f s, seed %d, %.1f px)", simulation.seconds, simulation.seed, simulation.landmarkNoise)
                try Self.simulateFace(seconds: simulation.seconds, seed: simulation.seed, noise: simulation.landmarkNoise, camera: cameras.first, into: folder)
                datasetPath = folder.path
            } else {
                scene = try Self.simulate(seconds: simulation.seconds, seed: simulation.seed, width: simulation.width, still: simulation.still,
                                          stereo: simulation.stereo, following: following, cameras: cameras, textures: simulation.textures,
                                          into: folder, cancelled: cancelled)
                // A signal during the rendering (minutes for a long sequence) stops the case there.
                if cancelled() {
                    result.status = "interrupted"
                    result.note = "stopped by a signal while simulating; not run"
                    return result
                }
                datasetPath = folder.path
            }
        }
        var options = datasetOptions
        options.groundTruth = run.groundTruth
        let runner = try ChainRunner(chain: run.chain, dataset: datasetPath, registry: registry, datasetOptions: options)
        progress("\(run.name): running \(runner.chain.name)")
        // Every output (for the evaluations), and the frames the report draws.
        var outputs: [AnyPacket] = []
        var overlays = OverlayCollector(source: runner.source)
        let outcome = try runner.run(cancelled: cancelled, sink: { _, packet in
            outputs.append(packet)
            overlays.output(packet)
        }, inputs: { overlays.input($0) })
        result.framesHTML = try HTMLPages.frames(overlays.overlays)
        for s in outcome.report.streams { result.packets[s.stream] = s.packets }
        result.timing = outcome.report.analyzers
        result.realtimeFactor = outcome.report.realtimeFactor
        if let failure = outcome.failure {
            // An analyzer that found its option or data unusable is this case's bad input.
            result.status = failure.error.isBadInput ? "invalid" : "failed"
            result.note = failure.description
            return result
        }
        if cancelled() {
            result.status = "interrupted"
            result.note = "stopped by a signal before the end of the data; not evaluated"
            return result
        }
        let input = runner.evaluationInput(outputs: outputs, outcome: outcome, scene: scene)
        var problems: [String] = []
        for name in run.evaluate {
            do {
                result.evaluations.append(Evaluated(evaluation: name, result: try evaluations.evaluate(name, input)))
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

    /// The bench's simulated face: MediaPipe's canonical face with irises (``FaceSimulator``'s
    /// motion and gaze), its landmarks with `noise` px of noise, seen by `camera` (default: a
    /// 640 × 480 pinhole, f = 600 px), written as a Parallax folder (`face0/landmarks`,
    /// `face0/anchor`).
    static func simulateFace(seconds: Double, seed: UInt64, noise: Double, camera: CameraCalibration?, into folder: URL) throws {
        var calibration = camera ?? CameraCalibration(model: CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 600, fy: 600, cx: 319.5, cy: 239.5)))
        calibration.bodyFromSensor = .identity
        var simulator = FaceSimulator(model: CanonicalFace.vertices, camera: calibration)
        simulator.pixelNoise = noise
        try ParallaxFolderWriter.write(simulator.packets(duration: seconds, seed: seed), streams: simulator.streams, to: folder.path)
    }

    /// The bench's simulated sequence: built-in orbit (or `following`, in a room around it),
    /// EuRoC calibration and noise, the room textured with `textures` (paths; an unreadable one is
    /// an error naming it), or with a seeded noise texture when none are given. Independent of
    /// the working directory. `cancelled` stops the rendering early (the folder is then short).
    @discardableResult
    static func simulate(seconds: Double, seed: UInt64, width: Int, still: Double = 0, stereo: Bool = false, following: SE3Spline? = nil,
                         cameras: [CameraCalibration] = [], textures texturePaths: [String], into folder: URL,
                         cancelled: () -> Bool = { false }) throws -> TexturedScene {
        let textures = try texturePaths.map { try ImageDecoder.decodeGray8(path: $0) }
        let simulator = SimulationPresets.eurocOrbit(seconds: seconds, seed: seed, width: width, still: still, stereo: stereo, following: following,
                                                     cameras: cameras, textures: textures)
        let sequence = try simulator.source()
        try ParallaxFolderWriter(path: folder.path).write(streaming: sequence, groundTruth: sequence.groundTruth, cancelled: cancelled)
        return simulator.scene
    }
}
