import ParallaxBus
import ParallaxMath
import ParallaxPayloads

/// The clock offset between an estimate and its reference that fits best: the shift of the
/// estimate's times (s) that minimizes the position RMSE after SE(3) alignment, the reference
/// interpolated at every shifted time. A reference stamped late (or an estimator stamping its
/// poses early) shows as an error along the velocity that no alignment removes: on EuRoC MH_01's
/// 20 s clip `vio` and OpenVINS both fit best 8–10 ms later (SE3 APE 4.8 → 3.8 mm and
/// 5.8 → 4.8 mm), a lag of the ground truth's positions, not of either estimator. evo and the
/// APE here associate at the stamps as given (its `--t_offset` is set by hand).
///
/// A shift also fits drift: an estimate whose error follows its motion fits better shifted even
/// when every clock is right (the bench's simulated 10 s orbit, exact stamps: 33.5 ms, SE3 24.8 →
/// 20.9 mm). So it is a question `parallax eval --fit-offset` answers on request, to be believed
/// when independent estimators agree on it (as `vio` and OpenVINS on MH_01), not a diagnosis
/// the bench prints for every run.
public enum TimeOffsetSearch {
    /// The best shift and what it changes.
    public struct Result: Sendable, Equatable {
        /// Added to the estimate's times (s): positive when the estimate matches the reference
        /// later than its own stamps say (a reference stamped late).
        public var offset: Double
        /// Position RMSE after SE(3) alignment (m) at ``offset`` and at 0, over the same poses.
        public var rmse: Double
        public var rmseAtZero: Double
        /// Estimate poses compared (those whose shifted times all fall within the reference).
        public var poses: Int
    }

    /// Searches shifts of `-range…range` s in steps of `step` s, then refines the best by a
    /// parabola through its neighbours. `nil` when fewer than 10 estimate poses lie inside the
    /// reference for every shift, when the reference has gaps wider than `maxGap` s around them,
    /// or when the best shift is at the edge of the range (the true one may lie beyond it).
    public static func search(reference: Trajectory, estimate: Trajectory, range: Double = 0.05, step: Double = 0.001,
                              maxGap: Double = 0.1) -> Result? {
        guard range > 0, range <= 3600, step > 0, range / step <= 10_000, maxGap > 0, maxGap <= 3600, let first = reference.poses.first, let last = reference.poses.last else { return nil }
        let gap = Nanoseconds(maxGap * 1e9)
        // The poses every shift can compare: the same set for all, so the RMSEs are comparable.
        let kept = estimate.poses.filter { p in
            p.time - range >= first.time && p.time + range <= last.time
                && shifted(p.timestamp, by: -range).flatMap { reference.pose(at: $0, maxGap: gap) } != nil
                && shifted(p.timestamp, by: range).flatMap { reference.pose(at: $0, maxGap: gap) } != nil
        }
        guard kept.count >= 10 else { return nil }
        let source = kept.map(\.pose.translation)
        func rmse(_ shift: Double) -> Double? {
            var target: [Vector3] = []
            target.reserveCapacity(kept.count)
            for p in kept {
                guard let t = shifted(p.timestamp, by: shift), let r = reference.pose(at: t, maxGap: gap) else { return nil }
                target.append(r.translation)
            }
            return try? Umeyama.align(source: source, target: target, mode: .se3).rmse
        }
        let steps = Int((range / step).rounded(.down))
        var values: [Double] = []
        for k in -steps...steps {
            guard let v = rmse(Double(k) * step) else { return nil }
            values.append(v)
        }
        guard let best = values.indices.min(by: { values[$0] < values[$1] }), best > 0, best < values.count - 1 else { return nil }
        let atZero = values[steps]
        let (a, b, c) = (values[best - 1], values[best], values[best + 1])
        let curvature = a - 2 * b + c
        let vertex = curvature > 0 ? 0.5 * (a - c) / curvature : 0
        let offset = (Double(best - steps) + vertex) * step
        return Result(offset: offset, rmse: rmse(offset) ?? b, rmseAtZero: atZero, poses: kept.count)
    }

    /// `t` moved by `seconds` (rounded to the nanosecond); `nil` past the clock's range.
    static func shifted(_ t: Timestamp, by seconds: Double) -> Timestamp? {
        let (sum, overflow) = t.nanoseconds.addingReportingOverflow(Int64((seconds * 1e9).rounded()))
        return overflow ? nil : Timestamp(nanoseconds: sum)
    }
}
