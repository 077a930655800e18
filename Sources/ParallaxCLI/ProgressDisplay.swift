import Foundation
import ParallaxApp
import Parallax

#if canImport(Glibc)
import Glibc
#endif

/// Progress of a run on stderr: a bar with percentage, speed (× real time) and ETA when
/// stderr is a terminal; otherwise one plain line per 10 % (logs stay readable).
final class ProgressDisplay {
    private let start: Timestamp
    private let span: Double
    private let interactive = isatty(STDERR_FILENO) != 0
    private let clock = ContinuousClock()
    private let began: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant
    private var lastDecile = -1

    /// Progress over dataset time `first…last`.
    init(first: Timestamp, last: Timestamp) {
        start = first
        span = max(last.seconds(since: first), 1e-9)
        began = clock.now
        lastDraw = began
    }

    /// Progress over the span of `stamps` (a dataset's listing, a trajectory); `nil` when empty.
    convenience init?(spanning stamps: some Sequence<Timestamp>) {
        var first: Timestamp?, last: Timestamp?
        for t in stamps {
            if first.map({ t < $0 }) ?? true { first = t }
            if last.map({ t > $0 }) ?? true { last = t }
        }
        guard let first, let last else { return nil }
        self.init(first: first, last: last)
    }

    /// Called by the bus per timestamp group.
    func update(_ t: Timestamp) {
        let fraction = min(1, max(0, t.seconds(since: start) / span))
        let now = clock.now
        let elapsed = (now - began).seconds
        if interactive {
            guard (now - lastDraw).seconds >= 0.1 || fraction >= 1 else { return }
            lastDraw = now
            let width = 30
            let filled = Int(fraction * Double(width))
            let speed = elapsed > 0 ? fraction * span / elapsed : 0
            let eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
            let bar = String(repeating: "=", count: filled) + (filled < width ? ">" : "") + String(repeating: " ", count: max(0, width - filled - 1))
            write(String(format: "\r[%@] %3.0f%%  %.1f× real time  ETA %.0f s ", bar, fraction * 100, speed, eta))
        } else {
            let decile = Int(fraction * 10)
            guard decile > lastDecile else { return }
            lastDecile = decile
            write(String(format: "progress: %3d%% after %.1f s\n", decile * 10, elapsed))
        }
    }

    /// Ends the bar line.
    func finish() { if interactive { write("\n") } }

    private func write(_ s: String) { StandardError.write(Data(s.utf8)) }
}
