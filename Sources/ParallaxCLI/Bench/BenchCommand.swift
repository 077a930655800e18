import ArgumentParser
import Foundation
import Parallax

/// `parallax bench SUITE.yaml --out DIR`: chains × datasets, evaluated, reported.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run a benchmark suite (chains × datasets), evaluate against ground truth, write report.md, report.json and SVG plots.",
        discussion: "Metrics are deterministic: the same suite gives the same numbers on every run. Timings are reported separately.")

    @Argument(help: "Suite file (YAML), e.g. bench/default.yaml.") var suite: String
    @Option(name: .long, help: "Output folder.") var out: String = "out/bench"
    @Flag(name: .long, help: "No progress lines.") var quiet = false

    func run() throws {
        let spec: BenchSuite
        do { spec = try BenchSuite.load(suite) } catch { throw fail("\(error)", code: ExitCodes.badInput) }
        let outURL = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: outURL, withIntermediateDirectories: true)
        var runner = BenchRunner(suite: spec, scratch: outURL.appendingPathComponent("scratch"))
        let total = spec.runs.count
        var index = 0
        if !quiet {
            runner.progress = { message in
                if message.hasSuffix("preparing") { index += 1 }
                FileHandle.standardError.write(Data("[\(index)/\(total)] \(message)\n".utf8))
            }
        }
        let results: [BenchRunner.Result]
        do { results = try runner.run() } catch { throw fail("\(error)", code: ExitCodes.badInput) }
        try BenchReport.write(suite: spec, results: results, to: outURL)
        try? FileManager.default.removeItem(at: outURL.appendingPathComponent("scratch"))
        for r in results {
            let stat = r.statistics.map { String(format: "rmse %.4f, median %.4f, max %.4f", $0.rmse, $0.median, $0.max) } ?? ""
            print("\(r.name): \(r.status)\(r.note.map { " (\($0))" } ?? "")\(stat.isEmpty ? "" : " — \(stat)")")
        }
        print("wrote \(out)/report.md, report.json and plots")
        if results.contains(where: { $0.status == "failed" }) { throw ExitCodes.runFailed }
    }
}

/// The report files of a bench run.
enum BenchReport {
    static func write(suite: BenchSuite, results: [BenchRunner.Result], to folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        struct JSONReport: Encodable { var suite: String; var parallaxVersion = "0.1.0"; var runs: [BenchRunner.Result] }
        var forJSON = results
        for i in forJSON.indices { forJSON[i].series = nil; forJSON[i].seriesTimes = nil }
        try encoder.encode(JSONReport(suite: suite.name, runs: forJSON)).write(to: folder.appendingPathComponent("report.json"))

        var md = "# Benchmark report: \(suite.name)\n\nSuite `\(suite.file)`. Metrics are deterministic; times are from this machine and run.\n\n"
        md += "| run | dataset | status | metric | rmse | mean | median | max | n |\n|---|---|---|---|---:|---:|---:|---:|---:|\n"
        for r in results {
            let s = r.statistics
            func f(_ v: Double?) -> String { v.map { String(format: "%.4f", $0) } ?? "—" }
            md += "| \(r.name) | \(r.dataset) | \(r.status) | \(r.metric ?? "—") | \(f(s?.rmse)) | \(f(s?.mean)) | \(f(s?.median)) | \(f(s?.max)) | \(s.map { "\($0.count)" } ?? "—") |\n"
        }
        md += "\n## Speed\n\n| run | analyzer | calls | p50 (ms) | p95 (ms) | max (ms) | × real time |\n|---|---|---:|---:|---:|---:|---:|\n"
        for r in results {
            for a in r.timing {
                md += String(format: "| %@ | %@ | %d | %.3f | %.3f | %.3f | %.0f |\n", r.name, a.instance, a.calls, a.p50Milliseconds, a.p95Milliseconds, a.maxMilliseconds, r.realtimeFactor)
            }
        }
        let notes = results.compactMap { r in r.note.map { "- \(r.name): \($0)" } }
        if !notes.isEmpty { md += "\n## Notes\n\n" + notes.joined(separator: "\n") + "\n" }
        md += "\n## Plots\n\n"
        for r in results where r.series != nil {
            let file = "\(r.name)-error.svg"
            try SVGPlot.plot([.init(label: r.metric ?? "error", color: "#1f77b4", points: Array(zip(r.seriesTimes ?? [], r.series ?? [])))],
                             title: "\(r.name): error over time", xLabel: "t (s)", yLabel: "error")
                .write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
            md += "![\(r.name)](\(file))\n\n"
        }
        let timing = results.flatMap { r in r.timing.map { ("\(r.name)/\($0.instance)", $0.p50Milliseconds) } }
        if !timing.isEmpty {
            try SVGPlot.plot([.init(label: "p50 time per call (ms)", color: "#2ca02c", points: timing.enumerated().map { (Double($0.offset), $0.element.1) })],
                             title: "Per-analyzer time (" + timing.map(\.0).joined(separator: ", ") + ")", xLabel: "analyzer #", yLabel: "ms")
                .write(to: folder.appendingPathComponent("timing.svg"), atomically: true, encoding: .utf8)
            md += "![timing](timing.svg)\n"
        }
        try md.write(to: folder.appendingPathComponent("report.md"), atomically: true, encoding: .utf8)
    }
}
