/// A packet that is either ready or still to be produced by expensive, independent work
/// (decoding an image file).
public enum DeferredPacket: Sendable {
    case ready(AnyPacket)
    /// Work that may run on any thread; it must not touch the source's state.
    case work(@Sendable () throws -> AnyPacket)
}

/// A source that can hand out its expensive work instead of doing it, so that
/// ``PrefetchingSource`` can decode several images at once on worker threads while the bus
/// still receives packets in exactly the source's order.
public protocol DeferredPacketSource: PacketSource {
    /// The next packet, possibly deferred; `nil` at the end.
    func nextDeferred() throws -> DeferredPacket?
}

extension DeferredPacketSource {
    /// Produces packets in order on the calling thread.
    public func next() throws -> AnyPacket? {
        switch try nextDeferred() {
        case nil: return nil
        case let .ready(packet)?: return packet
        case let .work(produce)?: return try produce()
        }
    }
}
