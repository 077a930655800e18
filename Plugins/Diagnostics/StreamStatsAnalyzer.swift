import ParallaxBus
/// Rates, gaps and jitter of any streams (payload-agnostic), reported once at the end.
///
/// Example chain: `stream-stats streams=cam0,imu0`
public struct StreamStatsAnalyzer: Analyzer {
    public static let name = "stream-stats"
    public static let summary = "Rate, gaps, jitter and estimated drops of each listed stream, reported at the end"

    public struct Options: AnalyzerOptions {
        @Parameter("streams to measure", rule: "at least one", validate: { $0.isEmpty ? "list at least one stream" : nil })
        public var streams = ["cam0", "imu0"]
        @Parameter("output stream of StreamStatistics, one per stream at the end") public var output = "stats"
        public init() {}
    }

    private let watched: [InputPort<AnyPayload>]
    private let statistics: OutputPort<StreamStatistics>
    private var stamps: [String: [Int64]] = [:]

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        // Payload-agnostic: it only looks at timestamps, so it accepts any stream.
        watched = options.streams.map { .each($0) }
        statistics = OutputPort(options.output)
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        stamps[input.triggerStream, default: []].append(input.timestamp.nanoseconds)
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        let end = stamps.values.compactMap(\.last).max() ?? 0
        for stream in watched.map(\.key.name) {
            context.emit(StreamStatistics(stream: stream, nanoseconds: stamps[stream] ?? []), on: statistics, at: Timestamp(nanoseconds: end))
        }
    }
}
