/// Where in a chain description something is: file (or `<pipeline>`), line and column (1-based).
public struct ChainLocation: Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let column: Int
    public init(file: String, line: Int, column: Int) { self.file = file; self.line = line; self.column = column }
    public var description: String { "\(file):\(line):\(column)" }
}

/// Why a chain could not be loaded. Messages start with `file:line:column`, or with `--set TEXT`
/// for an ``OptionOverride`` at fault.
public indirect enum ChainError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownAnalyzer(name: String, suggestion: String?, location: ChainLocation?)
    case unknownOption(analyzer: String, option: String, suggestion: String?, location: ChainLocation?)
    case invalidOptionValue(analyzer: String, option: String, value: String, reason: String, location: ChainLocation?)
    /// A remapping (`port=@stream`) names a port the analyzer does not have.
    case unknownPort(analyzer: String, port: String, suggestion: String?, location: ChainLocation?)
    case syntax(message: String, location: ChainLocation?)
    /// Wiring failed (unknown stream, type mismatch, …) at the analyzer at `location`.
    case wiring(BusError, location: ChainLocation?)
    /// A `--set` (``OptionOverride``, its text first) that cannot be applied: the problem says
    /// why, as for the same option in the chain (without the chain's location: the `--set` is
    /// at fault).
    case override(String, ChainError)

    public var description: String {
        func at(_ l: ChainLocation?) -> String { l.map { "\($0): " } ?? "" }
        func maybe(_ s: String?) -> String { s.map { "; did you mean '\($0)'?" } ?? "" }
        switch self {
        case let .unknownAnalyzer(name, suggestion, l):
            return "\(at(l))unknown analyzer '\(name)'\(maybe(suggestion)) (list them with `parallax plugins`)"
        case let .unknownOption(a, o, suggestion, l):
            return "\(at(l))analyzer '\(a)' has no option '\(o)'\(maybe(suggestion)) (see `parallax plugins \(a)`)"
        case let .invalidOptionValue(a, o, v, reason, l):
            // A long value (a list of boxes, a pasted document) is shown by its start.
            let shown = v.count > 160 ? String(v.prefix(160)) + "… (\(v.utf8.count) bytes)" : v
            return "\(at(l))analyzer '\(a)', option '\(o)' = '\(shown)': \(reason)"
        case let .unknownPort(a, p, suggestion, l):
            return "\(at(l))analyzer '\(a)' has no port '\(p)'\(maybe(suggestion)) (its ports are listed by `parallax plugins \(a)`)"
        case let .syntax(message, l):
            return "\(at(l))\(message)"
        case let .wiring(error, l):
            return "\(at(l))\(error)"
        case let .override(text, problem):
            return "--set \(text): \(problem)"
        }
    }
}
