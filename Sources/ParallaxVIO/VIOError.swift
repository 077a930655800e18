import Foundation

/// Why the filter stopped (it is then reset).
enum VIOError: Error, CustomStringConvertible {
    case diverged
    /// The estimated speed (m/s) exceeded ``VIOSettings/maxSpeed``.
    case tooFast(Double)
    /// Over the last `seconds` the features no longer fit the clones (``LostTracking``).
    case lost(seconds: Double)
    var description: String {
        switch self {
        case .diverged: return "the state or covariance is no longer finite"
        case let .lost(seconds):
            return "lost: over the last \(seconds) s most features failed the χ² gate or triangulated behind a camera or far off their tracks (the state no longer fits the images)"
        case let .tooFast(speed): return String(format: "the estimated speed %.1f m/s exceeds max_speed: diverged", speed)
        }
    }
}
