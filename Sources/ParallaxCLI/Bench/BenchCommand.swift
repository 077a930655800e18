import ArgumentParser
import Foundation
import ParallaxGeometry
import Parallax

/// `parallax bench SUITE.yaml --out DIR`: chains × datasets, evaluated, reported; or one case
/// straight from the command line (`--chain … --dataset … --evaluate trajectory --json`), as
/// evo evaluates one file pair.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run a benchmark suite (chains × datasets) or one case, evaluate against ground truth, write report.md, report.json and SVG plots.",
        discussion: "Metrics are deterministic: the same suite gives the same numbers on every run. Timings are reported separately. Evaluations: "
            + EvaluationRegistry.standard.summaries.map { "\($0.name) (\($0.summary))" }.joined(separator: "; ") + ".")

    @Argument(help: "Suite file (YAML), e.g. bench/default.yaml. Omit it to run one case with --chain and --dataset.") var suite: String?
    @Option(name: .long, help: "One case: the chain (YAML file or pipeline string).") var chain: String?
    @Option(name: .long, help: "One case: the dataset folder.") var dataset: String?
    @Option(name: .long, help: "One case: evaluations, comma-separated (e.g. trajectory).") var evaluate: String?
    @Option(name: .customLong("groundtruth"), help: ArgumentHelp("One case: ground truth from this trajectory file instead of the dataset's own.", valueName: "file"))
    var groundTruth: String?
    @Flag(name: .long, help: "Print the results as JSON on standard output (metrics and timing) instead of a summary.") var json = false
    @Option(name: .long, help: "Output folder.") var out: String = "out/bench"
    @Flag(name: .long, help: "No progress lines.") var quiet = false
    @OptionGroup var input: InputOptions

    func validate() throws {
        if suite == nil, chain == nil || dataset == nil {
            throw ValidationError("give a suite file, or --chain and --dataset for one case")
        }
        if suite != nil, chain != nil || dataset != nil || evaluate != nil {
            throw ValidationError("--chain, --dataset and --evaluate run one case without a suite file; give one or the other")
        }
    }

    func run() throws {
        input.applyImageSizeLimit()
        let spec: BenchSuite
        do {
            if let suite {
                spec = try BenchSuite.load(suite)
            } else {
                spec = try BenchSuite.oneCase(chain: chain ?? "", dataset: dataset ?? "", evaluate: evaluate ?? "", groundTruth: groundTruth)
            }
        } catch { throw fail("\(error)", code: ExitCodes.badInput) }
        let output = try CommandOutput(out, command: "parallax bench")
        let outURL = output.url
        Interruption.install()
        var runner = BenchRunner(suite: spec, scratch: outURL.appendingPathComponent("scratch"))
        runner.datasetOptions = input.datasetOptions()
        runner.cancelled = { Interruption.requested }
        let total = spec.runs.count
        var index = 0
        if !quiet {
            runner.progress = { message in
                if message.hasSuffix("preparing") { index += 1 }
                FileHandle.standardError.write(Data("[\(index)/\(total)] \(message)\n".utf8))
            }
        }
        let results = runner.run()
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
        for r in results where r.status == "invalid" { FileHandle.standardError.write(Data("parallax: bench run '\(r.name)': \(r.note ?? "")\n".utf8)) }
        if results.contains(where: { $0.status == "invalid" }) { throw ExitCodes.badInput }
        if results.contains(where: { $0.status == "failed" }) { throw ExitCodes.runFailed }
    }
}
