import ArgumentParser
import Foundation
import ParallaxApp
import ParallaxGeometry
import Parallax
import ParallaxFiles
import ParallaxCodecs
import ParallaxOutputs

/// `parallax run CHAIN DATASET --out DIR`.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a chain (YAML file or pipeline string) over a dataset (a folder or file).",
        discussion: """
        Writes DIR/events.jsonl (one line per output packet: stream, timestamp in ns, producer, payload), \
        every pose stream as a TUM trajectory (DIR/<stream>.tum, e.g. DIR/vio/pose.tum) \
        DIR/run.json (options, --set values and every option the analyzers ran with, per-analyzer timing p50/p95/max, stream counts, skipped items, warnings and notes) \
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
    @Argument(help: DatasetArgumentHelp.help("The dataset to run the chain over"))
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
    @OptionGroup var setOptions: OptionOverrideOptions
    @OptionGroup var input: InputOptions
    @OptionGroup var python: PythonOptions

    func run() throws { try python.applying { try runWithPlugins() } }

    private func runWithPlugins() throws {
        input.applyImageSizeLimit()
        guard let plyEncoding = PLYFile.Encoding(rawValue: ply) else {
            throw fail("--ply must be binary or ascii, got '\(ply)'", code: ExitCodes.badInput)
        }
        var settings = RunSession.Settings(chain: chain, dataset: dataset, out: out,
                                           datasetOptions: input.datasetOptions(strict: strict, groundTruth: groundTruth), plugins: ParallaxCLI.plugins)
        settings.overrides = setOptions.overrides
        settings.prefetch = !singleThread
        settings.realtime = realtime
        settings.ply = plyEncoding
        settings.mcap = mcap
        settings.saveMap = saveMap
        // Each signal stops the run between timestamp groups; what was computed is flushed and
        // run.json says which signal came; the exit status is 128 + its number. Installed before
        // the session starts the chain: a Python worker's start may take long, and Ctrl-C then
        // ends it at once.
        Interruption.install()
        let session: RunSession
        do { session = try RunSession(settings) } catch {
            if Interruption.requested {
                throw fail("\(Interruption.name ?? "signal \(Interruption.received)"): stopped before the run began; nothing was written", code: Interruption.exitCode)
            }
            throw fail(error)
        }
        // Said before the run: which files replaced or supplied which stream's calibration.
        for applied in session.runner.source.appliedCalibrations { StandardError.write(Data("parallax: \(applied)\n".utf8)) }
        // …and which options an analyzer took because its consumer asked (the chain gave none).
        for i in session.runner.instances { for p in i.preferred { StandardError.write(Data("parallax: note: \(i.name): \(p)\n".utf8)) } }
        let display = quiet ? nil : ProgressDisplay(spanning: session.runner.source.listing.stamps.values.joined())
        let finished: RunSession.Finished
        do { finished = try session.run(progress: display.map { d in { d.update($0) } }) } catch { throw fail(error) }
        display?.finish()
        let report = finished.report
        RunSummary.printNotes(report.notes)
        // A warning that is also why the run failed is said once, as the error (run.json keeps both).
        RunSummary.printWarnings(report.warnings.filter { !finished.errors.contains($0) })
        for line in RunSummary.dropLines(report) { StandardError.write(Data("parallax: \(line)\n".utf8)) }
        // Stopped by a signal: say what went wrong too, then keep the partial results.
        if Interruption.requested { for e in finished.errors { _ = fail(e, code: ExitCodes.runFailed) } }
        do { try finished.commit() } catch { throw fail(error) }
        // The camera frames read, or with no camera every stream the source gave (an IMU log).
        let cameras = report.streams.filter { $0.type == "CameraFrame" }
        let read = cameras.isEmpty ? report.streams.filter { session.runner.source.listing.stamps[$0.stream] != nil } : cameras
        let frames = read.map { "\($0.packets) \($0.stream)" }.joined(separator: ", ")
        print("ran '\(session.runner.chain.name)' over \(String(format: "%.2f", report.datasetSeconds)) s of data (\(frames)) in \(String(format: "%.2f", report.wallSeconds)) s (\(String(format: "%.1f", report.realtimeFactor))× real time); wrote \(out)/events.jsonl, run.json and report.html")
    }
}

