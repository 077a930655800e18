import Foundation

/// Why the filter stopped (it is then reset).
enum VIOError: Error, CustomStringConvertible {
    case diverged
    /// The estimated speed (m/s) exceeded ``VIOSettings/maxSpeed``.
    case tooFast(Double)
    var description: String {
        switch self {
        case .diverged: return "the state or covariance is no longer finite"
        case let .tooFast(speed): return String(format: "the estimated speed %.1f m/s exceeds max_speed: diverged", speed)
        }
    }
}
