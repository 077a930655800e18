import Foundation
import Parallax

/// The report files of a bench run: `report.json`, `report.md` and SVG plots.
public enum BenchReport {
    public static func json(suite: BenchSuite, results: [BenchRunner.Result]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        struct JSONReport: Encodable { var suite: String; var parallaxVersion = ParallaxVersion.current; var runs: [BenchRunner.Result] }
        return try encoder.encode(JSONReport(suite: suite.name, runs: results))
    }

    public static func write(suite: BenchSuite, results: [BenchRunner.Result], to folder: URL) throws {
        try json(suite: suite, results: results).write(to: folder.appendingPathComponent("report.json"), options: .atomic)

        var md = "# Benchmark report: \(suite.name)\n\nSuite `\(suite.file)`. Metrics are deterministic; times are from this machine and run.\n\n"
        md += "| run | dataset | status | metric | rmse | mean | median | max | n |\n|---|---|---|---|---:|---:|---:|---:|---:|\n"
        func f(_ v: Double?) -> String { v.map { String(format: "%.4f", $0) } ?? "—" }
        for r in results {
            if r.evaluations.isEmpty {
                md += "| \(r.name) | \(r.dataset) | \(r.status) | — | — | — | — | — | — |\n"
            }
            for e in r.evaluations {
                let s = e.result.statistics
                md += "| \(r.name) | \(r.dataset) | \(r.status) | \(e.result.metric) | \(f(s.rmse)) | \(f(s.mean)) | \(f(s.median)) | \(f(s.max)) | \(s.count) |\n"
                if let caution = e.result.caution { md += "| | | ⚠ | \(caution) | | | | | |\n" }
            }
        }
        let extra = results.flatMap { r in r.evaluations.flatMap { e in e.result.metrics.sorted { $0.key < $1.key }.map { (r.name, e.evaluation, $0.key, $0.value) } } }
        if !extra.isEmpty {
            md += "\n## Further metrics\n\n| run | evaluation | metric | value |\n|---|---|---|---:|\n"
            for (run, evaluation, key, value) in extra { md += "| \(run) | \(evaluation) | \(key) | \(String(format: "%.6g", value)) |\n" }
        }
        md += "\n## Speed\n\n| run | analyzer | calls | p50 (ms) | p95 (ms) | max (ms) | calls/s (1 / p50) | × real time |\n|---|---|---:|---:|---:|---:|---:|---:|\n"
        for r in results {
            for a in r.timing {
                md += String(format: "| %@ | %@ | %d | %.3f | %.3f | %.3f | %.0f | %.0f |\n", r.name, a.instance, a.calls, a.p50Milliseconds, a.p95Milliseconds,
                             a.maxMilliseconds, a.p50Milliseconds > 0 ? 1000 / a.p50Milliseconds : 0, r.realtimeFactor)
            }
        }
        let notes = results.compactMap { r in r.note.map { "- \(r.name): \($0)" } }
        if !notes.isEmpty { md += "\n## Notes\n\n" + notes.joined(separator: "\n") + "\n" }
        md += "\n## Plots\n\n"
        for r in results {
            for e in r.evaluations {
                guard let series = e.result.series else { continue }
                let file = "\(HTMLPages.fileName(r.name))-\(e.evaluation)-error.svg", histogram = "\(HTMLPages.fileName(r.name))-\(e.evaluation)-histogram.svg"
                try SVGPlot.errorOverTime(times: e.result.seriesTimes ?? [], errors: series, title: "\(r.name): \(e.evaluation) error over time",
                                          yLabel: e.result.metric, unit: "")
                    .write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
                try SVGPlot.histogram(series, title: "\(r.name): \(e.evaluation) error distribution", xLabel: e.result.metric)
                    .write(to: folder.appendingPathComponent(histogram), atomically: true, encoding: .utf8)
                md += "![\(r.name) \(e.evaluation)](\(file)) ![\(r.name) \(e.evaluation) distribution](\(histogram))\n\n"
            }
        }
        for r in results {
            for e in r.evaluations {
                for (name, svg) in (e.result.plots ?? [:]).sorted(by: { $0.key < $1.key }) {
                    let file = "\(HTMLPages.fileName(r.name))-\(e.evaluation)-\(HTMLPages.fileName(name)).svg"
                    try svg.write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
                    md += "![\(r.name) \(e.evaluation) \(name)](\(file))\n"
                }
                for (name, image) in (e.result.images ?? [:]).sorted(by: { $0.key < $1.key }) {
                    let file = "\(HTMLPages.fileName(r.name))-\(e.evaluation)-\(HTMLPages.fileName(name)).png"
                    try ImageEncoder.writePNG(image, to: folder.appendingPathComponent(file).path)
                    md += "![\(r.name) \(e.evaluation) \(name)](\(file))\n"
                }
            }
        }
        let timing = results.flatMap { r in r.timing.map { ("\(r.name)/\($0.instance)", $0.p50Milliseconds) } }
        if !timing.isEmpty {
            try SVGPlot.bars(timing.map { (label: $0.0, value: $0.1) }, title: "Median time per call, per case and analyzer", unit: "ms")
                .write(to: folder.appendingPathComponent("timing.svg"), atomically: true, encoding: .utf8)
            md += "![timing](timing.svg)\n"
        }
        try md.write(to: folder.appendingPathComponent("report.md"), atomically: true, encoding: .utf8)
    }
}
