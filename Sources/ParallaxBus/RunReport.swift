/// What a run did: per-analyzer timing, stream counts, skips, warnings, notes and speed.
/// Written as `run.json` by `parallax run`.
public struct RunReport: Sendable, Codable, Equatable {
    /// Per-analyzer processing time.
    public struct AnalyzerTiming: Sendable, Codable, Equatable {
        public var instance: String
        public var analyzer: String
        /// `process` calls made.
        public var calls: Int
        /// Median / 95th percentile / maximum time per call (ms).
        public var p50Milliseconds: Double
        public var p95Milliseconds: Double
        public var maxMilliseconds: Double
        /// Total time in `open` + `process` + `close` (ms).
        public var totalMilliseconds: Double
        /// For analyzers with look-ahead inputs (`nearest`, `between(through: .firstAfter)`): how far the data had
        /// to run past a trigger before it could run, median and maximum (ms of dataset time).
        /// In `--realtime` this is the latency the look-ahead adds. `nil` otherwise.
        public var lookAheadP50Milliseconds: Double?
        public var lookAheadMaxMilliseconds: Double?

        public init(instance: String, analyzer: String, calls: Int, p50Milliseconds: Double, p95Milliseconds: Double,
                    maxMilliseconds: Double, totalMilliseconds: Double) {
            self.instance = instance
            self.analyzer = analyzer
            self.calls = calls
            self.p50Milliseconds = p50Milliseconds
            self.p95Milliseconds = p95Milliseconds
            self.maxMilliseconds = maxMilliseconds
            self.totalMilliseconds = totalMilliseconds
        }
    }

    /// Packets seen on one stream.
    public struct StreamCount: Sendable, Codable, Equatable {
        public var stream: String
        public var type: String
        public var packets: Int
        public var first: Timestamp?
        public var last: Timestamp?

        public init(stream: String, type: String, packets: Int, first: Timestamp? = nil, last: Timestamp? = nil) {
            self.stream = stream
            self.type = type
            self.packets = packets
            self.first = first
            self.last = last
        }
    }

    /// Packets not processed, with the reason.
    public struct Skip: Sendable, Codable, Equatable {
        public var analyzer: String?
        public var stream: String
        public var count: Int
        public var reason: String

        /// The reason of triggers dropped in realtime mode because the analyzer was behind.
        public static let realtimeDropReason = "realtime: analyzer behind, older trigger dropped"
        /// Whether these are realtime drops.
        public var isRealtimeDrop: Bool { reason == Self.realtimeDropReason }

        public init(analyzer: String?, stream: String, count: Int, reason: String) {
            self.analyzer = analyzer
            self.stream = stream
            self.count = count
            self.reason = reason
        }
    }

    public var analyzers: [AnalyzerTiming] = []
    public var streams: [StreamCount] = []
    public var skipped: [Skip] = []
    /// What went wrong or was left out, each `source: …` (an analyzer instance, a stream).
    public var warnings: [String] = []
    /// What went as it should and is worth knowing (an analyzer's start, a relocalization, a
    /// file written), each `source: …`; not warnings.
    public var notes: [String] = []
    /// Options analyzers took from their inputs' metadata because the chain gave none, in the
    /// order they were taken; absent from `run.json` when none was.
    public var optionsFromData: [OptionFromData]?
    /// Dataset time covered by the sources (s).
    public var datasetSeconds: Double = 0
    /// Wall-clock time of the run (s). Not reproducible, unlike everything else above.
    public var wallSeconds: Double = 0
    /// datasetSeconds / wallSeconds: > 1 means faster than real time.
    public var realtimeFactor: Double = 0
    /// Peak resident memory of the process (MB).
    public var peakMemoryMegabytes: Double = 0
    /// `offline` or `realtime`.
    public var mode: String = "offline"
    /// Set when the run stopped early (the error message).
    public var failure: String?

    public init() {}
}

extension RunReport {
    /// An option an analyzer took from the data (``AnalyzerContext/useFromData(_:value:from:)``).
    public struct OptionFromData: Sendable, Codable, Equatable {
        /// The analyzer instance.
        public var instance: String
        /// The option (`snake_case`).
        public var option: String
        /// The value taken, as option text.
        public var value: String
        /// Where it came from ("calib.txt (ndisp)", "cam0's image width").
        public var origin: String

        public init(instance: String, option: String, value: String, origin: String) {
            self.instance = instance
            self.option = option
            self.value = value
            self.origin = origin
        }
    }
}
