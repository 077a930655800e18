import Foundation
import Parallax

/// The browser report of a bench run: `report.html` (summary, speed, how it was run) and a page
/// per case under `runs/` (metrics, plots, a few camera frames with what the chain found on
/// them). Every page stands alone: plots are inline SVG, images are data URIs, links are
/// relative — it opens from the file system, offline, and can be mailed as a folder.
/// Written after ``BenchReport`` (whose SVG files it inlines).
public enum BenchHTMLReport {
    public static func write(suite: BenchSuite, results: [BenchRunner.Result], to folder: URL) throws {
        let runs = folder.appendingPathComponent("runs")
        try FileManager.default.createDirectory(at: runs, withIntermediateDirectories: true)
        func svg(_ file: String) -> String {
            (try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)) ?? ""
        }
        var body = "<h1>Benchmark report: \(HTMLPages.escape(suite.name))</h1>\n"
        body += "<p>Suite <code>\(HTMLPages.escape(suite.file))</code>, \(results.count) cases. Metrics are deterministic; times are from this machine and run. "
        body += "Also as <a href=\"report.md\">report.md</a> and <a href=\"report.json\">report.json</a>.</p>\n"
        body += "<table>\n<tr><th>case</th><th>dataset</th><th>status</th><th>metric</th><th>rmse</th><th>mean</th><th>median</th><th>max</th><th>n</th></tr>\n"
        for r in results {
            let link = "<a href=\"runs/\(HTMLPages.fileName(r.name)).html\">\(HTMLPages.escape(r.name))</a>"
            let status = "<td class=\"\(HTMLPages.escape(r.status))\">\(HTMLPages.escape(r.status))</td>"
            if r.evaluations.isEmpty {
                body += "<tr><td>\(link)</td><td>\(HTMLPages.escape(r.dataset))</td>\(status)<td colspan=\"6\">\(HTMLPages.escape(r.note ?? "—"))</td></tr>\n"
            }
            for e in r.evaluations {
                let s = e.result.statistics
                body += "<tr><td>\(link)</td><td>\(HTMLPages.escape(r.dataset))</td>\(status)<td>\(HTMLPages.escape(e.result.metric))</td>"
                    + [s.rmse, s.mean, s.median, s.max].map { "<td class=\"n\">\(String(format: "%.4f", $0))</td>" }.joined() + "<td class=\"n\">\(s.count)</td></tr>\n"
                if let caution = e.result.caution {
                    body += "<tr><td></td><td colspan=\"8\" class=\"caution\">⚠ \(HTMLPages.escape(caution))</td></tr>\n"
                }
            }
        }
        body += "</table>\n"
        let timing = svg("timing.svg")
        if !timing.isEmpty { body += "<h2>Speed</h2>\n<figure>\(timing)</figure>\n" }
        body += "<h2>How it was run</h2>\n" + environment(suite: suite)
        try HTMLPages.page(title: "Benchmark report: \(suite.name)", body: body).write(to: folder.appendingPathComponent("report.html"), atomically: true, encoding: .utf8)

        for (k, r) in results.enumerated() {
            var body = "<p class=\"nav\"><a href=\"../report.html\">← report</a>"
            if k > 0 { body += " · <a href=\"\(HTMLPages.fileName(results[k - 1].name)).html\">← \(HTMLPages.escape(results[k - 1].name))</a>" }
            if k + 1 < results.count { body += " · <a href=\"\(HTMLPages.fileName(results[k + 1].name)).html\">\(HTMLPages.escape(results[k + 1].name)) →</a>" }
            body += "</p>\n<h1>\(HTMLPages.escape(r.name))</h1>\n<table>\n"
            body += "<tr><th>status</th><td class=\"\(HTMLPages.escape(r.status))\">\(HTMLPages.escape(r.status))</td></tr>\n"
            body += "<tr><th>dataset</th><td>\(HTMLPages.escape(r.dataset))</td></tr>\n<tr><th>chain</th><td><code>\(HTMLPages.escape(r.chain))</code></td></tr>\n"
            if let note = r.note { body += "<tr><th>note</th><td>\(HTMLPages.escape(note))</td></tr>\n" }
            let packets = r.packets.sorted { $0.key < $1.key }.map { "\(HTMLPages.escape($0.key)) \($0.value)" }.joined(separator: ", ")
            if !packets.isEmpty { body += "<tr><th>packets</th><td>\(packets)</td></tr>\n" }
            body += "</table>\n"
            for e in r.evaluations {
                let s = e.result.statistics
                body += "<h2>\(HTMLPages.escape(e.evaluation)): \(HTMLPages.escape(e.result.metric))</h2>\n<table>\n<tr><th>rmse</th><th>mean</th><th>median</th><th>max</th><th>n</th></tr>\n<tr>"
                    + [s.rmse, s.mean, s.median, s.max].map { "<td class=\"n\">\(String(format: "%.6g", $0))</td>" }.joined() + "<td class=\"n\">\(s.count)</td></tr>\n</table>\n"
                let metrics = e.result.metrics.sorted { $0.key < $1.key }
                if !metrics.isEmpty {
                    body += "<table>\n" + metrics.map { "<tr><th>\(HTMLPages.escape($0.key))</th><td class=\"n\">\(String(format: "%.6g", $0.value))</td></tr>" }.joined(separator: "\n") + "\n</table>\n"
                }
                let base = "\(HTMLPages.fileName(r.name))-\(e.evaluation)"
                let plots = ["error", "histogram"].map { "\(base)-\($0).svg" } + (e.result.plots ?? [:]).keys.sorted().map { "\(base)-\(HTMLPages.fileName($0)).svg" }
                for plot in plots { let text = svg(plot); if !text.isEmpty { body += "<figure>\(text)</figure>\n" } }
                for name in (e.result.images ?? [:]).keys.sorted() {
                    if let png = try? Data(contentsOf: folder.appendingPathComponent("\(HTMLPages.fileName(r.name))-\(e.evaluation)-\(HTMLPages.fileName(name)).png")) {
                        body += "<figure><img alt=\"\(HTMLPages.escape(name))\" src=\"data:image/png;base64,\(png.base64EncodedString())\"><figcaption>\(HTMLPages.escape(name))</figcaption></figure>\n"
                    }
                }
            }
            body += r.framesHTML
            for (title, lines) in [("Warnings", r.warnings ?? []), ("Notes", r.notes ?? [])] where !lines.isEmpty {
                body += "<h2>\(title)</h2>\n<ul>\n" + lines.map { "<li>\(HTMLPages.escape($0))</li>" }.joined(separator: "\n") + "\n</ul>\n"
            }
            if !r.timing.isEmpty { body += HTMLPages.speed(r.timing, realtimeFactor: r.realtimeFactor) }
            try HTMLPages.page(title: "\(r.name) — \(suite.name)", body: body).write(to: runs.appendingPathComponent("\(HTMLPages.fileName(r.name)).html"), atomically: true, encoding: .utf8)
        }
    }

    /// What the run was: suite, versions, machine.
    public static func environment(suite: BenchSuite) -> String {
        HTMLPages.facts([("suite file", suite.file)] + HTMLPages.environment)
    }
}
