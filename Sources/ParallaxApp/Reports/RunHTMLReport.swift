import Foundation
import Parallax

/// `parallax run`'s browser report, `DIR/report.html`: what ran over what, its streams, warnings
/// and speed, and the first camera at the start, middle and end of the data with what the chain
/// found there. One page that stands alone (``HTMLPages``).
public struct RunHTMLReport {
    /// The frames and outputs the page draws.
    public var overlays: OverlayCollector

    public init(source: any DatasetSource) { overlays = OverlayCollector(source: source) }

    /// `configuration`: what the chain ran with, as (label, text) rows ("analyzer klt",
    /// "window=15 …"; "--set", "klt.window=15"), shown under "How it was run".
    public func write(chain: String, dataset: String, format: String, report: RunReport, interrupted: String?,
                      configuration: [(String, String)] = [], to url: URL) throws {
        var body = "<h1>Run: \(HTMLPages.escape(chain))</h1>\n"
        body += "<p>Over <code>\(HTMLPages.escape(dataset))</code> (\(HTMLPages.escape(format))). Outputs: <a href=\"events.jsonl\">events.jsonl</a>, <a href=\"run.json\">run.json</a>.</p>\n"
        var facts: [(String, String)] = [("status", report.failure.map { "failed: \($0)" } ?? (interrupted.map { "stopped by \($0)" } ?? "ok")),
                                         ("data", String(format: "%.2f s", report.datasetSeconds)),
                                         ("wall time", String(format: "%.2f s (%.1f× real time)", report.wallSeconds, report.realtimeFactor))]
        facts += report.streams.map { ("stream \($0.stream)", "\($0.packets) packets") }
        body += HTMLPages.facts(facts)
        if !report.warnings.isEmpty {
            body += "<h2>Warnings</h2>\n<ul>\n" + report.warnings.map { "<li>\(HTMLPages.escape($0))</li>" }.joined(separator: "\n") + "\n</ul>\n"
        }
        if !report.notes.isEmpty {
            body += "<h2>Notes</h2>\n<ul>\n" + report.notes.map { "<li>\(HTMLPages.escape($0))</li>" }.joined(separator: "\n") + "\n</ul>\n"
        }
        body += try HTMLPages.frames(overlays.overlays)
        if !report.analyzers.isEmpty { body += HTMLPages.speed(report.analyzers, realtimeFactor: report.realtimeFactor) }
        body += "<h2>How it was run</h2>\n" + HTMLPages.facts(configuration + HTMLPages.environment)
        try HTMLPages.page(title: "Run: \(chain)", body: body).write(to: url, atomically: true, encoding: .utf8)
    }
}
