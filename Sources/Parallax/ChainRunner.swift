import Foundation

/// Runs one chain over one dataset folder: the library behind `parallax run`, `parallax bench`
/// and parameter sweeps, so they load, wire and run alike.
///
/// ```swift
/// let runner = try ChainRunner(chain: "klt ! triangulate", dataset: "datasets/euroc_v1_01_cut")
/// let outcome = runner.run { producer, packet in … }      // or runCollecting()
/// ```
/// Making the runner reads the chain and the dataset and wires them: every error there is bad
/// input and names the file, line, option or stream. A runner runs once (analyzers keep state).
public final class ChainRunner {
    /// How to run.
    public struct Options: Sendable {
        /// Decode images on worker threads (bit-identical results).
        public var prefetch = true
        /// Replay at sensor rate, dropping triggers an analyzer cannot keep up with.
        public var realtime = false
        public init() {}
    }

    /// What a run did.
    public struct Outcome {
        /// Timing, counts, warnings (also for a failed run: what was done up to the failure).
        public var report: RunReport
        /// Every stream's metadata after the run.
        public var metadata: [String: StreamMetadata]
        /// Why the run stopped early, if it did.
        public var failure: FrameBusFailure?
    }

    public let chain: Chain
    public let source: any DatasetSource
    public let datasetPath: String
    public let instances: [AnalyzerInstance]

    /// Loads `chain` (a YAML file or a pipeline string) and the dataset folder `dataset` (opened
    /// as `datasetOptions` say: strictness, image-folder rate, ground truth from a file), and
    /// wires the analyzers from `registry` to the dataset's streams.
    /// `overrides` (`--set`) change options of the chain's analyzers, checked as the chain's own.
    /// `references` name folders the chain's option values may start paths with: `["scene":
    /// "/tmp/sim"]` turns `reference=[@scene/picture.png]` into `/tmp/sim/picture.png` (a
    /// bench case names its simulated data's own files so).
    public init(chain: String, dataset: String, registry: AnalyzerRegistry = BuiltinAnalyzers.registry,
                datasetOptions: DatasetOptions = .builtin(), overrides: [OptionOverride] = [], references: [String: String] = [:]) throws {
        self.chain = try Chain.load(chain).applying(overrides, registry: registry).resolvingReferences(references)
        self.source = try DatasetFolder.open(dataset, options: datasetOptions)
        // A dataset with nothing to read (a bag whose every message is of a type Parallax does
        // not read) is the dataset's fault, said with what was skipped, not a chain that reads
        // a stream nobody produces.
        guard !source.streams.isEmpty || source.groundTruth != nil else {
            throw DatasetError.notADataset(path: dataset, expected: "at least one stream Parallax reads"
                                           + (source.notes.isEmpty ? "" : " (\(source.notes.joined(separator: "; ")))"))
        }
        self.datasetPath = dataset
        self.instances = try self.chain.instantiate(registry: registry, sourceStreams: source.streams)
    }

    /// Runs `chain` over an already opened `source` (a dataset wrapped in another video format,
    /// for instance); `datasetPath` names it for evaluations; `overrides` as above.
    public init(chain: String, source: any DatasetSource, datasetPath: String, registry: AnalyzerRegistry = BuiltinAnalyzers.registry,
                overrides: [OptionOverride] = []) throws {
        self.chain = try Chain.load(chain).applying(overrides, registry: registry).resolvingReferences([:])
        self.source = source
        self.datasetPath = datasetPath
        self.instances = try self.chain.instantiate(registry: registry, sourceStreams: source.streams)
    }

    /// Runs to the end (or to `cancelled()`), handing every output to `sink` in deterministic
    /// order; `progress` sees each timestamp group.
    public func run(options: Options = Options(), cancelled: (@Sendable () -> Bool)? = nil, progress: ((Timestamp) -> Void)? = nil,
                    sink: @escaping FrameBus.Sink = { _, _ in }, inputs: ((AnyPacket) throws -> Void)? = nil) throws -> Outcome {
        // Under `ulimit -v`, a limit with no room for BLAS's buffer or for data fails here, before
        // any data is read: analyzers would take every failed solve for "nothing found".
        try AddressSpace.requireRoomForRun()
        let bus = try FrameBus(sources: [source], analyzers: instances,
                               options: .init(mode: options.realtime ? .realtime : .offline, prefetch: options.prefetch))
        if let cancelled { bus.setCancellation(cancelled) }
        if let progress { bus.setProgress(progress) }
        do {
            let report = try bus.run(sink: sink, inputs: inputs)
            return Outcome(report: report, metadata: bus.streamMetadata, failure: nil)
        } catch let failure as FrameBusFailure {
            return Outcome(report: failure.report, metadata: bus.streamMetadata, failure: failure)
        }
    }

    /// Runs to the end and returns every output with the outcome.
    public func runCollecting(options: Options = Options(), cancelled: (@Sendable () -> Bool)? = nil) throws -> (outcome: Outcome, outputs: [AnyPacket]) {
        var outputs: [AnyPacket] = []
        let outcome = try run(options: options, cancelled: cancelled, sink: { _, packet in outputs.append(packet) })
        return (outcome, outputs)
    }

    /// The evaluation input for this run's `outputs` (for ``Evaluation``s).
    public func evaluationInput(outputs: [AnyPacket], outcome: Outcome, scene: TexturedScene? = nil) -> EvaluationInput {
        EvaluationInput(outputs: outputs, metadata: outcome.metadata, dataset: source, datasetPath: datasetPath, scene: scene)
    }
}
