import Foundation

/// Runs another source on its own thread, up to `capacity` packets ahead of the bus.
///
/// Reading and decoding (PNG, CSV parsing) is the dominant cost of most runs; prefetching
/// overlaps it with analysis on the second core. Packets come out in exactly the order the
/// wrapped source produced them, and an error is delivered at the position where it occurred,
/// so results are bit-identical to reading on the bus thread.
public final class PrefetchingSource: PacketSource, @unchecked Sendable {
    public let streams: [StreamDescription]
    private let condition = NSCondition()
    private var buffer: [Result<AnyPacket?, any Error>] = []
    private var head = 0
    private var stopped = false
    private var finished = false
    private let capacity: Int
    private var thread: Thread?

    /// Starts reading `source` on a new thread.
    public init(_ source: some PacketSource, capacity: Int = 16) {
        streams = source.streams
        self.capacity = max(1, capacity)
        nonisolated(unsafe) let inner: any PacketSource = source
        let thread = Thread { [self] in self.produce(inner) }
        thread.name = "parallax-prefetch"
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
    }

    deinit {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func produce(_ source: any PacketSource) {
        while true {
            let item: Result<AnyPacket?, any Error>
            do { item = .success(try source.next()) } catch { item = .failure(error) }
            condition.lock()
            while buffer.count - head >= capacity && !stopped { condition.wait() }
            if stopped { condition.unlock(); return }
            buffer.append(item)
            condition.broadcast()
            condition.unlock()
            switch item {
            case .success(.some): continue
            default: return  // end of data or error: nothing follows
            }
        }
    }

    public func next() throws -> AnyPacket? {
        condition.lock()
        defer { condition.unlock() }
        if finished { return nil }
        while head >= buffer.count { condition.wait() }
        let item = buffer[head]
        head += 1
        if head > 256 { buffer.removeFirst(head); head = 0 }
        condition.broadcast()
        switch item {
        case let .success(packet):
            if packet == nil { finished = true }
            return packet
        case let .failure(error):
            finished = true
            throw error
        }
    }
}
