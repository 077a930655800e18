import Dispatch
import Foundation

/// Reads another source ahead of the bus on background threads, and — for a
/// ``DeferredPacketSource`` — decodes up to `workers` packets at once.
///
/// Reading and decoding (PNG, CSV parsing) is the dominant cost of most runs; this overlaps it
/// with analysis and spreads it over the cores. Packets come out in exactly the order the
/// wrapped source produced them (each carries a sequence number; results are reassembled in
/// order), and an error is delivered at the position where it occurred, so results are
/// bit-identical to reading on the bus thread.
public final class PrefetchingSource: PacketSource, @unchecked Sendable {
    public let streams: [StreamDescription]
    private let condition = NSCondition()
    /// Results by sequence number; `nil` payload = end of data.
    private var results: [Int: Result<AnyPacket?, any Error>] = [:]
    private var nextToDeliver = 0
    private var inFlight = 0
    private var stopped = false
    private var finished = false
    private let capacity: Int

    /// Starts reading `source` with `workers` decoding threads (default: the active processor
    /// count) and at most `capacity` packets ahead.
    public init(_ source: some PacketSource, workers: Int = ProcessInfo.processInfo.activeProcessorCount, capacity: Int = 32) {
        streams = source.streams
        self.capacity = max(2, capacity)
        nonisolated(unsafe) let inner: any PacketSource = source
        let workerCount = max(1, workers)
        let thread = Thread { [self] in self.produce(inner, workers: workerCount) }
        thread.name = "parallax-prefetch"
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit { stop() }

    /// Stops reading ahead: the reading thread ends at its next step instead of waiting for a
    /// consumer that will not come (the bus calls this when a run ends, also on error).
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Reads the source in order; deferred work goes to a bounded pool of workers.
    private func produce(_ source: any PacketSource, workers: Int) {
        let deferred = source as? any DeferredPacketSource
        let slots = DispatchSemaphore(value: workers)
        let pool = DispatchQueue(label: "parallax-decode", attributes: .concurrent)
        var sequence = 0
        while true {
            condition.lock()
            while inFlight >= capacity && !stopped { condition.wait() }
            if stopped { condition.unlock(); return }
            inFlight += 1
            condition.unlock()
            let seq = sequence
            sequence += 1
            do {
                if let deferred {
                    switch try deferred.nextDeferred() {
                    case nil:
                        store(seq, .success(nil)); return
                    case let .ready(packet)?:
                        store(seq, .success(packet))
                    case let .work(produce)?:
                        slots.wait()
                        pool.async { [self] in
                            let result = Result<AnyPacket?, any Error> { try produce() }
                            slots.signal()
                            store(seq, result)
                        }
                    }
                } else {
                    let packet = try source.next()
                    store(seq, .success(packet))
                    if packet == nil { return }
                }
            } catch {
                store(seq, .failure(error))
                return  // nothing follows an error
            }
        }
    }

    private func store(_ seq: Int, _ result: Result<AnyPacket?, any Error>) {
        condition.lock()
        results[seq] = result
        condition.broadcast()
        condition.unlock()
    }

    public func next() throws -> AnyPacket? {
        condition.lock()
        defer { condition.unlock() }
        if finished { return nil }
        while results[nextToDeliver] == nil { condition.wait() }
        let item = results.removeValue(forKey: nextToDeliver)!
        nextToDeliver += 1
        inFlight -= 1
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
