import Foundation
import ParallaxApp
import Parallax

/// What the console says about a run's warnings, skips and notes: a count per source and the
/// first few of each (all of them are in `run.json`).
enum RunSummary {
    /// How many of one source's warnings are printed.
    static let shownPerSource = 3
    /// How many of one source's notes are printed: a run's results come as notes when its
    /// analyzers close (`vio`'s estimated calibration after its start and its clock offset),
    /// and three cut them off.
    static let notesShownPerSource = 6

    /// Prints, on standard error, each source's warning count and its first few warnings.
    /// A warning's source is the part before its first ": " (the analyzer instance or stream).
    static func printWarnings(_ warnings: [String]) {
        for line in warningLines(warnings) { StandardError.write(Data("parallax: \(line)\n".utf8)) }
    }

    /// Prints, on standard error, the notes (what went as it should: a start, a relocalization,
    /// a file written) as `note:`, never as warnings; by source as ``printWarnings(_:)``.
    static func printNotes(_ notes: [String]) {
        for line in noteLines(notes) { StandardError.write(Data("parallax: \(line)\n".utf8)) }
    }

    /// The lines ``printWarnings(_:)`` prints.
    static func warningLines(_ warnings: [String]) -> [String] { lines(warnings, kind: "warning", shown: shownPerSource) }

    /// The lines ``printNotes(_:)`` prints.
    static func noteLines(_ notes: [String]) -> [String] { lines(notes, kind: "note", shown: notesShownPerSource) }

    /// `kind: message` for the first few messages of each source, after a count when there are more.
    private static func lines(_ messages: [String], kind: String, shown: Int) -> [String] {
        var order: [String] = []
        var bySource: [String: [String]] = [:]
        for w in messages {
            let source = w.range(of: ": ").map { String(w[..<$0.lowerBound]) } ?? ""
            if bySource[source] == nil { order.append(source) }
            bySource[source, default: []].append(w)
        }
        var lines: [String] = []
        for source in order {
            let all = bySource[source] ?? []
            if all.count > shown {
                lines.append("\(source.isEmpty ? "run" : source): \(all.count) \(kind)s (the first \(shown) below; all in run.json)")
            }
            lines += all.prefix(shown).map { "\(kind): \($0)" }
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
