import ArgumentParser
import Foundation
import ParallaxApp
import Parallax
import ParallaxResults
import ParallaxFiles

/// `parallax results`: the benchmark runs recorded by `bench` (and `bench merge`): list them,
/// compare two (regressions flagged, exit 1 on one: for CI), plot a metric over time.
struct ResultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "results",
        abstract: "The recorded benchmark runs: list them, compare two (exit 1 on a regression), plot a metric over runs.",
        subcommands: [ResultsListCommand.self, ResultsCompareCommand.self, ResultsPlotCommand.self])
}

/// `--results-db`, shared by the `results` commands: the name `bench` and `bench merge` give
/// the database they record in. `--db`, its name before, is kept as a hidden alias.
struct ResultsDatabaseOption: ParsableArguments {
    @Option(name: .customLong("results-db"), help: ArgumentHelp("The results database (default: $PARALLAX_RESULTS_DB, else ~/.local/share/parallax/results.sqlite).", valueName: "file"))
    var resultsDB: String?
    /// `--db`, the earlier name of `--results-db` (hidden: the help and docs name `--results-db`).
    @Option(name: .customLong("db"), help: .hidden)
    var legacyDB: String?

    /// The database named, by either name.
    var db: String? { resultsDB ?? legacyDB }

    mutating func validate() throws {
        if resultsDB != nil, legacyDB != nil { throw ValidationError("--db is the old name of --results-db: give one of them") }
        if let db, db.isEmpty { throw ValidationError("\(resultsDB != nil ? "--results-db" : "--db") is empty: name a results database file") }
    }

    /// Opens the database; one that does not exist is an error (reading creates nothing).
    func open() throws -> ResultsDatabase {
        let path = db ?? BenchRecording.defaultDatabasePath
        guard FileManager.default.fileExists(atPath: path) else {
            throw fail("no results database at '\(path)': `parallax bench` records its runs there (or give --results-db)", code: ExitCodes.badInput)
        }
        do { return try ResultsDatabase(path: path) } catch let error as ResultsDatabaseError {
            throw fail("\(error)", code: error.isBadInput ? ExitCodes.badInput : ExitCodes.runFailed)
        }
    }
}

/// Runs a database call; its errors become the CLI's (exit 2 for a wrong id, 1 otherwise).
func withResults<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as ResultsDatabaseError {
        throw fail("\(error)", code: error.isBadInput ? ExitCodes.badInput : ExitCodes.runFailed)
    }
}

struct ResultsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The recorded runs, newest first.")
    @OptionGroup var database: ResultsDatabaseOption
    @Option(name: .long, help: "At most this many runs (1…100000).") var limit = 30
    @Flag(name: .long, help: "Print JSON for machines.") var json = false

    func validate() throws { guard (1...100_000).contains(limit) else { throw ValidationError("--limit must be 1…100000, not \(limit)") } }

    func run() throws {
        let db = try database.open()
        let runs = try withResults { try db.runs(limit: limit) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(runs), as: UTF8.self))
            return
        }
        var rows = [["run", "recorded (UTC)", "suite", "cases", "not ok", "Parallax", "commit", "shards"]]
        for r in runs {
            let counts = try withResults { try db.caseCounts(run: r.id) }
            rows.append(["\(r.id)", r.recordedAt, r.suite, "\(counts.cases)", "\(counts.failed)", r.parallaxVersion, String(r.parallaxCommit.prefix(12)) + (r.parallaxCommit.hasSuffix("+dirty") ? "+dirty" : ""), r.shards])
        }
        print(runs.isEmpty ? "no runs recorded in \(db.path)" : TextColumns.format(rows))
    }
}

struct ResultsCompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two recorded runs case by case; exit 1 when one regressed (for CI).",
        discussion: """
            A and B are run ids, `latest` or `latest~N` (with --suite: among that suite's runs). Cases that differ only \
            by seed (a suite's `seeds:`) are compared as one group over their seeds. A regression: an error statistic \
            (EVALUATION.rmse, .mean, .median, .max) that grew by more than --threshold percent and, with two or more seeds \
            on both sides, significantly (Welch's t-test, p < --alpha); or a case that was ok and is not. Other metrics are \
            shown and never fail the comparison.
            """)
    @Argument(help: "The run before (id, latest, latest~N).") var before: String
    @Argument(help: "The run after.") var after: String
    @OptionGroup var database: ResultsDatabaseOption
    @Option(name: .long, help: "Only runs of this suite for latest / latest~N.") var suite: String?
    @Option(name: .long, help: "Relative growth of an error, in percent, beyond which it regressed (0…1000).") var threshold = 5.0
    @Option(name: .long, help: "Significance level of the test over seeds (0…1).") var alpha = 0.05
    @Flag(name: .long, help: "Show every metric, not only the rmse rows, the failures and the regressions.") var all = false
    @Flag(name: .long, help: "Print JSON for machines.") var json = false

    func validate() throws {
        guard threshold.isFinite, (0...1000).contains(threshold) else { throw ValidationError("--threshold must be 0…1000 (percent), not \(threshold)") }
        guard alpha.isFinite, alpha > 0, alpha < 1 else { throw ValidationError("--alpha must be between 0 and 1, not \(alpha)") }
    }

    func run() throws {
        let db = try database.open()
        let (a, b) = try withResults { (try db.run(id: db.resolve(before, suite: suite)), try db.run(id: db.resolve(after, suite: suite))) }
        let comparison = ResultsComparison(before: a, after: b, threshold: threshold / 100, alpha: alpha)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(comparison.rows), as: UTF8.self))
        } else {
            print("run \(a.id) (\(a.suite), \(a.recordedAt), \(a.parallaxCommit.prefix(12))) → run \(b.id) (\(b.suite), \(b.recordedAt), \(b.parallaxCommit.prefix(12)))")
            if a.suiteSHA256 != b.suiteSHA256 { print("note: the suite files differ (SHA-256 \(a.suiteSHA256.prefix(12))… → \(b.suiteSHA256.prefix(12))…)") }
            for c in b.cases {
                if let old = a.cases.first(where: { $0.name == c.name }), old.datasetSHA256 != c.datasetSHA256 {
                    print("note: \(c.name): its data changed (SHA-256 \(old.datasetSHA256.prefix(12))… → \(c.datasetSHA256.prefix(12))…)")
                }
                if let old = a.cases.first(where: { $0.name == c.name }), old.chainSHA256 != c.chainSHA256 {
                    print("note: \(c.name): its chain changed")
                }
            }
            func f(_ v: Double?) -> String { v.map { String(format: "%.6g", $0) } ?? "—" }
            var rows = [["", "case", "metric", "before", "after", "change", "seeds", "p", "verdict"]]
            for r in comparison.rows where all || r.metric.hasSuffix(".rmse") || r.metric == "—" || [.regression, .failed].contains(r.verdict) {
                let flag = [.regression, .failed].contains(r.verdict) ? "!!" : ""
                rows.append([flag, r.group, r.metric, f(r.meanBefore), f(r.meanAfter), r.relativeChange.map { String(format: "%+.1f %%", 100 * $0) } ?? "—",
                             r.before.isEmpty ? "—" : "\(r.before.count)/\(r.after.count)", r.pValue.map { String(format: "%.3g", $0) } ?? "—", r.verdict == .regression ? "REGRESSION" : r.verdict.rawValue])
            }
            print(TextColumns.format(rows))
            let n = comparison.regressions.count
            print(n == 0 ? "no regression (threshold \(threshold) %, alpha \(alpha))" : "\(n) regression(s) (threshold \(threshold) %, alpha \(alpha))")
        }
        if !comparison.regressions.isEmpty { throw ExitCodes.runFailed }
    }
}

struct ResultsPlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "plot", abstract: "Plot one metric over the recorded runs (one line per case) as SVG.")
    @Argument(help: "The metric, EVALUATION.STATISTIC (trajectory.rmse, gyro-rotation.median, head-pose.mae_deg, …).") var metric: String
    @OptionGroup var database: ResultsDatabaseOption
    @Option(name: .long, help: "Only runs of this suite.") var suite: String?
    @Option(name: .customLong("case"), help: "Only this case.") var caseName: String?
    @Option(name: .long, help: "The SVG file to write.") var out = "out/results.svg"

    func run() throws {
        // The target is checked before anything is read (OutputPath): a folder, a link, or a
        // file that is not a plot of ours is refused, never replaced. Its folder is made first.
        let url = URL(fileURLWithPath: out)
        do {
            if !OutputPath.isFolder(out) {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            }
        } catch {
            throw fail("--out '\(out)': cannot create its folder: \(OutputFolder.reason(error))", code: ExitCodes.badInput)
        }
        do {
            try OutputPath.checkOutsideInputs(out, option: "--out", inputs: [database.db ?? BenchRecording.defaultDatabasePath])
            try OutputPath.checkFileTarget(out, option: "--out", kind: .svgPlot)
        } catch {
            throw fail("\(error)", code: ExitCodes.badInput)
        }
        let db = try database.open()
        let points = try withResults { try db.series(metric: metric, suite: suite, caseName: caseName) }
        guard !points.isEmpty else {
            let known = (try? db.metricNames()) ?? []
            throw fail("\(db.path): no values of '\(metric)'\(suite.map { " in suite '\($0)'" } ?? "")\(caseName.map { " for case '\($0)'" } ?? "") "
                       + (known.isEmpty ? "(no metric is recorded in it)" : "(recorded metrics: \(known.joined(separator: ", ")))"),
                       code: ExitCodes.badInput)
        }
        let palette = ["#4477aa", "#cc3311", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb", "#000000"]
        var cases: [String] = []
        for p in points where !cases.contains(p.caseName) { cases.append(p.caseName) }
        let series = cases.enumerated().map { k, name in
            SVGPlot.Series(label: name, color: palette[k % palette.count], points: points.filter { $0.caseName == name }.map { (Double($0.run), $0.value) },
                           markers: points.filter { $0.caseName == name }.count == 1)
        }
        let runs = Array(Set(points.map(\.run))).sorted()
        let commits = runs.compactMap { id in points.first { $0.run == id }.map { "\(id): \($0.commit.prefix(8))" } }
        let svg = SVGPlot.plot(series, title: "\(metric) over recorded runs (\(commits.prefix(6).joined(separator: ", "))\(commits.count > 6 ? ", …" : ""))",
                               xLabel: "run", yLabel: metric)
        do {
            try (OutputPath.FileKind.svgPlotHeader + svg).write(toFile: OutputPath.staged(out), atomically: false, encoding: .utf8)
            try OutputPath.commit(OutputPath.staged(out), to: out)
        } catch {
            throw fail("cannot write '\(out)': \(OutputFolder.reason(error))", code: ExitCodes.runFailed)
        }
        print("wrote \(out): \(metric), \(cases.count) case(s) over \(runs.count) run(s)")
    }
}
