import Foundation
import ParallaxPayloads
/// Pairs the poses of two trajectories by timestamp, exactly as evo's
/// `sync.associate_trajectories` (nearest time, within `maxDifference`).
///
/// The trajectory with fewer poses drives the search, so none of its poses are lost; each of
/// its poses takes the nearest pose of the other (ties: the earlier one) if within
/// `maxDifference` seconds, after adding `offset` to the second trajectory's times. Several
/// poses may pick the same partner, as in evo.
public enum Association {
    /// Why two trajectories could not be associated.
    public enum AssociationError: Error, Equatable, Sendable, CustomStringConvertible {
        case noMatches(first: String, second: String, maxDifference: Double, offset: Double)
        /// Fewer than `minimum` (a share) of the shorter trajectory's `of` poses were paired.
        case smallOverlap(reference: String, estimate: String, pairs: Int, of: Int, minimum: Double, maxDifference: Double)
        public var description: String {
            switch self {
            case let .smallOverlap(r, e, pairs, n, minimum, d):
                return "only \(pairs) of \(n) poses (" + String(format: "%.1f", 100 * Double(pairs) / Double(n))
                    + " %) of the shorter trajectory pair up between \(r) and \(e) within \(d) s (at least "
                    + String(format: "%.0f", 100 * minimum) + " % expected): check the time units and the times files "
                    + "(--gt-times/--est-times), or accept it with --min-overlap 0"
            case let .noMatches(a, b, d, o):
                return "no matching timestamps between \(a) and \(b) with max. difference \(d) s and offset \(o) s"
            }
        }
    }

    /// The associated pair: equal counts, `reference.poses[i]` ↔ `estimate.poses[i]`.
    public static func associate(reference: Trajectory, estimate: Trajectory,
                                 maxDifference: Double = 0.01, offset: Double = 0) throws -> (reference: Trajectory, estimate: Trajectory) {
        let secondLonger = estimate.count > reference.count
        let short = secondLonger ? reference : estimate
        let long = secondLonger ? estimate : reference
        let (shortIndices, longIndices) = matchingIndices(short.times, long.times, maxDifference: maxDifference,
                                                          offset: secondLonger ? offset : -offset)
        guard !shortIndices.isEmpty else {
            throw AssociationError.noMatches(first: reference.name, second: estimate.name, maxDifference: maxDifference, offset: offset)
        }
        let s = short.subset(shortIndices), l = long.subset(longIndices)
        return secondLonger ? (s, l) : (l, s)
    }

    /// evo's `matching_time_indices`: binary search when `stamps2` is sorted, linear otherwise.
    static func matchingIndices(_ stamps1: [Double], _ rawStamps2: [Double], maxDifference: Double, offset: Double) -> ([Int], [Int]) {
        let stamps2 = rawStamps2.map { $0 + offset }
        var m1: [Int] = [], m2: [Int] = []
        let sorted = zip(stamps2.dropFirst(), stamps2).allSatisfy { $0 >= $1 }
        if !sorted {
            for (i, s) in stamps1.enumerated() {
                var best = 0
                for j in stamps2.indices where abs(stamps2[j] - s) < abs(stamps2[best] - s) { best = j }
                if abs(stamps2[best] - s) <= maxDifference { m1.append(i); m2.append(best) }
            }
            return (m1, m2)
        }
        guard let first = stamps2.first, let last = stamps2.last else { return ([], []) }
        for (i, s) in stamps1.enumerated() {
            if s < first - maxDifference || s > last + maxDifference { continue }
            // numpy.searchsorted(side="right"): first index with stamps2[k] > s.
            var lo = 0, hi = stamps2.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if stamps2[mid] <= s { lo = mid + 1 } else { hi = mid }
            }
            let index = min(lo, stamps2.count - 1)
            let upper = stamps2[index] - s
            let lower = index > 0 ? s - stamps2[index - 1] : .infinity
            if upper <= maxDifference && upper < lower {
                m1.append(i); m2.append(index)
            } else if lower <= maxDifference && lower <= upper {
                m1.append(i); m2.append(index - 1)
            }
        }
        return (m1, m2)
    }
}
