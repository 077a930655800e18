import Foundation
import Parallax

/// Runs a ``BenchSuite`` and produces its results.
public struct BenchRunner {
    /// One run's outcome. Metrics are deterministic; timing is not (kept apart).
    public struct Result: Codable {
        public var name: String
        public var dataset: String
        public var chain: String
        public var status: String               // ok | skipped | failed | invalid | interrupted
        public var note: String?
        public var packets: [String: Int] = [:]
        /// The evaluations asked for, in order, with what each found.
        public var evaluations: [Evaluated] = []
        public var timing: [RunReport.AnalyzerTiming] = []
        public var realtimeFactor: Double = 0
        /// What the run's analyzers said (its run.json's `notes` and `warnings`, each `source: …`:
        /// a calibration estimated, a start, features left out); nil in results of older versions.
        public var notes: [String]?
        public var warnings: [String]?
        /// A few camera frames with what the chain found on them, as the HTML report shows them
        /// (not in report.json; kept by shard files).
        public var framesHTML = ""
        /// The group of cases that differ by seed only (`seeds:`), nil for a case of its own.
        public var group: String?
        /// What the case ran on, for the results database (not in report.json; kept by shard files).
        public var provenance = Provenance()

        public enum CodingKeys: String, CodingKey { case name, group, dataset, chain, status, note, packets, evaluations, timing, realtimeFactor, notes, warnings }
    }

    /// Checksums of what a case ran: its chain and its data.
    public struct Provenance: Codable, Equatable {
        public var chainSHA256 = ""
        /// The chain file's git commit (`+dirty` when changed), empty when it is not in git.
        public var chainCommit = ""
        public var datasetSHA256 = ""
    }

    /// One evaluation of a run.
    public struct Evaluated: Codable {
        public var evaluation: String
        public var result: EvaluationResult
    }

    public let suite: BenchSuite
    /// Where simulated cases are written while they run.
    public let scratch: URL
    /// The analyzers chains are made of.
    public var registry: AnalyzerRegistry
    /// The evaluations cases name.
    public var evaluations: EvaluationRegistry
    public var progress: (String) -> Void = { _ in }
    /// How datasets are opened (a run's `groundtruth:` is added to it).
    public var datasetOptions = DatasetOptions()
    /// Polled while running: when true, the current run stops where it is (its result is
    /// marked `interrupted`) and no further run starts.
    public var cancelled: @Sendable () -> Bool = { false }
    /// Takes the checksums of each case's chain and data (for the results database).
    public var recordsProvenance = false

    /// A runner of `suite` with `plugins`' analyzers and evaluations, writing simulated data
    /// under `scratch`.
    public init(suite: BenchSuite, scratch: URL, plugins: PluginRegistry = BuiltinPlugins.registry) {
        self.suite = suite
        self.scratch = scratch
        self.registry = plugins.analyzers
        self.evaluations = plugins.evaluations
    }

    /// The results of the suite's runs (of those named in `cases`, when given), in suite order;
    /// only those that started when cancelled. `finished` is called after each.
    public func run(cases: Set<String>? = nil, finished: (Result) -> Void = { _ in }) -> [Result] {
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
                result = Result(name: r.name, dataset: r.dataset ?? "simulated", chain: r.chainDescription, status: "invalid", note: "\(error)")
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
        var result = Result(name: run.name, dataset: run.dataset ?? "simulated", chain: run.chainDescription, status: "ok")
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
            if let absent = simulation.dataFiles.first(where: { !FileManager.default.fileExists(atPath: $0) }) {
                result.status = "skipped"
                result.note = "\(absent == simulation.picture ? "picture" : "trajectory") not present on this machine: \(absent)"
                return result
            }
            // Inside this run's own scratch folder (the case's name made a file name: it cannot
            // leave it), so what is removed is what an earlier case of this run simulated.
            let folder = scratch.appendingPathComponent("sim-\(HTMLPages.fileName(run.name))")
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            result.dataset = Self.describe(simulation)
            scene = try simulation.write(to: folder, cancelled: cancelled).scene
            // A signal during the rendering (minutes for a long sequence) stops the case there.
            if cancelled() {
                result.status = "interrupted"
                result.note = "stopped by a signal while simulating; not run"
                return result
            }
            datasetPath = folder.path
        }
        var options = datasetOptions
        options.groundTruth = run.groundTruth
        options.calibrations += run.calibrations
        // `@scene/FILE` in the chain names a file of the case's data (a simulated picture).
        let runner = try ChainRunner(chain: run.chain, dataset: datasetPath, registry: registry, datasetOptions: options, overrides: run.overrides,
                                     references: ["scene": datasetPath])
        for applied in runner.source.appliedCalibrations { progress("\(run.name): \(applied)") }
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
        result.notes = outcome.report.notes.isEmpty ? nil : outcome.report.notes
        result.warnings = outcome.report.warnings.isEmpty ? nil : outcome.report.warnings
        // A signal first: the bus reports the stop it asked for as its failure ("run cancelled").
        if cancelled() {
            result.status = "interrupted"
            result.note = "stopped by a signal before the end of the data; not evaluated"
            return result
        }
        if let failure = outcome.failure {
            // An analyzer that found its option or data unusable is this case's bad input.
            result.status = failure.error.isBadInput ? "invalid" : "failed"
            result.note = failure.description
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

    /// How the report names a simulated case's data.
    static func describe(_ s: Scenario) -> String {
        switch s.scene {
        case .face: return String(format: "simulated face (%.0f s, seed %d, %.1f px)", s.seconds, s.seed, s.landmarkNoise)
        case .object: return String(format: "simulated object (%@, %g s, seed %d)", s.motion.rawValue, s.seconds, s.seed)
        case .room:
            return String(format: "simulated (%.0f s, seed %d%@)", s.seconds, s.seed, s.trajectory.map { ", along " + URL(fileURLWithPath: $0).lastPathComponent } ?? "")
        }
    }
}
