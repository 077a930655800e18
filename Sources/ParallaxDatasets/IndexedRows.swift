import ParallaxCore

/// The skeleton every dataset reader shares: rows are indexed up front (times and file names:
/// small), merged by time, and produced lazily (an image is decoded only when the bus asks for
/// it, possibly on a worker thread — ``PrefetchingSource``).
///
/// Merge order: time, then stream rank (the reader's stream order), then insertion order, so
/// equal timestamps come out the same way every run.
public struct IndexedRows: Sendable {
    private var rows: [(time: Timestamp, rank: Int, packet: DeferredPacket)] = []
    private var index = 0
    private var merged = false

    /// No rows yet.
    public init() {}

    /// Rows added so far.
    public var count: Int { rows.count }

    /// A packet that is ready now (a CSV sample).
    public mutating func add(_ packet: AnyPacket, rank: Int) {
        rows.append((packet.timestamp, rank, .ready(packet)))
    }

    /// A packet on `stream` at `time` produced later by `produce` (an image decode), which may
    /// run on any thread.
    public mutating func add(at time: Timestamp, rank: Int, produce: @escaping @Sendable () throws -> AnyPacket) {
        rows.append((time, rank, .work(produce)))
    }

    /// Adds `trajectory` as the ``DatasetStreams/groundTruth`` pose stream (``Pose``, `T_WB`),
    /// after checking that its times increase (an error names `file` otherwise), and records it
    /// in `listing`.
    public mutating func addGroundTruth(_ trajectory: Trajectory, file: String, rank: Int, listing: inout StreamListing) throws {
        try DatasetError.requireIncreasing(trajectory, file: file)
        for p in trajectory.poses {
            add(AnyPacket(stream: DatasetStreams.groundTruth, timestamp: p.timestamp, payload: Pose(worldFromBody: p.pose)), rank: rank)
            listing.record(stream: DatasetStreams.groundTruth, timestamp: p.timestamp, file: file, line: 0)
        }
    }

    /// The next packet in merged order (merging on the first call), or `nil` at the end.
    public mutating func next() -> DeferredPacket? {
        if !merged {
            rows = rows.enumerated().sorted { a, b in
                (a.element.time, a.element.rank, a.offset) < (b.element.time, b.element.rank, b.offset)
            }.map(\.element)
            merged = true
        }
        guard index < rows.count else { return nil }
        defer { index += 1 }
        return rows[index].packet
    }
}
