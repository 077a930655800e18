import Foundation
import ParallaxPayloads
/// How a video format is chosen from measured ones (each: its error against ground truth and its
/// load — analyzer time over data time on this machine), and why each other format was not:
/// - `native`: the camera's own format (ARKit's recommended one), as when nothing is asked;
/// - `min-fps`: the highest resolution whose frame rate reaches the floor (then the higher rate,
///   then colour);
/// - `within`: the cheapest whose error is at most `within` (a fraction) above the native error;
/// - `budget`: the most accurate whose load is at most `budget` (1: keeps up with real time).
/// Ties go to the earlier format (the list's order: native first, larger first).
public struct FormatPolicies: Sendable {
    public let formats: [VideoFormat]
    public let errors: [Double]
    public let loads: [Double]
    public let minFPS: Double?
    public let within: Double
    public let budget: Double
    /// Chosen index per policy (`nil`: no format qualifies).
    public let native: Int?, highestAtRate: Int?, cheapestWithin: Int?, bestInBudget: Int?

    public init(measured: [(format: VideoFormat, error: Double, load: Double)], minFPS: Double?, within: Double, budget: Double) {
        formats = measured.map(\.format)
        errors = measured.map(\.error)
        loads = measured.map(\.load)
        self.minFPS = minFPS
        self.within = within
        self.budget = budget
        let indices = Array(measured.indices)
        native = indices.first { measured[$0].format.recommended }
        if let minFPS {
            highestAtRate = indices.filter { (measured[$0].format.frameRateHz ?? 0) >= minFPS - 1e-9 }.min { a, b in
                let fa = measured[a].format, fb = measured[b].format
                let ka = (fa.width * fa.height, fa.frameRateHz ?? 0, fa.pixelFormat == .rgb8 ? 1 : 0)
                let kb = (fb.width * fb.height, fb.frameRateHz ?? 0, fb.pixelFormat == .rgb8 ? 1 : 0)
                return ka != kb ? ka > kb : a < b
            }
        } else {
            highestAtRate = nil
        }
        let reference = native.map { measured[$0].error } ?? .nan
        cheapestWithin = indices.filter { measured[$0].error.isFinite && measured[$0].error <= reference * (1 + within) }
            .min { (measured[$0].load, $0) < (measured[$1].load, $1) }
        bestInBudget = indices.filter { measured[$0].load <= budget && measured[$0].error.isFinite }
            .min { (measured[$0].error, $0) < (measured[$1].error, $1) }
    }

    /// The policies that pick format `i`.
    public func picks(_ i: Int) -> [String] {
        [("native", native), ("min-fps", highestAtRate), ("within", cheapestWithin), ("budget", bestInBudget)].compactMap { $0.1 == i ? $0.0 : nil }
    }

    /// One line per policy with its choice, then one line per format saying why each policy
    /// did not pick it.
    public var explanations: [String] {
        func name(_ i: Int?) -> String { i.map { formats[$0].description } ?? "none qualifies" }
        let reference = native.map { errors[$0] } ?? .nan
        var lines = ["native: \(name(native))"]
        if let minFPS { lines.append(String(format: "min-fps %.3g Hz: ", minFPS) + name(highestAtRate)) }
        lines.append(String(format: "within %.0f %% of native: ", 100 * within) + name(cheapestWithin))
        lines.append(String(format: "budget %.2g × real time: ", budget) + name(bestInBudget))
        for i in formats.indices {
            var why: [String] = []
            if let minFPS, highestAtRate != i {
                let rate = formats[i].frameRateHz ?? 0
                why.append(rate < minFPS - 1e-9 ? String(format: "min-fps: %.3g Hz is below the floor", rate) : "min-fps: a larger or faster format reaches the floor")
            }
            if cheapestWithin != i {
                why.append(errors[i] > reference * (1 + within) ? String(format: "within: error %+.0f %% of native", 100 * (errors[i] / reference - 1)) : String(format: "within: a cheaper format is within %.0f %% of native too", 100 * within))
            }
            if bestInBudget != i {
                why.append(loads[i] > budget ? String(format: "budget: load %.2f over %.2g", loads[i], budget) : "budget: a more accurate format fits")
            }
            lines.append("  \(formats[i]): " + (why.isEmpty ? "chosen by every policy" : why.joined(separator: "; ")))
        }
        return lines
    }

    /// Indices of the points (cost, error) no other point beats on both, by increasing cost.
    public static func paretoFront(_ points: [(cost: Double, error: Double)]) -> [Int] {
        let order = points.indices.filter { points[$0].cost.isFinite && points[$0].error.isFinite }.sorted { (points[$0].cost, points[$0].error, $0) < (points[$1].cost, points[$1].error, $1) }
        var front: [Int] = []
        var best = Double.infinity
        for i in order where points[i].error < best {
            front.append(i)
            best = points[i].error
        }
        return front
    }
}
