/// Timing statistics of one stream: rate, period, jitter, gaps.
public struct StreamStatistics: Sendable, Codable, Equatable {
    /// The stream described.
    public var stream: String
    /// Packets seen.
    public var packets: Int
    /// First and last timestamps.
    public var first: Timestamp?
    public var last: Timestamp?
    /// Packets per second over the stream's span (Hz).
    public var rateHz: Double
    /// Median interval between packets (ms): the nominal period.
    public var medianPeriodMilliseconds: Double
    /// Standard deviation of the interval (ms): the jitter.
    public var jitterMilliseconds: Double
    /// Largest interval (ms).
    public var maxGapMilliseconds: Double
    /// Intervals longer than 1.5 × the median period.
    public var gaps: Int
    /// Packets estimated missing inside those gaps (`round(gap / period) − 1` each).
    public var estimatedDropped: Int

    /// Statistics of one stream's timestamps (ns, in increasing order).
    public init(stream: String, nanoseconds t: [Int64]) {
        let periods = zip(t.dropFirst(), t).map { Double($0 - $1) / 1e6 }
        let sorted = periods.sorted()
        let median = sorted.isEmpty ? 0 : (sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2)
        let mean = periods.isEmpty ? 0 : periods.reduce(0, +) / Double(periods.count)
        let variance = periods.isEmpty ? 0 : periods.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(periods.count)
        let gapPeriods = median > 0 ? periods.filter { $0 > 1.5 * median } : []
        let span = t.count > 1 ? Double(t.last! - t.first!) / 1e9 : 0
        self.stream = stream
        packets = t.count
        first = t.first.map { Timestamp(nanoseconds: $0) }
        last = t.last.map { Timestamp(nanoseconds: $0) }
        rateHz = span > 0 ? Double(t.count - 1) / span : 0
        medianPeriodMilliseconds = median
        jitterMilliseconds = variance.squareRoot()
        maxGapMilliseconds = sorted.last ?? 0
        gaps = gapPeriods.count
        estimatedDropped = gapPeriods.reduce(0) { $0 + max(0, Int(($1 / median).rounded()) - 1) }
    }
}

