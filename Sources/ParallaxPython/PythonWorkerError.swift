import Foundation

/// Why a Python analyzer's worker could not do what was asked. Each message names the file.
/// Import and declaration failures are bad input (the chain names a file that is no analyzer);
/// the others are failures of the run.
public enum PythonWorkerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The interpreter could not be started.
    case launch(interpreter: String, reason: String)
    /// The worker stopped before it said hello (the `parallax` package not importable, say).
    case noHello(interpreter: String, status: String)
    /// The worker speaks another protocol version.
    case version(file: String, worker: Int, expected: Int)
    /// The file does not import.
    case importFailed(file: String, message: String, traceback: String)
    /// The file declares no analyzer (or several), or declares it wrongly.
    case declaration(file: String, message: String)
    /// The analyzer raised an exception.
    case exception(file: String, message: String, traceback: String)
    /// The worker died (killed, a crash in a C extension) while Parallax waited for it.
    case died(file: String, status: String, during: String)
    /// The worker did not answer within the timeout; it was killed.
    case timeout(file: String, seconds: Double, during: String)
    /// The worker sent something that is not the protocol (or too much of it).
    case protocolViolation(String)
    /// The command was asked to stop (a signal) while the worker was working; it was killed.
    case interrupted(file: String, during: String)

    public var description: String {
        switch self {
        case let .launch(interpreter, reason):
            return "cannot start the Python interpreter '\(interpreter)': \(reason) (give another with --python)"
        case let .noHello(interpreter, status):
            return "the Python worker (\(interpreter)) \(status) before it started; is the parallax package installed for it? (pip install ./python, or PYTHONPATH=python)"
        case let .version(file, worker, expected):
            return "python:\(file): the installed parallax package speaks worker protocol \(worker), this Parallax speaks \(expected); install the package of this Parallax (pip install ./python)"
        case let .importFailed(file, message, traceback):
            return "python:\(file) does not import: \(message)" + Self.indented(traceback)
        case let .declaration(file, message):
            return "python:\(file): \(message)"
        case let .exception(file, message, traceback):
            return "python:\(file) raised \(message)" + Self.indented(traceback)
        case let .died(file, status, during):
            return "the Python worker of python:\(file) \(status) during \(during)"
        case let .timeout(file, seconds, during):
            let why = ["start", "describe", "open"].contains(during) ? "starting and opening a worker" : "option timeout="
            return "the Python worker of python:\(file) did not answer \(during) within \(Self.seconds(seconds)) s (\(why)): it was killed"
        case let .protocolViolation(what):
            return "the Python worker broke the protocol: \(what)"
        case let .interrupted(file, during):
            return "the Python worker of python:\(file) was stopped during \(during): the run was interrupted"
        }
    }

    static func seconds(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : "\(s)" }

    static func indented(_ traceback: String) -> String {
        let text = traceback.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return "" }
        return "\n" + text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }

    /// Whether the file is at fault (the CLI exits 2) rather than the run (exit 1).
    public var isBadInput: Bool {
        switch self {
        case .importFailed, .declaration, .version, .launch, .noHello: return true
        default: return false
        }
    }
}
