import ParallaxCore

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
            context.emit(StreamStatistics(stream: stream, nanoseconds: stamps[stream] ?? []), on: statistics, at: Timestamp(nanoseconds: end))
        }
    }
}
