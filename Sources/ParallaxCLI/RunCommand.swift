import ArgumentParser
import Foundation
import ParallaxGeometry
import Parallax
import ParallaxFiles
import ParallaxCodecs
import ParallaxOutputs

/// `parallax run CHAIN DATASET --out DIR`.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a chain (YAML file or pipeline string) over a dataset folder.",
        discussion: """
        Writes DIR/events.jsonl (one line per output packet: stream, timestamp in ns, producer, payload), \
        every pose stream as a TUM trajectory (DIR/<stream>.tum, e.g. DIR/vio/pose.tum) \
        DIR/run.json (options, per-analyzer timing p50/p95/max, stream counts, skipped items, warnings) \
        and DIR/report.html (the same for a browser, with the first camera's frames at the start, middle and end and what the chain found on them). \
        DIR is finished atomically: the files are written into DIR.partial and take DIR's name only when the run \
        succeeds, so a failed or interrupted run keeps what it computed in DIR.partial and leaves a previous DIR as it was. \
        A DIR that parallax did not write (no .parallax-output inside) is never replaced; a DIR another command is writing is refused. \
        --mcap and --save-map files inside DIR are written with the run's results (DIR.partial until the run succeeds); \
        a folder where one of these files should go is refused before the run. \
        Ctrl-C, SIGTERM and SIGHUP stop cleanly: analyzers are closed and what was computed is written. \
        Exit status: 0 success, 1 the run failed, 2 bad usage or input, 128 + n stopped by signal n.
        """)

    @Argument(help: "A chain: a .yaml file, or a pipeline such as 'imu-integrator camera=cam0 ! stream-stats'.")
    var chain: String
    @Argument(help: "A dataset folder: EuRoC/ASL (mav0/cam0, mav0/imu0) or TUM RGB-D (rgb.txt, depth.txt).")
    var dataset: String
    @Option(name: .long, help: "Output folder (created if needed).")
    var out: String
    @Flag(name: .customLong("single-thread"), help: "Decode on the bus thread instead of worker threads (results are bit-identical either way; workers are ~1.8× faster on 2 cores).")
    var singleThread = false
    @Flag(name: .long, help: "Replay at sensor rate and drop frames when an analyzer falls behind.")
    var realtime = false
    @Flag(name: .long, help: "Treat a listed image that does not exist as an error instead of skipping it.")
    var strict = false
    @Option(name: .customLong("groundtruth"), help: ArgumentHelp("Ground truth from this trajectory file (TUM, or EuRoC CSV) instead of the dataset's own; also the 'groundtruth' stream for EuRoC, Parallax and image folders (TUM's ground truth is not a stream).", valueName: "file"))
    var groundTruth: String?
    @Option(name: .long, help: ArgumentHelp("Encoding of the PLY files point clouds are written to: binary (little-endian) or ascii.", valueName: "binary|ascii"))
    var ply: String = "binary"
    @Option(name: .long, help: ArgumentHelp("Also record the input streams and every analyzer output into this MCAP file for Foxglove (well-known schemas, JSON encoding; docs/foxglove.md).", valueName: "file.mcap"))
    var mcap: String?
    @Option(name: .customLong("save-map"), help: ArgumentHelp("Write the world map the chain built (vio with images=) to this file when the run ends (.pxmap, docs/world-maps.md); a later run relocalizes into it with vio map=FILE.", valueName: "file"))
    var saveMap: String?
    @Flag(name: .long, help: "No progress display.")
    var quiet = false
    @OptionGroup var input: InputOptions

    func run() throws {
        input.applyImageSizeLimit()
        guard let plyEncoding = PLYFile.Encoding(rawValue: ply) else {
            throw fail("--ply must be binary or ascii, got '\(ply)'", code: ExitCodes.badInput)
        }
        let runner: ChainRunner
        do {
            runner = try ChainRunner(chain: chain, dataset: dataset, registry: ParallaxCLI.registry,
                                     datasetOptions: input.datasetOptions(strict: strict, groundTruth: groundTruth))
        } catch {
            throw fail("\(error)", code: ExitCodes.badInput)
        }
        let chainSpec = runner.chain, source = runner.source, instances = runner.instances
        if saveMap != nil, !instances.contains(where: { $0.outputs.contains { $0.type == PayloadType(WorldMap.self) } }) {
            throw fail("--save-map: no analyzer in chain '\(chainSpec.name)' builds a world map; give vio the camera's images (vio images=cam0)", code: ExitCodes.badInput)
        }
        // Extra outputs are checked before anything is written (a folder where a file is
        // expected is refused); one named inside --out is written into its staging folder at the
        // same relative path, so the commit carries it rather than replacing it (OutputFolder.redirect).
        let ownFiles = ["events.jsonl", "run.json", "report.html"]
        // One outside --out is locked as --out is (FILE.lock, as `convert --to mcap` locks its
        // file): a second command writing the same file is refused, not handed this one's
        // staged file.
        var fileLocks: [OutputFolderLock] = []
        defer { for lock in fileLocks { lock.release() } }
        do {
            for (option, path, kind) in [("--mcap", mcap, MCAPWriter.fileKind), ("--save-map", saveMap, OutputPath.FileKind.worldMap)] {
                guard let path else { continue }
                try OutputPath.checkOutsideInputs(path, option: option, inputs: [dataset] + [groundTruth].compactMap { $0 }, ownFolder: out)
                if try OutputFolder.checkExtraOutput(path, out: out, option: option, kind: kind, reserved: ownFiles) == nil {
                    fileLocks.append(try OutputFolderLock(folder: path, option: option))
                }
            }
        } catch { throw fail("\(error)", code: ExitCodes.badInput) }
        if let mcap, let saveMap, OutputPath.canonical(mcap) == OutputPath.canonical(saveMap) {
            throw fail("--mcap and --save-map name the same file '\(mcap)': name two files", code: ExitCodes.badInput)
        }
        // Streams whose files could not be named are refused before the output folder is made.
        var writerRegistry = ParallaxCLI.plugins.outputWriters
        writerRegistry.register(PointCloud.self, OutputWriterRegistry.pointClouds(ply: plyEncoding))
        let outputStreams = instances.flatMap { $0.outputs.map { StreamDescription(name: $0.stream, type: $0.type) } }
        do { try writerRegistry.checkFileNames(of: outputStreams) } catch { throw fail("\(error)", code: ExitCodes.badInput) }
        let output = try CommandOutput(out, command: "parallax run", inputs: [dataset] + [groundTruth].compactMap { $0 })
        let outURL = output.url
        let mcapPath: String?, mapPath: String?
        do {
            mcapPath = try mcap.map { try output.folder.redirect($0, option: "--mcap", kind: MCAPWriter.fileKind, reserved: ownFiles) }
            mapPath = try saveMap.map { try output.folder.redirect($0, option: "--save-map", kind: .worldMap, reserved: ownFiles) }
        } catch { throw fail("\(error)", code: ExitCodes.badInput) }
        let eventsPath = outURL.appendingPathComponent("events.jsonl").path
        let events: LineFile
        do { events = try LineFile(path: eventsPath) } catch {
            throw fail("cannot write \(eventsPath)", code: ExitCodes.badInput)
        }
        // Each signal stops the run between timestamp groups; what was computed is flushed and
        // run.json says which signal came; the exit status is 128 + its number.
        Interruption.install()
        let display = quiet ? nil : ProgressDisplay(spanning: source.listing.stamps.values.joined())
        // Analyzer outputs with a file format of their own (pose streams → TUM) get a writer.
        let fileWriters: [String: any StreamFileWriter]
        do {
            fileWriters = try writerRegistry.writers(for: outputStreams, in: outURL)
        } catch let error as OutputPath.RefusedError {
            throw fail("\(error)", code: ExitCodes.badInput)
        } catch {
            throw fail("cannot write into '\(out)': \(error.localizedDescription)", code: ExitCodes.badInput)
        }
        var recorder: FoxgloveRecorder?
        if let mcapPath {
            do { recorder = try FoxgloveRecorder(path: mcapPath) } catch { throw fail("\(error)", code: ExitCodes.badInput) }
        }
        let foxglove = recorder
        var html = RunHTMLReport(source: source)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var buffered = Data()
        var unencodable: [String: Int] = [:]
        let writers = fileWriters
        var builtMap: WorldMap?
        let sink: FrameBus.Sink = { producer, packet in
            let (line, encoded) = EventLine.encode(packet, producer: producer, encoder: encoder)
            if !encoded { unencodable[producer, default: 0] += 1 }
            buffered.append(line)
            if buffered.count > 1 << 16 {
                do { try events.append(buffered) } catch { throw OutputError(path: eventsPath, error: error) }
                buffered.removeAll(keepingCapacity: true)
            }
            try writers[packet.stream]?.write(packet)
            if let map = packet.payload as? WorldMap { builtMap = map }
            try foxglove?.record(packet)
            html.overlays.output(packet)
        }
        var options = ChainRunner.Options()
        options.prefetch = !singleThread
        options.realtime = realtime
        let outcome: ChainRunner.Outcome
        do {
            outcome = try runner.run(options: options, cancelled: { Interruption.requested }, progress: display.map { d in { d.update($0) } }, sink: sink,
                                     inputs: { packet in
                                         try foxglove?.record(packet)
                                         html.overlays.input(packet)
                                     })
        } catch {
            throw fail("\(error)", code: ExitCodes.badInput)
        }
        var report = outcome.report
        let failure = outcome.failure
        display?.finish()
        var problems: [String] = []
        do { try events.append(buffered); try events.close() } catch {
            problems.append("\(OutputError(path: eventsPath, error: error))")
        }
        for (stream, writer) in fileWriters.sorted(by: { $0.key < $1.key }) {
            do {
                try writer.finish()
                report.warnings += writer.warnings.map { "\(stream): \($0)" }
            } catch {
                problems.append("\(stream): could not finish its file: \(OutputFolder.reason(error))")
            }
        }
        // Extra files outside --out take their names only when the run succeeded, as --out does:
        // after a failure or a signal they stay whole under NAME.partial and an earlier NAME is
        // kept. (Those inside --out are in its staging folder, which the commit decides on.)
        let succeeded = failure == nil && !Interruption.requested && problems.isEmpty
        let insideStaging = { (path: String) in OutputPath.relative(path, inside: output.folder.staging.path) != nil }
        if let recorder, let mcap, let mcapPath {
            // Finished whatever happened: what was recorded stays readable.
            let commit = succeeded || insideStaging(mcapPath)
            do {
                try recorder.finish(commit: commit)
                if !commit { report.warnings.append("--mcap: the run did not finish; what was recorded is in '\(recorder.stagedPath)' ('\(mcap)' is as it was)") }
                for (stream, n) in recorder.skipped.sorted(by: { $0.key < $1.key }) {
                    report.warnings.append("\(stream): \(n) packet(s) have no Foxglove or JSON form; not in \(mcap)")
                }
            } catch {
                problems.append("\(error)")
            }
        }
        for (producer, count) in unencodable.sorted(by: { $0.key < $1.key }) {
            report.warnings.append("\(producer): \(count) output(s) had values JSON cannot hold (NaN or infinity); written as null in events.jsonl")
        }
        for (camera, count) in source.missingImages.sorted(by: { $0.key < $1.key }) {
            report.warnings.insert("\(camera): \(count) image(s) listed in data.csv do not exist; skipped (use --strict to fail)", at: 0)
        }
        // What the reader noticed at open (a file cut short, a stream not read, times repeated).
        report.warnings.insert(contentsOf: source.notes, at: 0)
        if let saveMap, let mapPath {
            // Written whatever happened: a map built before a failure or a signal is not lost.
            // Staged beside its name and renamed into place (OutputPath: never onto a folder).
            if let builtMap {
                do {
                    try Data(WorldMapFile.encode(builtMap)).write(to: URL(fileURLWithPath: OutputPath.staged(mapPath)))
                    if succeeded || insideStaging(mapPath) {
                        try OutputPath.commit(OutputPath.staged(mapPath), to: mapPath)
                        report.warnings.append("world map written to \(saveMap): \(builtMap.keyframes.count) keyframe(s), \(builtMap.points.count) point(s)")
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
        do {
            try RunFile.write(report: report, chain: chainSpec, instances: instances, dataset: dataset, interrupted: Interruption.name,
                              to: outURL.appendingPathComponent("run.json"))
        } catch {
            problems.append("\(OutputError(path: outURL.appendingPathComponent("run.json").path, error: error))")
        }
        do {
            try html.write(chain: chainSpec.name, dataset: dataset, format: source.formatName, report: report, interrupted: Interruption.name,
                           to: outURL.appendingPathComponent("report.html"))
        } catch {
            problems.append("\(OutputError(path: outURL.appendingPathComponent("report.html").path, error: error))")
        }
        RunSummary.printWarnings(report.warnings)
        for line in RunSummary.dropLines(report) { FileHandle.standardError.write(Data("parallax: \(line)\n".utf8)) }
        let errors = (failure.map { ["\($0)"] } ?? []) + problems
        if Interruption.requested {
            // Stopped by a signal: say what went wrong too, then keep the partial results.
            for e in errors { _ = fail(e, code: ExitCodes.runFailed) }
        } else if !errors.isEmpty {
            throw output.failed(errors.joined(separator: "; "), badInput: failure?.error.isBadInput == true)
        }
        try output.finish()
        let frames = report.streams.filter { $0.type == "CameraFrame" }.map { "\($0.packets) \($0.stream)" }.joined(separator: ", ")
        print("ran '\(chainSpec.name)' over \(String(format: "%.2f", report.datasetSeconds)) s of data (\(frames)) in \(String(format: "%.2f", report.wallSeconds)) s (\(String(format: "%.1f", report.realtimeFactor))× real time); wrote \(out)/events.jsonl, run.json and report.html")
    }
}

/// One line of `events.jsonl`.
enum EventLine {
    /// The line, and whether the payload was written as it should be: a payload that is not
    /// `Encodable` (images, depth maps, point clouds: they have files of their own) is written
    /// as `null` by design; one that holds values JSON cannot (NaN, infinity) is written as
    /// `null` too, never as a placeholder, and reported (`encoded` false).
    static func encode(_ packet: AnyPacket, producer: String, encoder: JSONEncoder) -> (line: Data, encoded: Bool) {
        var line = Data("{\"stream\":\(quote(packet.stream)),\"t\":\(packet.timestamp.nanoseconds),\"producer\":\(quote(producer)),\"payload\":".utf8)
        var encoded = true
        if let e = packet.payload as? any Encodable {
            if let body = try? encoder.encode(e) {
                line.append(body)
            } else {
                line.append(Data("null".utf8))
                encoded = false
            }
        } else {
            line.append(Data("null".utf8))
        }
        line.append(Data("}\n".utf8))
        return (line, encoded)
    }

    /// `s` as a JSON string (slashes not escaped: `"cam0/tracks"`).
    static func quote(_ s: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: (try? encoder.encode(s)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}

/// `run.json`: what ran, on what, how fast.
enum RunFile {
    struct Contents: Encodable {
        var parallaxVersion = ParallaxCLI.version
        var chain: String
        var dataset: String
        var analyzers: [[String: String]]
        var report: RunReport
        /// The signal that stopped the run early (`SIGINT`, `SIGTERM`, `SIGHUP`); absent when it ran to the end.
        var interrupted: String?
    }

    static func write(report: RunReport, chain: Chain, instances: [AnalyzerInstance], dataset: String, interrupted: String? = nil,
                      to url: URL) throws {
        let analyzers = instances.map { i in
            ["instance": i.name, "analyzer": i.typeName,
             "options": i.optionSummary.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(Contents(chain: chain.name, dataset: dataset, analyzers: analyzers, report: report, interrupted: interrupted)).write(to: url, options: .atomic)
    }
}
