/// How much a camera's frame stamps wander about its frame period, measured from the stamps
/// themselves: each interval's distance from the nearest whole number of median periods (so
/// dropped frames count as whole periods) is the difference of two stamps' errors, and the
/// median absolute deviation of those, ×1.4826 (normal) / √2, is σ of one stamp. A camera that
/// stamps on a hardware trigger (EuRoC) gives 0; one stamping on arrival, its jitter (frames
/// stamped ±2 ms at random: 1.1 ms, the uniform's σ being 1.15).
struct StampJitter {
    /// Intervals kept (the most recent).
    static let kept = 128
    /// Fewest intervals before a σ is given.
    static let fewest = 8
    private var last: Int64?
    private var intervals: [Double] = []

    /// A frame stamped `stamp` (ns).
    mutating func record(_ stamp: Int64) {
        defer { last = stamp }
        guard let last, stamp > last else { return }
        intervals.append(Double(stamp - last) * 1e-9)
        if intervals.count > Self.kept { intervals.removeFirst(intervals.count - Self.kept) }
    }

    /// σ of one stamp's error (s); 0 until ``fewest`` intervals are known.
    var sigma: Double {
        guard intervals.count >= Self.fewest else { return 0 }
        let period = Self.median(intervals)
        guard period > 0 else { return 0 }
        let residuals = intervals.map { $0 - period * ($0 / period).rounded() }
        let centre = Self.median(residuals)
        return 1.4826 * Self.median(residuals.map { abs($0 - centre) }) / 2.0.squareRoot()
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let n = sorted.count
        guard n > 0 else { return 0 }
        return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2])
    }
}
