import ArgumentParser
import Foundation
import ParallaxApp
import ParallaxGeometry
import Parallax
import ParallaxFetch
import ParallaxResults
import ParallaxFiles

/// `parallax bench SUITE.yaml --out DIR`: chains × datasets, evaluated, reported; or one case
/// straight from the command line (`--chain … --dataset … --evaluate trajectory --json`), as
/// evo evaluates one file pair.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run a benchmark suite or one case (bench [run] …), merge shards of a suite (bench merge …), compare and plot recorded results (parallax results).",
        subcommands: [BenchRunCommand.self, BenchMergeCommand.self],
        defaultSubcommand: BenchRunCommand.self)
}

/// `parallax bench [run] SUITE.yaml --out DIR` (the default of `bench`).
struct BenchRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a benchmark suite (chains × datasets) or one case, evaluate against ground truth, write report.md, report.json and SVG plots.",
        discussion: "Metrics are deterministic: the same suite gives the same numbers on every run. Timings are reported separately. Evaluations: "
            + ParallaxCLI.plugins.evaluations.summaries.map { "\($0.name) (\($0.summary))" }.joined(separator: "; ") + ".")

    @Argument(help: "Suite file (YAML), e.g. bench/default.yaml. Omit it to run one case with --chain and --dataset.") var suite: String?
    @Option(name: .long, help: "One case: the chain (YAML file or pipeline string).") var chain: String?
    @Option(name: .long, help: DatasetArgumentHelp.help("One case: the dataset", valueName: "dataset")) var dataset: String?
    @Option(name: .long, help: "One case: evaluations, comma-separated (e.g. trajectory).") var evaluate: String?
    @Option(name: .customLong("groundtruth"), help: ArgumentHelp("One case: ground truth from this trajectory file instead of the dataset's own.", valueName: "file"))
    var groundTruth: String?
    @Flag(name: .long, help: "Print the results as JSON on standard output (metrics and timing) instead of a summary.") var json = false
    @Option(name: .long, help: "Output folder.") var out: String = "out/bench"
    @Flag(name: .long, help: "No progress lines.") var quiet = false
    @Option(name: .long, help: ArgumentHelp("Run the K-th of N shares of the suite's cases (1 ≤ K ≤ N; balanced by estimated cost, the same on every machine) and write shard.json for `parallax bench merge`. Run again with the same --out after an interruption: finished cases are kept.", valueName: "K/N"),
            transform: { text in do { return try ShardSpec(parsing: text) } catch { throw ValidationError("\(error)") } })
    var shard: ShardSpec?
    @OptionGroup var setOptions: OptionOverrideOptions
    @OptionGroup var recording: RecordingOptions
    @OptionGroup var input: InputOptions

    func validate() throws {
        if suite == nil, chain == nil || dataset == nil {
            throw ValidationError("give a suite file, or --chain and --dataset for one case")
        }
        if suite != nil, chain != nil || dataset != nil || evaluate != nil {
            throw ValidationError("--chain, --dataset and --evaluate run one case without a suite file; give one or the other")
        }
        if suite != nil, !input.calibrations.isEmpty {
            throw ValidationError("--calibration is for one case (--chain, --dataset); in a suite, give it in the case: calibration: {cam0: FILE}")
        }
        if suite != nil, !setOptions.texts.isEmpty {
            throw ValidationError("--set changes the chain of one case (--chain); a suite's cases take their options in the suite file")
        }
        if shard != nil, suite == nil { throw ValidationError("--shard shares out a suite file's cases: give the suite") }
        try recording.checkOutside(out: out)
    }

    @OptionGroup var python: PythonOptions

    func run() throws { try python.applying { try runWithPlugins() } }

    private func runWithPlugins() throws {
        input.applyImageSizeLimit()
        let spec: BenchSuite
        do {
            if let suite {
                spec = try BenchSuite.load(suite, evaluations: ParallaxCLI.plugins.evaluations)
            } else {
                spec = try BenchSuite.oneCase(chain: chain ?? "", dataset: dataset ?? "", evaluate: evaluate ?? "", groundTruth: groundTruth,
                                              overrides: setOptions.overrides, evaluations: ParallaxCLI.plugins.evaluations)
            }
        } catch { throw fail("\(error)", code: ExitCodes.badInput) }
        // A --set naming what the chain does not have is said before anything is written (a
        // value out of range is found when the case's chain is made, and fails the case).
        if let chain, !setOptions.texts.isEmpty {
            do { _ = try Chain.load(chain).applying(setOptions.overrides, registry: ParallaxCLI.registry) } catch ChainError.override(let text, let problem) {
                throw fail("\(ChainError.override(text, problem))", code: ExitCodes.badInput)
            } catch {
                // The chain's own problem: the case reports it.
            }
        }
        // A shard resumes what an interrupted (or finished) run of the same shard left.
        var shardFile: BenchShardFile?
        var previousLog = ""
        if let shard, let suite {
            let (file, log): (BenchShardFile, String)
            do { (file, log) = try BenchShardFile.resume(suite: spec, path: suite, shard: shard, out: out) } catch { throw fail(error) }
            shardFile = file
            previousLog = log
        }
        let output = try CommandOutput(out, command: "parallax bench", inputs: spec.runs.flatMap { [$0.dataset, $0.groundTruth].compactMap { $0 } + $0.calibrations.map(\.file) }
                                                                                    + [suite].compactMap { $0 } + input.datasetOptions().calibrations.map(\.file))
        let outURL = output.url
        Interruption.install()
        var runner = BenchRunner(suite: spec, scratch: outURL.appendingPathComponent("scratch"), plugins: ParallaxCLI.plugins)
        runner.datasetOptions = input.datasetOptions()
        runner.cancelled = { Interruption.requested }
        runner.recordsProvenance = shard != nil || recording.records
        let toRun = shardFile.map { Set($0.remaining) }
        let total = toRun?.count ?? spec.runs.count
        var index = 0
        let log = ShardLog(url: shardFile == nil ? nil : outURL.appendingPathComponent("log.txt"), previous: previousLog)
        if let shardFile {
            // Written at once: the folder says what it is before the first case ends.
            do { try shardFile.write(to: outURL) } catch { throw output.failed("cannot write shard.json: \(OutputFolder.reason(error))") }
            log.line("shard \(shardFile.shard) of \(spec.name): \(shardFile.cases.count) cases, \(shardFile.cases.count - total) kept from an earlier run, \(total) to run")
        }
        runner.progress = { message in
            if message.hasSuffix("preparing") { index += 1 }
            let line = "[\(index)/\(total)] \(message)"
            log.line(line)
            if !quiet { StandardError.write(Data("\(line)\n".utf8)) }
        }
        // The time a shard spends on its own bookkeeping (shard.json), for log.txt.
        var shardWriting = Duration.zero
        let started = ContinuousClock.now
        var results = runner.run(cases: toRun) { result in
            guard var file = shardFile else { return }
            if let note = result.note, result.status != "ok" { log.line("\(result.name): \(result.status): \(note)") }
            file.results.removeAll { $0.result.name == result.name }
            file.results.append(BenchShardFile.record(result))
            file.results.sort { a, b in (file.cases.firstIndex(of: a.result.name) ?? 0) < (file.cases.firstIndex(of: b.result.name) ?? 0) }
            shardFile = file
            let began = ContinuousClock.now
            do { try file.write(to: outURL) } catch { log.line("cannot write shard.json: \(error)") }
            shardWriting += ContinuousClock.now - began
        }
        if let shardFile {
            // The shard's report covers its cases, the kept ones included.
            let began = ContinuousClock.now
            results = try shardFile.results.map { try BenchShardFile.result(of: $0, file: BenchShardFile.fileName) }
            do { try shardFile.write(to: outURL) } catch { throw output.failed("cannot write shard.json: \(OutputFolder.reason(error))") }
            shardWriting += ContinuousClock.now - began
            log.line(String(format: "shard bookkeeping (shard.json): %.1f ms of %.1f s", shardWriting.seconds * 1000, (ContinuousClock.now - started).seconds))
        }
        do {
            try BenchReport.write(suite: spec, results: results, to: outURL)
            try BenchHTMLReport.write(suite: spec, results: results, to: outURL)
            try? FileManager.default.removeItem(at: outURL.appendingPathComponent("scratch"))
        } catch {
            throw output.failed("cannot write the report: \(OutputFolder.reason(error))")
        }
        try output.finish()
        if json {
            print(String(decoding: try BenchReport.json(suite: spec, results: results), as: UTF8.self))
        } else {
            for r in results {
                let stats = r.evaluations.map { e in
                    String(format: "%@ rmse %.4f, median %.4f, max %.4f", e.evaluation, e.result.statistics.rmse, e.result.statistics.median, e.result.statistics.max)
                }.joined(separator: "; ")
                print("\(r.name): \(r.status)\(r.note.map { " (\($0))" } ?? "")\(stats.isEmpty ? "" : " — \(stats)")")
            }
            print("wrote \(out)/report.html (open it in a browser), report.md, report.json and plots")
        }
        for r in results where r.status == "invalid" || r.status == "failed" {
            StandardError.write(Data("parallax: bench run '\(r.name)'\(r.status == "failed" ? " failed" : ""): \(r.note ?? "")\n".utf8))
        }
        // A shard is recorded by its merge.
        if shard == nil {
            let suiteSHA = suite.flatMap { try? FileDigest.sha256(of: $0) } ?? ""
            try recording.record(BenchRecording.recordedRun(suite: spec.name, suiteFile: spec.file, suiteSHA256: suiteSHA, results: results, shards: ""), quiet: json)
        }
        if results.contains(where: { $0.status == "invalid" }) { throw ExitCodes.badInput }
        if results.contains(where: { $0.status == "failed" }) { throw ExitCodes.runFailed }
    }
}

/// `--results-db` and `--no-record`, shared by `bench` and `bench merge`.
struct RecordingOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The results database (SQLite) the run is recorded in (default: $PARALLAX_RESULTS_DB, else ~/.local/share/parallax/results.sqlite; `parallax results` reads it).", valueName: "file"))
    var resultsDB: String?
    @Flag(name: .long, help: "Do not record the run in the results database.") var noRecord = false

    var records: Bool { !noRecord }
    var path: String { resultsDB ?? BenchRecording.defaultDatabasePath }

    mutating func validate() throws {
        if let resultsDB, resultsDB.isEmpty { throw ValidationError("--results-db is empty: name a database file (or give --no-record)") }
    }

    /// The database must not lie inside the command's `--out` (or its staging folder): the
    /// commit replaces that folder, and the runs recorded before would go with it.
    func checkOutside(out: String) throws {
        guard records, let resultsDB else { return }
        for folder in [out, out + ".partial"] where OutputPath.relative(resultsDB, inside: folder) != nil {
            throw ValidationError("--results-db '\(resultsDB)' lies inside --out '\(out)', which each run replaces: keep the database elsewhere")
        }
    }

    /// Records `run` (after the report is written: a database that cannot be used loses nothing
    /// of it) and says its id; exit 1 when it cannot be recorded.
    func record(_ run: RecordedRun, quiet: Bool) throws {
        guard records else { return }
        do {
            let id = try BenchRecording.record(run, in: path)
            if !quiet { print("recorded as run \(id) in \(path) (parallax results list)") }
        } catch {
            throw fail("the report is written, but the run was not recorded: \(error)", code: ExitCodes.runFailed)
        }
    }
}

