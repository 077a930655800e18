import Foundation
import Parallax
import ParallaxFiles
import ParallaxCodecs
import ParallaxOutputs

/// One `parallax run`: a chain over a dataset into an output folder, as a library.
///
/// ```swift
/// var settings = RunSession.Settings(chain: "klt ! vio", dataset: "MH_01", out: "out/mh01")
/// let session = try RunSession(settings)       // everything checked, the folder staged
/// let finished = try session.run()             // the chain runs; files are finished
/// try finished.commit()                        // DIR.partial takes DIR's name
/// ```
///
/// Everything that can be checked is checked before anything is written (the chain wires, the
/// output names can be files, `--mcap`/`--save-map` are not folders or inputs): those failures
/// are bad input. Once running, whatever happens, `events.jsonl`, the stream files, `run.json`
/// and `report.html` are finished in the staging folder; ``Finished/commit()`` moves them into
/// place only when the run succeeded.
public final class RunSession {
    /// What to run, on what, into where.
    public struct Settings {
        /// A YAML chain file or a pipeline string.
        public var chain: String
        /// Options of the chain's analyzers set from the command line (`--set vio.map=place.pxmap`),
        /// checked as the chain's own and recorded in `run.json`.
        public var overrides: [OptionOverride] = []
        /// A dataset folder or file (any format the plugins read).
        public var dataset: String
        /// The output folder.
        public var out: String
        /// Decode on worker threads (bit-identical results either way).
        public var prefetch = true
        /// Replay at sensor rate and drop frames an analyzer cannot keep up with.
        public var realtime = false
        /// How the dataset is opened (its `groundTruth` file is an input too).
        public var datasetOptions: DatasetOptions
        /// The encoding of point-cloud files.
        public var ply = PLYFile.Encoding.binary
        /// An MCAP recording of inputs and outputs to write (Foxglove).
        public var mcap: String?
        /// Where to write the world map the chain builds.
        public var saveMap: String?
        /// The analyzers, formats, writers and evaluations available.
        public var plugins: PluginRegistry

        public init(chain: String, dataset: String, out: String, datasetOptions: DatasetOptions = .builtin(), plugins: PluginRegistry = BuiltinPlugins.registry) {
            self.chain = chain
            self.dataset = dataset
            self.out = out
            self.datasetOptions = datasetOptions
            self.plugins = plugins
        }
    }

    /// The files the run itself writes into the output folder.
    public static let ownFiles = ["events.jsonl", "run.json", "report.html"]

    public let settings: Settings
    /// The wired chain and the opened dataset.
    public let runner: ChainRunner
    /// The staged output folder.
    public let output: StagedOutput
    private let recorder: RunRecorder
    private let mcapPath: String?
    private let mapPath: String?
    /// Locks on the extra files outside the output folder, released when the session ends.
    private let fileLocks: [OutputFolderLock]

    /// Checks everything and stages the output folder; throws bad input naming what is wrong.
    public init(_ settings: Settings) throws(AppFailure) {
        self.settings = settings
        let inputs = [settings.dataset] + [settings.datasetOptions.groundTruth].compactMap { $0 } + settings.datasetOptions.calibrations.map(\.file)
        do {
            runner = try ChainRunner(chain: settings.chain, dataset: settings.dataset, registry: settings.plugins.analyzers, datasetOptions: settings.datasetOptions,
                                     overrides: settings.overrides)
        } catch {
            throw .badInput(error)
        }
        let instances = runner.instances
        if settings.saveMap != nil, !instances.contains(where: { $0.outputs.contains { $0.type == PayloadType(WorldMap.self) } }) {
            throw AppFailure("--save-map: no analyzer in chain '\(runner.chain.name)' builds a world map; give vio the camera's images (vio images=cam0)", status: .badInput)
        }
        // Extra outputs are checked before anything is written (a folder where a file is
        // expected is refused); one named inside --out is written into its staging folder at the
        // same relative path, so the commit carries it rather than replacing it (OutputFolder.redirect).
        // One outside --out is locked as --out is (FILE.lock, as `convert --to mcap` locks its
        // file): a second command writing the same file is refused, not handed this one's
        // staged file.
        if let mcap = settings.mcap, let saveMap = settings.saveMap {
            // Before the locks: the second would find the first's and blame another command. Each
            // file also uses FILE.partial (staged) and FILE.lock: the other may name neither.
            func uses(_ path: String) -> Set<String> { Set([path, OutputPath.staged(path), path + ".lock"].map(OutputPath.canonical)) }
            if OutputPath.canonical(mcap) == OutputPath.canonical(saveMap) {
                throw AppFailure("--mcap and --save-map name the same file '\(mcap)': name two files", status: .badInput)
            }
            if !uses(mcap).isDisjoint(with: uses(saveMap)) {
                throw AppFailure("--mcap '\(mcap)' and --save-map '\(saveMap)': one names the other's staging or lock file (FILE.partial, FILE.lock): name two unrelated files",
                                 status: .badInput)
            }
        }
        var locks: [OutputFolderLock] = []
        do {
            for (option, path, kind) in [("--mcap", settings.mcap, MCAPWriter.fileKind), ("--save-map", settings.saveMap, OutputPath.FileKind.worldMap)] {
                guard let path else { continue }
                try OutputPath.checkOutsideInputs(path, option: option, inputs: inputs, ownFolder: settings.out)
                if try OutputFolder.checkExtraOutput(path, out: settings.out, option: option, kind: kind, reserved: Self.ownFiles) == nil {
                    locks.append(try OutputFolderLock(folder: path, option: option))
                }
            }
        } catch {
            for lock in locks { lock.release() }
            throw error is OutputFolder.UnwritableError ? AppFailure("\(error)", status: .failed) : .badInput(error)
        }
        fileLocks = locks
        // From here on, a failure releases the locks taken (deinit does not run for an
        // initializer that throws).
        do throws(AppFailure) {
            // Streams whose files could not be named are refused before the output folder is made.
            var writerRegistry = settings.plugins.outputWriters
            writerRegistry.register(PointCloud.self, OutputWriterRegistry.pointClouds(ply: settings.ply))
            let outputStreams = instances.flatMap { $0.outputs.map { StreamDescription(name: $0.stream, type: $0.type) } }
            // …and so are streams whose files would take the place of the run's own files.
            let reserved = Set(Self.ownFiles + [OutputFolder.markerName])
            var extras: [String: String] = [:]
            for (option, extra) in [("--mcap", settings.mcap), ("--save-map", settings.saveMap)] {
                if let extra, let inside = OutputPath.relative(extra, inside: settings.out), !inside.isEmpty { extras[option] = inside }
            }
            do { try writerRegistry.checkFileNames(of: outputStreams, reserved: reserved, extras: extras) } catch { throw .badInput(error) }
            let output = try StagedOutput(settings.out, command: "parallax run", inputs: inputs)
            self.output = output
            let mcapPath: String?
            do {
                mcapPath = try settings.mcap.map { try output.folder.redirect($0, option: "--mcap", kind: MCAPWriter.fileKind, reserved: Self.ownFiles) }
                mapPath = try settings.saveMap.map { try output.folder.redirect($0, option: "--save-map", kind: .worldMap, reserved: Self.ownFiles) }
            } catch { throw .badInput(error) }
            self.mcapPath = mcapPath
            let eventsPath = output.url.appendingPathComponent("events.jsonl").path
            // Analyzer outputs with a file format of their own (pose streams → TUM) get a writer.
            let fileWriters: [String: any StreamFileWriter]
            do {
                fileWriters = try writerRegistry.writers(for: outputStreams, in: output.url)
            } catch let error as OutputPath.RefusedError {
                throw .badInput(error)
            } catch {
                throw AppFailure("cannot write into '\(settings.out)': \(error.localizedDescription)", status: .badInput)
            }
            var foxglove: FoxgloveRecorder?
            if let mcapPath {
                do { foxglove = try FoxgloveRecorder(path: mcapPath) } catch { throw .badInput(error) }
            }
            do {
                recorder = try RunRecorder(folder: output.url, writers: fileWriters, foxglove: foxglove, source: runner.source)
            } catch {
                throw AppFailure("cannot write \(eventsPath)", status: .badInput)
            }
        } catch {
            for lock in locks { lock.release() }
            throw error
        }
    }

    deinit { for lock in fileLocks { lock.release() } }

    /// How a run ended: its report (warnings included), the errors that failed it, and the
    /// commit that moves the results into place.
    public struct Finished {
        public var report: RunReport
        /// The chain's failure and the files that could not be written, in order.
        public var errors: [String]
        /// Whether the chain's failure is the input's fault (exit 2 rather than 1).
        public var failureIsBadInput: Bool
        public let output: StagedOutput
        /// Holds the session (and its locks on extra files) until the commit.
        let session: RunSession

        /// Moves the results into place when the run succeeded; otherwise throws the failure
        /// (saying where the partial results are), or the signal that stopped it.
        public func commit() throws(AppFailure) {
            if !Interruption.requested, !errors.isEmpty {
                output.folder.keepUnfinished()   // everything is written: the partial results are listed
                throw output.failed(errors.joined(separator: "; "), badInput: failureIsBadInput)
            }
            try output.finish()
        }
    }

    /// Runs the chain to the end of the data (or until a signal: ``Interruption``), then writes
    /// everything: each stream's file, `events.jsonl`, the MCAP recording and world map (staged
    /// when the run did not succeed), `run.json` and `report.html`. `progress` sees each
    /// timestamp group.
    public func run(progress: ((Timestamp) -> Void)? = nil) throws(AppFailure) -> Finished {
        var options = ChainRunner.Options()
        options.prefetch = settings.prefetch
        options.realtime = settings.realtime
        let recorder = self.recorder
        let outcome: ChainRunner.Outcome
        do {
            outcome = try runner.run(options: options, cancelled: { Interruption.requested }, progress: progress,
                                     sink: { producer, packet in try recorder.output(producer: producer, packet: packet) },
                                     inputs: { packet in try recorder.input(packet) })
        } catch {
            throw .badInput(error)
        }
        var report = outcome.report
        let failure = outcome.failure
        // Extra files outside --out take their names only when the run succeeded, as --out does:
        // after a failure or a signal they stay whole under NAME.partial and an earlier NAME is
        // kept. (Those inside --out are in its staging folder, which the commit decides on.)
        let insideStaging = { (path: String) in OutputPath.relative(path, inside: self.output.folder.staging.path) != nil }
        var problems = recorder.finish(report: &report, runSucceeded: failure == nil && !Interruption.requested,
                                       recordingInsideStaging: mcapPath.map(insideStaging) ?? false, recordingName: settings.mcap)
        let succeeded = failure == nil && !Interruption.requested && problems.isEmpty
        let source = runner.source
        for (camera, count) in source.missingImages.sorted(by: { $0.key < $1.key }) {
            report.warnings.insert("\(camera): \(count) image(s) listed in data.csv do not exist; skipped (use --strict to fail)", at: 0)
        }
        // What the reader noticed at open (a file cut short, a stream not read, times repeated).
        report.warnings.insert(contentsOf: source.notes, at: 0)
        if let saveMap = settings.saveMap, let mapPath {
            // Written whatever happened: a map built before a failure or a signal is not lost.
            // Staged beside its name and renamed into place (OutputPath: never onto a folder).
            if let builtMap = recorder.builtMap {
                do {
                    try Data(WorldMapFile.encode(builtMap)).write(to: URL(fileURLWithPath: OutputPath.staged(mapPath)))
                    if succeeded || insideStaging(mapPath) {
                        try OutputPath.commit(OutputPath.staged(mapPath), to: mapPath)
                        report.notes.append("--save-map: world map written to \(saveMap): \(builtMap.keyframes.count) keyframe(s), \(builtMap.points.count) point(s)")
                    } else {
                        report.warnings.append("--save-map: the run did not finish; the map built so far (\(builtMap.keyframes.count) keyframe(s), \(builtMap.points.count) point(s)) "
                                               + "is in '\(OutputPath.staged(mapPath))' ('\(saveMap)' is as it was)")
                    }
                } catch {
                    problems.append("--save-map: cannot write \(saveMap): \(error is OutputPath.CommitError ? "\(error)" : OutputFolder.reason(error))")
                }
            } else {
                problems.append("--save-map: the chain ended without a world map; \(saveMap) not written")
            }
        }
        report.warnings.append(contentsOf: problems)
        let outURL = output.url
        do {
            try RunFile.write(report: report, chain: runner.chain, instances: runner.instances, dataset: settings.dataset, overrides: settings.overrides,
                              calibrations: source.appliedCalibrations, interrupted: Interruption.name,
                              to: outURL.appendingPathComponent("run.json"))
        } catch {
            problems.append("\(OutputError(path: outURL.appendingPathComponent("run.json").path, error: error))")
        }
        do {
            // What the chain ran with beyond its file: each analyzer's options (the `--set`s in
            // place, a consumer's preferences), and the calibrations given.
            let configuration = runner.instances.enumerated().map { k, i in
                let remap = k < runner.chain.nodes.count ? runner.chain.nodes[k].remap : [:]
                return ("analyzer \(i.name)", (i.optionSummary.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                                                 + remap.sorted { $0.key < $1.key }.map { "\($0.key)=@\($0.value)" }).joined(separator: " ")
                        + i.preferred.map { "; \($0)" }.joined())
            } + settings.overrides.map { ("--set", $0.description) } + source.appliedCalibrations.map { ("--calibration", $0.description) }
            try recorder.html.write(chain: runner.chain.name, dataset: settings.dataset, format: source.formatName, report: report, interrupted: Interruption.name,
                                    configuration: configuration, to: outURL.appendingPathComponent("report.html"))
        } catch {
            problems.append("\(OutputError(path: outURL.appendingPathComponent("report.html").path, error: error))")
        }
        // One error said once: a file writer that failed the run (a full disk under --mcap) fails
        // its finish with the same error again.
        var errors: [String] = []
        for e in (failure.map { ["\($0)"] } ?? []) + problems where !errors.contains(e) { errors.append(e) }
        return Finished(report: report, errors: errors, failureIsBadInput: failure?.error.isBadInput == true, output: output, session: self)
    }
}
