import ArgumentParser
import Foundation
import ParallaxApp
import Parallax
import ParallaxResults
import ParallaxFiles

/// `parallax bench merge SHARD... --out DIR`: one report from the shards of a suite — the same
/// report.md, report.json, plots and HTML report as one unsharded run (timings apart).
struct BenchMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the --out folders of `parallax bench SUITE --shard K/N` into one report, as one unsharded run writes it.",
        discussion: """
            Every shard 1…N of one suite file (same SHA-256) and Parallax version must be there and complete. \
            A missing or unfinished shard is an error naming it and the command that finishes it (exit 1; \
            --check only lists them). Shards of different suites or versions are refused (exit 2). A case \
            that failed in its shard is reported as failed, with the shard's log.
            """)

    @Argument(help: "The shards' --out folders (an interrupted shard's results are read from FOLDER.partial).")
    var shards: [String]
    @Option(name: .long, help: "Output folder.") var out: String = "out/bench"
    @Flag(name: .long, help: "Only check: print each missing or unfinished shard (`missing K/N` or `unfinished K/N FOLDER`); exit 1 if there is one.")
    var check = false
    @OptionGroup var recording: RecordingOptions

    func validate() throws { try recording.checkOutside(out: out) }

    func run() throws {
        let merged: BenchMerge
        do { merged = try BenchMerge(folders: shards) } catch { throw fail(error) }
        if check {
            for p in merged.problems(terse: true) { print(p) }
            if !merged.problems(terse: true).isEmpty { throw ExitCodes.runFailed }
            return
        }
        let problems = merged.problems(terse: false)
        if !problems.isEmpty { throw fail(problems.joined(separator: "\n"), code: ExitCodes.runFailed) }
        let results: [BenchRunner.Result]
        do { results = try merged.results() } catch { throw fail(error) }
        let first = merged.first, count = merged.count
        let suite = BenchSuite(name: first.file.suite, runs: [], file: first.file.suiteFile)
        // A shard (or its .partial) as --out would be replaced by the merge of itself.
        let output = try CommandOutput(out, command: "parallax bench merge", inputs: shards + shards.map { $0 + ".partial" })
        do {
            try BenchReport.write(suite: suite, results: results, to: output.url)
            try BenchHTMLReport.write(suite: suite, results: results, to: output.url)
        } catch {
            throw output.failed("cannot write the report: \(OutputFolder.reason(error))")
        }
        try output.finish()
        for r in results {
            print("\(r.name): \(r.status)\(r.note.map { " (\($0))" } ?? "")")
        }
        print("merged \(count) shards, \(results.count) cases: wrote \(out)/report.html, report.md, report.json and plots")
        try recording.record(BenchRecording.recordedRun(suite: first.file.suite, suiteFile: first.file.suiteFile, suiteSHA256: first.file.suiteSHA256,
                                                        results: results, shards: "\(count) shards"), quiet: false)
        if results.contains(where: { $0.status == "invalid" }) { throw ExitCodes.badInput }
        if results.contains(where: { $0.status == "failed" }) { throw ExitCodes.runFailed }
    }
}
