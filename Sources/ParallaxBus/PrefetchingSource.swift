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
///
/// **Memory is bounded by design**: at most `capacity` packets and about `byteBudget` bytes are
/// held ahead of the bus. A packet's bytes are its payload's ``PayloadByteCount`` (images know
/// their size; small values count ``PayloadBytes/defaultBytes``); a packet still being decoded
/// is counted as the largest packet seen so far. One packet is always allowed in flight, so a
/// single packet larger than the budget still goes through, one at a time (24 frames of 100
/// megapixels: one or two ahead of the bus, not 24).
public final class PrefetchingSource: PacketSource, @unchecked Sendable {
    public let streams: [StreamDescription]
    private let condition = NSCondition()
    /// Results by sequence number, with their bytes; `nil` packet = end of data.
    private var results: [Int: (result: Result<AnyPacket?, any Error>, bytes: Int)] = [:]
    private var nextToDeliver = 0
    /// Packets admitted and not yet delivered (being read or decoded, or waiting in ``results``).
    private var inFlight = 0
    /// Bytes of the packets waiting in ``results``.
    private var heldBytes = 0
    /// The largest packet seen so far (bytes): the estimate for one still being decoded.
    private var largestBytes = 0
    /// The most bytes held ahead at once so far.
    private var peakHeldBytes = 0
    private var stopped = false
    private var finished = false
    private let capacity: Int
    private let byteBudget: Int

    /// The default byte budget (bytes): 512 MiB, far more than 32 frames of any common camera
    /// (EuRoC's are 0.36 MB) and one or two 100-megapixel RGB frames.
    public static let defaultByteBudget = 512 << 20

    /// Starts reading `source` with `workers` decoding threads (default: the active processor
    /// count), at most `capacity` packets and about `byteBudget` bytes ahead.
    public init(_ source: some PacketSource, workers: Int = ProcessInfo.processInfo.activeProcessorCount, capacity: Int = 32,
                byteBudget: Int = PrefetchingSource.defaultByteBudget) {
        streams = source.streams
        self.capacity = max(2, capacity)
        self.byteBudget = max(0, byteBudget)
        let handoff = SourceHandoff(source: source)
        let workerCount = max(1, workers)
        let thread = Thread { [self] in self.produce(handoff.source, workers: workerCount) }
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

    /// The most bytes of decoded packets held ahead of the bus at once so far.
    public var peakBytesAhead: Int {
        condition.lock()
        defer { condition.unlock() }
        return peakHeldBytes
    }

    /// Bytes held plus estimated for the packets still being read or decoded (lock held).
    private var reservedBytes: Int {
        let pending = max(0, inFlight - results.count)
        let (estimate, overflow) = pending.multipliedReportingOverflow(by: largestBytes)
        let (sum, sumOverflow) = heldBytes.addingReportingOverflow(estimate)
        return overflow || sumOverflow ? Int.max : sum
    }

    /// Whether one more packet may be started (lock held): always when none is in flight, else
    /// within the packet count and — counting the new one as the largest seen — the byte budget.
    private var mayAdmit: Bool {
        guard inFlight > 0 else { return true }
        guard inFlight < capacity else { return false }
        let reserved = reservedBytes
        return reserved <= byteBudget && largestBytes <= byteBudget - reserved
    }

    /// Reads the source in order; deferred work goes to a bounded pool of workers.
    private func produce(_ source: any PacketSource, workers: Int) {
        let deferred = source as? any DeferredPacketSource
        let slots = DispatchSemaphore(value: workers)
        let pool = DispatchQueue(label: "parallax-decode", attributes: .concurrent)
        var sequence = 0
        while true {
            condition.lock()
            while !mayAdmit && !stopped { condition.wait() }
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
        let bytes: Int
        if case let .success(packet?) = result { bytes = PayloadBytes.of(packet.payload) } else { bytes = 0 }
        condition.lock()
        results[seq] = (result, bytes)
        heldBytes += bytes
        largestBytes = max(largestBytes, bytes)
        peakHeldBytes = max(peakHeldBytes, heldBytes)
        condition.broadcast()
        condition.unlock()
    }

    public func next() throws -> AnyPacket? {
        condition.lock()
        defer { condition.unlock() }
        if finished { return nil }
        var item = results.removeValue(forKey: nextToDeliver)
        while item == nil {
            condition.wait()
            item = results.removeValue(forKey: nextToDeliver)
        }
        guard let (result, bytes) = item else { return nil }
        nextToDeliver += 1
        inFlight -= 1
        heldBytes -= bytes
        condition.broadcast()
        switch result {
        case let .success(packet):
            if packet == nil { finished = true }
            return packet
        case let .failure(error):
            finished = true
            throw error
        }
    }
}

/// The wrapped source, handed to the reading thread: from then on only that thread touches it
/// (the consumer reads decoded packets from the queue). That ownership transfer, not the type
/// system, makes passing a non-Sendable source safe.
private struct SourceHandoff: @unchecked Sendable {
    let source: any PacketSource
}
