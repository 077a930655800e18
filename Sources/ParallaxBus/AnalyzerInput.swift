/// What an analyzer receives in one `process` call: the trigger and its synchronized inputs.
public struct AnalyzerInput: Sendable {
    /// The triggering port's stream as the analyzer declared it (also when the chain wired the
    /// port to another stream: ``AnalyzerContext/stream(of:)-(InputPort<P>)`` names that one).
    public let triggerStream: String
    /// The triggering packet's timestamp: the "now" of this call.
    public let timestamp: Timestamp
    @usableFromInline let trigger: AnyPacket
    /// Packets of `latest` and `nearest` inputs, by stream.
    @usableFromInline let joined: [String: AnyPacket]
    @usableFromInline let between: [String: [AnyPacket]]

    init(trigger: AnyPacket, joined: [String: AnyPacket], between: [String: [AnyPacket]]) {
        self.triggerStream = trigger.stream
        self.timestamp = trigger.timestamp
        self.trigger = trigger
        self.joined = joined
        self.between = between
    }

    /// The triggering packet if it came from `port` (an ``SyncPolicy/each`` input), else `nil`.
    @inlinable public subscript<P>(port: InputPort<P>) -> Packet<P>? {
        guard trigger.stream == port.key.name else { return nil }
        return trigger.typed(as: P.self)
    }

    /// The triggering packet, read as `port`'s: for an analyzer with one `each` input this is
    /// every call's trigger, so no optional to unwrap. Throws (naming both streams) when the
    /// trigger came from another input.
    @inlinable public func trigger<P>(_ port: InputPort<P>) throws -> Packet<P> {
        guard trigger.stream == port.key.name, let packet = trigger.typed(as: P.self) else {
            throw AnalyzerInputError.notTriggeredBy(stream: port.key.name, trigger: trigger.stream)
        }
        return packet
    }

    /// The payload of the triggering packet if it came from `port`.
    @inlinable public func payload<P>(_ port: InputPort<P>) -> P? {
        guard trigger.stream == port.key.name else { return nil }
        return trigger.payload as? P
    }

    /// The synchronized packet of a ``SyncPolicy/latest(tolerance:)`` input, or `nil` when none
    /// lies within the tolerance.
    @inlinable public func latest<P>(_ port: InputPort<P>) -> Packet<P>? {
        joined[port.key.name]?.typed(as: P.self)
    }

    /// The synchronized packet of a ``SyncPolicy/nearest(tolerance:)`` input (before or after
    /// the trigger), or `nil` when none lies within the tolerance.
    @inlinable public func nearest<P>(_ port: InputPort<P>) -> Packet<P>? {
        joined[port.key.name]?.typed(as: P.self)
    }

    /// The packets of a ``SyncPolicy/between(through:)`` input since the previous trigger, in
    /// order (with `.firstAfter`, the last one is after the trigger unless the stream ended).
    @inlinable public func between<P>(_ port: InputPort<P>) -> [Packet<P>] {
        (between[port.key.name] ?? []).compactMap { $0.typed(as: P.self) }
    }

    /// Timestamps of the packets of any ``SyncPolicy/between`` input (payload-agnostic).
    public func betweenTimestamps(_ stream: String) -> [Timestamp] { (between[stream] ?? []).map(\.timestamp) }

    /// The timestamp of the packet joined from `stream` (a ``SyncPolicy/latest(tolerance:)`` or
    /// ``SyncPolicy/nearest(tolerance:)`` input) whatever its type; `nil` when none was joined.
    public func joinedTimestamp(_ stream: String) -> Timestamp? { joined[stream]?.timestamp }
}
