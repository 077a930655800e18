import Foundation

/// One recorded benchmark run: a `bench` of a suite (or a merge of its shards), with what is
/// needed to tell two runs apart later — versions, commits, machine, options.
public struct RecordedRun: Codable, Equatable, Sendable {
    /// The database's id (0 before it is recorded).
    public var id: Int64 = 0
    /// When it was recorded, ISO 8601 UTC.
    public var recordedAt: String
    public var suite: String
    public var suiteFile: String
    public var suiteSHA256: String
    public var parallaxVersion: String
    /// The git commit Parallax was built from (`+dirty` with local changes), or `unknown`.
    public var parallaxCommit: String
    /// Host name, processors, memory, system.
    public var machine: String
    /// The command line.
    public var options: String
    /// `3 shards` for a merge, empty for one process.
    public var shards: String
    public var cases: [RecordedCase] = []

    public init(recordedAt: String, suite: String, suiteFile: String, suiteSHA256: String, parallaxVersion: String, parallaxCommit: String,
                machine: String, options: String, shards: String = "", cases: [RecordedCase] = []) {
        self.recordedAt = recordedAt; self.suite = suite; self.suiteFile = suiteFile; self.suiteSHA256 = suiteSHA256
        self.parallaxVersion = parallaxVersion; self.parallaxCommit = parallaxCommit; self.machine = machine; self.options = options
        self.shards = shards; self.cases = cases
    }
}

/// One case of a recorded run.
public struct RecordedCase: Codable, Equatable, Sendable {
    public var name: String
    /// Cases that differ only by their seed share a group (`vio-sim` for `vio-sim-seed3`):
    /// comparisons test a group's values over its seeds.
    public var group: String
    public var chain: String
    /// SHA-256 of the chain's text (its file's bytes, or the pipeline string).
    public var chainSHA256: String
    /// The git commit of the chain file (`+dirty` with local changes), empty when not in git.
    public var chainCommit: String
    public var dataset: String
    /// SHA-256 over the dataset's files (paths, sizes and bytes), or of the simulation's settings.
    public var datasetSHA256: String
    /// ok, skipped, failed, invalid, interrupted.
    public var status: String
    public var note: String
    public var realtimeFactor: Double
    public var metrics: [RecordedMetric] = []
    public var timings: [RecordedTiming] = []

    public init(name: String, group: String, chain: String, chainSHA256: String, chainCommit: String, dataset: String, datasetSHA256: String,
                status: String, note: String, realtimeFactor: Double, metrics: [RecordedMetric] = [], timings: [RecordedTiming] = []) {
        self.name = name; self.group = group; self.chain = chain; self.chainSHA256 = chainSHA256; self.chainCommit = chainCommit
        self.dataset = dataset; self.datasetSHA256 = datasetSHA256; self.status = status; self.note = note
        self.realtimeFactor = realtimeFactor; self.metrics = metrics; self.timings = timings
    }
}

/// One number an evaluation found: `trajectory.rmse`, `head-pose.mae_deg`.
public struct RecordedMetric: Codable, Equatable, Sendable {
    public var name: String
    public var value: Double
    /// Whether a smaller value is better (error statistics); `nil` when the metric does not
    /// say (reported, never called a regression).
    public var lowerIsBetter: Bool?

    public init(name: String, value: Double, lowerIsBetter: Bool?) { self.name = name; self.value = value; self.lowerIsBetter = lowerIsBetter }
}

/// One analyzer's speed in a case.
public struct RecordedTiming: Codable, Equatable, Sendable {
    public var analyzer: String
    public var calls: Int
    public var p50Milliseconds: Double
    public var p95Milliseconds: Double

    public init(analyzer: String, calls: Int, p50Milliseconds: Double, p95Milliseconds: Double) {
        self.analyzer = analyzer; self.calls = calls; self.p50Milliseconds = p50Milliseconds; self.p95Milliseconds = p95Milliseconds
    }
}
