/// Why a chain could not be wired or a run failed. Every case names the analyzer, stream and
/// timestamp involved, so the message alone tells the user where to look.
public enum BusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An analyzer reads a stream nobody produces.
    case unknownStream(analyzer: String, stream: String, available: [String])
    /// A stream's payload type differs from what an analyzer input expects.
    case typeMismatch(analyzer: String, stream: String, expected: String, found: String)
    /// Two producers write the same stream.
    case duplicateProducer(stream: String, producers: [String])
    /// The analyzers' streams form a cycle.
    case cycle(analyzers: [String])
    /// An analyzer has no `each` input, so nothing would ever trigger it.
    case noTrigger(analyzer: String)
    /// Two analyzer instances share a name.
    case duplicateInstance(name: String)
    /// A source stream's timestamps went backwards or repeated.
    case sourceOutOfOrder(stream: String, previous: Timestamp, current: Timestamp)
    /// A source produced a packet on a stream it did not declare, or of the wrong type.
    case undeclaredSourceStream(stream: String)
    /// An analyzer emitted on a stream it did not declare, or with the wrong payload type.
    case undeclaredOutput(analyzer: String, stream: String)
    /// An analyzer declared an output's metadata after `open` (consumers have read it by then).
    case metadataAfterOpen(analyzer: String, stream: String)
    /// An analyzer's output timestamps went backwards on one stream.
    case outputOutOfOrder(analyzer: String, stream: String, previous: Timestamp, current: Timestamp)
    /// An analyzer threw. `stream`/`timestamp` locate the trigger (nil during open/close).
    /// `badInput`: what it threw was a ``BadInput`` error (an option or the data it was given,
    /// such as a start box outside the first image), not a failure of the run.
    case analyzerFailed(analyzer: String, phase: String, stream: String?, timestamp: Timestamp?, message: String, badInput: Bool = false)
    /// A source threw (bad file, corrupt image, …); its message names the file. `badInput`: what
    /// it threw was a ``BadInput`` error (the data is at fault: a frame that does not decode, a
    /// truncated record), as most source errors are; false for a failure of the machine (a read
    /// error, memory).
    case sourceFailed(message: String, badInput: Bool = false)
    /// The run was cancelled (Ctrl-C); what was computed was flushed.
    case cancelled

    /// Whether the user's input is at fault (the CLI exits 2), rather than the run (exit 1).
    public var isBadInput: Bool {
        switch self {
        case let .analyzerFailed(_, _, _, _, _, badInput): return badInput
        case let .sourceFailed(_, badInput): return badInput
        case .sourceOutOfOrder: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case let .unknownStream(a, s, available):
            return "analyzer '\(a)' reads stream '\(s)', which no source or analyzer produces (available: \(available.joined(separator: ", ")))"
        case let .typeMismatch(a, s, expected, found):
            return "analyzer '\(a)' expects \(expected) on stream '\(s)', but that stream carries \(found)"
        case let .duplicateProducer(s, producers):
            return "stream '\(s)' is produced by several producers: \(producers.joined(separator: ", "))"
        case let .cycle(analyzers):
            return "the chain has a cycle through \(analyzers.joined(separator: " → "))"
        case let .noTrigger(a):
            return "analyzer '\(a)' has no 'each' input: nothing would trigger it"
        case let .duplicateInstance(name):
            return "two analyzers are named '\(name)'; give one another name (`\(name):other` in a pipeline, `as: other` in a YAML chain)"
        case let .sourceOutOfOrder(s, prev, cur):
            let what = prev == cur ? "repeats timestamp \(cur.nanoseconds)" : "goes backwards from \(prev.nanoseconds) to \(cur.nanoseconds)"
            return "stream '\(s)' \(what) ns"
        case let .undeclaredSourceStream(s):
            return "a source produced a packet on stream '\(s)', which it did not declare (or of another type)"
        case let .undeclaredOutput(a, s):
            return "analyzer '\(a)' emitted on stream '\(s)', which is not one of its declared outputs (or of another type)"
        case let .metadataAfterOpen(a, s):
            return "analyzer '\(a)' described stream '\(s)' after open; describe outputs in open(context:), before consumers read them"
        case let .outputOutOfOrder(a, s, prev, cur):
            return "analyzer '\(a)' emitted on '\(s)' at \(cur.nanoseconds) ns after \(prev.nanoseconds) ns: output timestamps must not decrease"
        case let .analyzerFailed(a, phase, s, t, message, _):
            let at = s.map { " on stream '\($0)'" } ?? ""
            let when = t.map { " at \($0.nanoseconds) ns" } ?? ""
            return "analyzer '\(a)' failed in \(phase)\(at)\(when): \(message)"
        case let .sourceFailed(message, _):
            return message
        case .cancelled:
            return "run cancelled; outputs computed so far were written"
        }
    }
}
