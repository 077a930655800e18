import ParallaxCore

/// Timing statistics of one stream, as `stream-stats` reports them.
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
}

/// Rates, gaps and jitter of any streams (payload-agnostic), reported once at the end.
///
/// Example chain: `stream-stats streams=cam0,imu0`
public struct StreamStatsAnalyzer: Analyzer {
    public static let name = "stream-stats"
    public static let summary = "Rate, gaps, jitter and estimated drops of each listed stream, reported at the end"

    public struct Options: AnalyzerOptions {
        /// Streams to measure.
        public var streams = ["cam0", "imu0"]
        /// Output stream name.
        public var output = "stats"
        public init() {}
        public static let documentation = ["streams": "streams to measure (comma-separated)", "output": "output stream of StreamStatistics, one per stream at the end"]
    }

    private let watched: [String]
    private let statistics: OutputPort<StreamStatistics>
    private var stamps: [String: [Int64]] = [:]

    public init(options: Options) throws {
        guard !options.streams.isEmpty else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "streams", reason: "list at least one stream")
        }
        watched = options.streams
        statistics = OutputPort(options.output)
    }

    public var inputs: [PortDescription] {
        watched.map { PortDescription(stream: $0, type: PortDescription.anyPayload, policy: .each) }
    }
    public var outputs: [PortDescription] { [statistics.erased] }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        stamps[input.triggerStream, default: []].append(input.timestamp.nanoseconds)
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        let end = stamps.values.compactMap(\.last).max() ?? 0
        for stream in watched {
            context.emit(Self.statistics(of: stream, stamps[stream] ?? []), on: statistics, at: Timestamp(nanoseconds: end))
        }
    }

    /// Statistics of one stream's timestamps (ns, increasing).
    public static func statistics(of stream: String, _ t: [Int64]) -> StreamStatistics {
        let periods = zip(t.dropFirst(), t).map { Double($0 - $1) / 1e6 }
        let sorted = periods.sorted()
        let median = sorted.isEmpty ? 0 : (sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2)
        let mean = periods.isEmpty ? 0 : periods.reduce(0, +) / Double(periods.count)
        let variance = periods.isEmpty ? 0 : periods.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(periods.count)
        let gapPeriods = median > 0 ? periods.filter { $0 > 1.5 * median } : []
        let span = t.count > 1 ? Double(t.last! - t.first!) / 1e9 : 0
        return StreamStatistics(
            stream: stream, packets: t.count,
            first: t.first.map { Timestamp(nanoseconds: $0) }, last: t.last.map { Timestamp(nanoseconds: $0) },
            rateHz: span > 0 ? Double(t.count - 1) / span : 0,
            medianPeriodMilliseconds: median, jitterMilliseconds: variance.squareRoot(),
            maxGapMilliseconds: sorted.last ?? 0, gaps: gapPeriods.count,
            estimatedDropped: gapPeriods.reduce(0) { $0 + max(0, Int(($1 / median).rounded()) - 1) })
    }
}
