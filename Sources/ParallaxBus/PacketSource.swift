/// A stream description: name, payload type and what its packets were sensed with.
public struct StreamDescription: Sendable, Equatable, CustomStringConvertible {
    public let name: String
    public let type: PayloadType
    /// The sensor description, delivered to consumers once (``AnalyzerContext/metadata(of:)``).
    public var metadata: StreamMetadata
    public init(name: String, type: PayloadType, metadata: StreamMetadata = .none) {
        self.name = name; self.type = type; self.metadata = metadata
    }
    public init<P>(_ key: StreamKey<P>, metadata: StreamMetadata = .none) {
        self.init(name: key.name, type: key.payloadType, metadata: metadata)
    }
    public var description: String { "\(name) (\(type))" }
}

/// Where packets enter the bus: a dataset reader, a simulator, a test's array.
///
/// `next()` returns the source's packets in non-decreasing timestamp order (across all of
/// its streams), and `nil` at the end. The bus merges several sources by timestamp and
/// rejects a stream whose timestamps go backwards or repeat. A source is used from one thread
/// at a time (possibly a prefetch thread, see ``PrefetchingSource``).
public protocol PacketSource: AnyObject {
    /// The streams this source produces.
    var streams: [StreamDescription] { get }
    /// The next packet, or `nil` when exhausted. Errors name the file/line/stream.
    func next() throws -> AnyPacket?
}

/// A source over packets held in memory (tests, converted data). Packets are sorted by
/// timestamp (stable: equal timestamps keep their given order).
public final class ArraySource: PacketSource {
    public let streams: [StreamDescription]
    private let packets: [AnyPacket]
    private var index = 0

    /// A source over `packets` declaring `streams` (every packet's stream must be one of them).
    public init(streams: [StreamDescription], packets: [AnyPacket]) {
        self.streams = streams
        self.packets = packets.sortedByTime()
    }

    /// A source over one typed stream.
    public convenience init<P: Sendable>(_ key: StreamKey<P>, _ packets: [Packet<P>]) {
        self.init(streams: [StreamDescription(key)],
                  packets: packets.map { AnyPacket(stream: key.name, timestamp: $0.timestamp, payload: $0.payload) })
    }

    public func next() throws -> AnyPacket? {
        guard index < packets.count else { return nil }
        defer { index += 1 }
        return packets[index]
    }
}

extension Array where Element == AnyPacket {
    /// Sorted by timestamp, stably: packets with equal timestamps keep their order.
    public func sortedByTime() -> [AnyPacket] {
        enumerated().sorted { a, b in
            a.element.timestamp != b.element.timestamp ? a.element.timestamp < b.element.timestamp : a.offset < b.offset
        }.map(\.element)
    }
}
