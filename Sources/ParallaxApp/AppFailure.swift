import Foundation
import Parallax

/// Why an application task (a run, a bench, a simulation) stopped, with the exit status the
/// command line gives it: the user's input at fault (2), the task failed after writing began
/// (1), or a signal stopped it (128 + n). The message names the file, option or stream at fault
/// and, once writing began, where the partial results are.
public struct AppFailure: Error, CustomStringConvertible, Sendable {
    /// How the task ended.
    public enum Status: Equatable, Sendable {
        /// Bad usage or input: exit 2.
        case badInput
        /// The task failed: exit 1.
        case failed
        /// Stopped by this signal: exit 128 + its number.
        case signal(Int32)

        /// The process exit status.
        public var exitStatus: Int32 {
            switch self {
            case .badInput: return 2
            case .failed: return 1
            case .signal(let n): return 128 + n
            }
        }
    }

    public var message: String
    public var status: Status
    public var description: String { message }

    public init(_ message: String, status: Status) {
        self.message = message
        self.status = status
    }

    /// Whether `error` says the user's input is at fault (exit 2) rather than the task (exit 1):
    /// a ``BadInput`` error, or one of the errors that carry the distinction per case.
    public static func isBadInput(_ error: any Error) -> Bool {
        if error is any BadInput { return true }
        if let e = error as? VideoWriter.WriteError { return e.isBadInput }
        if let e = error as? BusError { return e.isBadInput }
        if let e = error as? AppFailure { return e.status == .badInput }
        return false
    }

    /// Bad input named by `error`'s description.
    public static func badInput(_ error: any Error) -> AppFailure { AppFailure("\(error)", status: .badInput) }
}
