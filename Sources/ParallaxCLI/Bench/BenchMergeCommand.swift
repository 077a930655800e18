import ArgumentParser
import Foundation
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

    /// A shard file with the folder it was read from.
    struct Found {
        var folder: String
        var file: BenchShardFile
        var finished: Bool
    }

    func run() throws {
        var found: [Found] = []
        for folder in shards {
            var shard: Found?
            for (path, finished) in [(folder, true), (folder + ".partial", false)] {
                do {
                    if let file = try BenchShardFile.read(from: URL(fileURLWithPath: path)) { shard = Found(folder: path, file: file, finished: finished); break }
                } catch { throw fail("\(error)", code: ExitCodes.badInput) }
            }
            guard let shard else {
                throw fail("'\(folder)': no shard.json here or in '\(folder).partial' (not the --out of `parallax bench SUITE --shard K/N`)", code: ExitCodes.badInput)
            }
            found.append(shard)
        }
        guard let first = found.first else { throw fail("give the shards' folders", code: ExitCodes.badInput) }
        for f in found.dropFirst() {
            let a = first.file, b = f.file
            guard a.suiteSHA256 == b.suiteSHA256, a.suite == b.suite else {
                throw fail("'\(f.folder)' is a shard of suite '\(b.suite)' (\(b.suiteFile), SHA-256 \(b.suiteSHA256.prefix(12))…), '\(first.folder)' of '\(a.suite)' (\(a.suiteFile), \(a.suiteSHA256.prefix(12))…): shards of one suite file only",
                           code: ExitCodes.badInput)
            }
            guard a.parallaxVersion == b.parallaxVersion else {
                throw fail("'\(f.folder)' was run by Parallax \(b.parallaxVersion), '\(first.folder)' by \(a.parallaxVersion): shards of one version only", code: ExitCodes.badInput)
            }
            guard a.shard.count == b.shard.count else {
                throw fail("'\(f.folder)' is shard \(b.shard), '\(first.folder)' shard \(a.shard): shards of one split only", code: ExitCodes.badInput)
            }
        }
        let count = first.file.shard.count
        var byIndex: [Int: Found] = [:]
        for f in found {
            if let other = byIndex[f.file.shard.index] {
                throw fail("shard \(f.file.shard) is given twice: '\(other.folder)' and '\(f.folder)'", code: ExitCodes.badInput)
            }
            byIndex[f.file.shard.index] = f
        }
        var problems: [String] = []
        for k in 1...count {
            guard let f = byIndex[k] else {
                problems.append(check ? "missing \(k)/\(count)" : "shard \(k)/\(count) is missing (not among the folders given)")
                continue
            }
            if !f.file.isComplete || !f.finished {
                let left = f.file.remaining
                problems.append(check ? "unfinished \(k)/\(count) \(f.folder)"
                                : "shard \(k)/\(count) in '\(f.folder)' is unfinished (\(left.isEmpty ? "interrupted before its report" : "not run: " + left.joined(separator: ", "))); finish it with: \(f.file.command)")
            }
        }
        if check {
            for p in problems { print(p) }
            if !problems.isEmpty { throw ExitCodes.runFailed }
            return
        }
        if !problems.isEmpty { throw fail(problems.joined(separator: "\n"), code: ExitCodes.runFailed) }

        // The cases in suite order; a failed case points to its shard's log.
        var placed: [(position: Int, result: BenchRunner.Result)] = []
        for k in 1...count {
            guard let f = byIndex[k] else { continue }
            for c in f.file.results {
                var r: BenchRunner.Result
                do { r = try BenchShardFile.result(of: c, file: f.folder + "/" + BenchShardFile.fileName) } catch { throw fail("\(error)", code: ExitCodes.badInput) }
                guard let i = f.file.cases.firstIndex(of: r.name) else {
                    throw fail("\(f.folder)/\(BenchShardFile.fileName): case '\(r.name)' is not one of the shard's", code: ExitCodes.badInput)
                }
                if r.status == "failed" || r.status == "invalid" {
                    r.note = (r.note.map { $0 + " " } ?? "") + "(shard \(f.file.shard); log: \(f.folder)/log.txt)"
                }
                placed.append((f.file.positions[i], r))
            }
        }
        placed.sort { $0.position < $1.position }
        guard Set(placed.map(\.position)).count == placed.count else {
            throw fail("the shards share out the cases differently (a case is in two shards)", code: ExitCodes.badInput)
        }
        let results = placed.map(\.result)
        // Case names name pages and plots: shard files (data) are held to the suite's rule.
        if let group = OutputPath.collisions(results.map(\.name)).first {
            throw fail("cases \(group.map { "'\($0)'" }.joined(separator: " and ")) of the shards would share the report's page '\(OutputPath.fileName(group[0]))'", code: ExitCodes.badInput)
        }
        let suite = BenchSuite(name: first.file.suite, runs: [], file: first.file.suiteFile)
        let output = try CommandOutput(out, command: "parallax bench merge")
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
