import Foundation
import ParallaxApp
import Parallax

/// What the console says about a run's warnings and skips: a count per source and the first few
/// of each (all of them are in `run.json`).
enum RunSummary {
    /// How many of one source's warnings are printed.
    static let shownPerSource = 3

    /// Prints, on standard error, each source's warning count and its first few warnings.
    /// A warning's source is the part before its first ": " (the analyzer instance or stream).
    static func printWarnings(_ warnings: [String]) {
        for line in warningLines(warnings) { FileHandle.standardError.write(Data("parallax: \(line)\n".utf8)) }
    }

    /// The lines ``printWarnings(_:)`` prints.
    static func warningLines(_ warnings: [String]) -> [String] {
        var order: [String] = []
        var bySource: [String: [String]] = [:]
        for w in warnings {
            let source = w.range(of: ": ").map { String(w[..<$0.lowerBound]) } ?? ""
            if bySource[source] == nil { order.append(source) }
            bySource[source, default: []].append(w)
        }
        var lines: [String] = []
        for source in order {
            let all = bySource[source] ?? []
            if all.count > shownPerSource {
                lines.append("\(source.isEmpty ? "run" : source): \(all.count) warnings (the first \(shownPerSource) below; all in run.json)")
            }
            lines += all.prefix(shownPerSource).map { "warning: \($0)" }
        }
        return lines
    }

    /// One line per analyzer and stream whose triggers were dropped in `--realtime`, with the
    /// share of the stream's packets: "klt dropped 1240 of 1790 cam0 packets (69.3 %)".
    static func dropLines(_ report: RunReport) -> [String] {
        report.skipped.compactMap { skip in
            guard skip.isRealtimeDrop else { return nil }
            let total = report.streams.first { $0.stream == skip.stream }?.packets ?? 0
            let share = total > 0 ? String(format: " (%.1f %%)", 100 * Double(skip.count) / Double(total)) : ""
            return "\(skip.analyzer ?? "the bus") dropped \(skip.count) of \(total) \(skip.stream) packets\(share): it could not keep up in real time"
        }
    }
}
