/// A timestamped payload on a stream. Payloads are value types; large buffers inside them
/// (images, depth maps) are copy-on-write, so handing one packet to many analyzers copies
/// nothing.
public struct Packet<Payload: Sendable>: Sendable {
    /// When the payload was sensed (or, for derived streams, the time it describes).
    public var timestamp: Timestamp
    /// The data.
    public var payload: Payload

    /// A packet.
    @inlinable public init(_ payload: Payload, at timestamp: Timestamp) {
        self.timestamp = timestamp
        self.payload = payload
    }
}

/// A packet with its stream name and payload type erased, as the bus moves it.
public struct AnyPacket: Sendable {
    /// The stream it travels on.
    public let stream: String
    /// Its timestamp.
    public let timestamp: Timestamp
    /// The payload (its dynamic type is the stream's payload type).
    public let payload: any Sendable

    /// An erased packet.
    public init(stream: String, timestamp: Timestamp, payload: any Sendable) {
        self.stream = stream
        self.timestamp = timestamp
        self.payload = payload
    }

    /// The typed packet, when the payload has type `P`.
    @inlinable public func typed<P: Sendable>(as _: P.Type = P.self) -> Packet<P>? {
        (payload as? P).map { Packet($0, at: timestamp) }
    }
}
