import Foundation
import ParallaxBus
import ParallaxPayloads
/// The skeleton every dataset reader shares: rows are indexed up front (times and file names:
/// small), listed images are checked to exist once (``dropMissingImages(strict:)``), rows are
/// merged by time, and packets are produced lazily (an image is decoded only when the bus asks
/// for it, possibly on a worker thread — ``PrefetchingSource``).
///
/// Merge order: time, then stream rank (the reader's stream order), then insertion order, so
/// equal timestamps come out the same way every run.
public struct IndexedRows: Sendable {
    private enum Row: Sendable {
        case ready(AnyPacket)
        case work(@Sendable () throws -> AnyPacket)
        /// Produced on the reading thread when its turn comes (a video's next frame).
        case inOrder(@Sendable () throws -> AnyPacket)
        /// A listed image: decoded by `decode(path)`; `name`, `file` and `line` are how and where it is listed.
        case image(stream: String, path: String, name: String, file: String, line: Int, decode: @Sendable (String) throws -> AnyPacket)
    }

    private var rows: [(time: Timestamp, rank: Int, row: Row)] = []
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

    /// A packet at `time` produced later by `produce`, which may run on any thread.
    public mutating func add(at time: Timestamp, rank: Int, produce: @escaping @Sendable () throws -> AnyPacket) {
        rows.append((time, rank, .work(produce)))
    }

    /// A packet at `time` produced by `produce` on the reading thread, when the merged order
    /// reaches it: rows added this way run one at a time in time order (a video decodes its
    /// frames one after another).
    public mutating func addInOrder(at time: Timestamp, rank: Int, produce: @escaping @Sendable () throws -> AnyPacket) {
        rows.append((time, rank, .inOrder(produce)))
    }

    /// An image of `stream`, listed as `name` at `file`:`line`, decoded from `path` by `decode`
    /// when asked for.
    public mutating func addImage(at time: Timestamp, rank: Int, stream: String, path: String, listedAs name: String, in file: String, line: Int,
                                  decode: @escaping @Sendable (_ path: String) throws -> AnyPacket) {
        rows.append((time, rank, .image(stream: stream, path: path, name: name, file: file, line: line, decode: decode)))
    }

    /// Removes the image rows whose file does not exist and returns how many per stream (the
    /// count is known before the run starts); with `strict` the first one is an error naming the
    /// listing's file and line.
    public mutating func dropMissingImages(strict: Bool) throws -> [String: Int] {
        var missing: [String: Int] = [:]
        rows = try rows.filter { entry in
            guard case let .image(stream, path, name, file, line, _) = entry.row, !FileManager.default.fileExists(atPath: path) else { return true }
            if strict { throw DatasetError.missingImage(file: file, line: line, image: name) }
            missing[stream, default: 0] += 1
            return false
        }
        return missing
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

    /// Replaces the ``DatasetStreams/groundTruth`` rows (if any) by `trajectory`, as
    /// ``addGroundTruth(_:file:rank:listing:)`` adds them, and declares the stream in `streams`
    /// (ranked last). What every reader's `replaceGroundTruth(with:file:)` does. Before the
    /// first ``next()``.
    public mutating func replaceGroundTruth(_ trajectory: Trajectory, file: String, streams: inout [StreamDescription], listing: inout StreamListing) throws {
        streams.declareGroundTruth()
        let rank = streams.count
        rows.removeAll { entry in
            if case let .ready(packet) = entry.row { return packet.stream == DatasetStreams.groundTruth }
            return false
        }
        listing.remove(stream: DatasetStreams.groundTruth)
        merged = false
        index = 0
        try addGroundTruth(trajectory, file: file, rank: rank, listing: &listing)
    }

    /// The next packet in merged order (merging on the first call), or `nil` at the end; an
    /// in-order row's error is thrown here.
    public mutating func next() throws -> DeferredPacket? {
        if !merged {
            rows = rows.enumerated().sorted { a, b in
                (a.element.time, a.element.rank, a.offset) < (b.element.time, b.element.rank, b.offset)
            }.map(\.element)
            merged = true
        }
        guard index < rows.count else { return nil }
        defer { index += 1 }
        switch rows[index].row {
        case let .ready(packet): return .ready(packet)
        case let .work(produce): return .work(produce)
        case let .inOrder(produce): return .ready(try produce())
        case let .image(_, path, _, _, _, decode): return .work { try decode(path) }
        }
    }
}
