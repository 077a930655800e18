import Foundation
import ParallaxFiles

/// Merges packet sources by timestamp and runs analyzers over them.
///
/// ```
///   sources ──► merge by (timestamp, source order) ──► timestamp group t
///                                                         │ deliver every packet of t first
///                                                         ▼
///   analyzers in dependency order:  A ──emit──► B ──emit──► C      (outputs at t reach
///   each runs once per `each` packet, with `latest`/`between` inputs   consumers within t)
/// ```
///
/// **Order and determinism.** Source packets are merged by timestamp; equal timestamps keep
/// the sources' order and, within a source, its order. All packets of one timestamp are
/// delivered before any analyzer runs, so a `latest`/`between` input sees every packet with
/// timestamp ≤ the trigger's, whichever stream it came on. Analyzers run in dependency order
/// (producers before consumers; ties by position in the chain). Same inputs and options give
/// the same calls in the same order, hence bit-identical outputs, whether sources are read on
/// this thread or prefetched on another (``Options/prefetch``).
///
/// **Modes.** `offline` never drops. `realtime` paces sources at sensor rate and, when an
/// analyzer falls behind, drops its older pending triggers and keeps the newest (MediaPipe's
/// FlowLimiter with one packet in flight), counting every drop in the report.
///
/// **Errors.** A source or analyzer error stops the run; every analyzer is still closed (so
/// buffered results are flushed to the sink) and the error, naming analyzer, stream and
/// timestamp, is thrown as ``FrameBusFailure`` together with the report.
public final class FrameBus {
    /// How to run.
    public struct Options: Sendable {
        /// Offline (never drops) or realtime (paced, drops when behind).
        public enum Mode: String, Sendable { case offline, realtime }
        public var mode: Mode = .offline
        /// Read/decode sources on a second thread (bit-identical results). Not under a limit on
        /// the address space (`ulimit -v`): a worker thread the limit leaves no room for is one
        /// libdispatch waits for forever, so the bus then reads on its own thread
        /// (``ProcessMemory/addressSpaceIsLimited``).
        public var prefetch = false
        /// With ``prefetch``: about how many bytes of decoded packets each source may hold ahead
        /// of the bus (bytes; ``PrefetchingSource/defaultByteBudget``, 512 MiB).
        public var prefetchBytes = PrefetchingSource.defaultByteBudget
        /// Realtime speed factor: 2 replays twice as fast as recorded.
        public var realtimeSpeed = 1.0
        /// Realtime mode: while behind schedule the bus reads due packets before analyzing (so the
        /// flow limiter drops the older triggers), but never more than this many bytes of them
        /// (``PayloadBytes``) or 64 timestamp groups at once: a source slower than real time
        /// (100-megapixel frames) must not pile the whole dataset up in memory (bytes; 512 MiB).
        public var realtimeBacklogBytes = PrefetchingSource.defaultByteBudget
        public init(mode: Mode = .offline, prefetch: Bool = false) {
            self.mode = mode
            self.prefetch = prefetch
        }
    }

    /// Receives every analyzer output, in deterministic order, as it is emitted.
    public typealias Sink = (_ producer: String, _ packet: AnyPacket) throws -> Void

    private let sources: [any PacketSource]
    private let analyzers: [AnalyzerInstance]   // in dependency order
    private let options: Options
    private let plan: BusWiring.Plan
    private var cancelled: @Sendable () -> Bool = { false }
    /// Every stream's metadata as the last run left it: the sources' and what each analyzer
    /// declared for its outputs in `open` (for evaluations that need an output's camera).
    public private(set) var streamMetadata: [String: StreamMetadata] = [:]
    private var progress: (Timestamp) -> Void = { _ in }

    /// Wires `analyzers` to the streams of `sources` and each other. Throws ``BusError`` for
    /// unknown streams, type mismatches, duplicate producers, cycles and missing triggers.
    public init(sources: [any PacketSource], analyzers: [AnalyzerInstance], options: Options = Options()) throws {
        let plan = try BusWiring.plan(sourceStreams: sources.flatMap(\.streams), analyzers: analyzers)
        self.sources = options.prefetch && !ProcessMemory.addressSpaceIsLimited ? sources.map { PrefetchingSource($0, byteBudget: options.prefetchBytes) } : sources
        self.analyzers = plan.order.map { analyzers[$0] }
        self.options = options
        self.plan = plan
    }

    /// A closure polled between timestamp groups; returning `true` stops the run cleanly
    /// (analyzers are closed and flushed), then ``BusError/cancelled`` is thrown.
    public func setCancellation(_ check: @escaping @Sendable () -> Bool) { cancelled = check }

    /// A closure called once per timestamp group with the group's timestamp (for progress
    /// display; keep it cheap — it runs on the bus thread).
    public func setProgress(_ report: @escaping (Timestamp) -> Void) { progress = report }

    /// Runs to the end of all sources. Returns the report; throws ``FrameBusFailure`` (which
    /// carries the report) when a source or analyzer failed.
    @discardableResult
    /// Runs to the end: `sink` sees every analyzer output, `inputs` (when given) every source
    /// packet as it enters the bus, both in deterministic order.
    public func run(sink: @escaping Sink = { _, _ in }, inputs: ((AnyPacket) throws -> Void)? = nil) throws -> RunReport {
        var state: BusRunState
        do { state = try BusRunState(analyzers: analyzers, plan: plan, sink: sink) } catch let error as BusError {
            var report = RunReport()
            report.failure = error.description
            throw FrameBusFailure(error: error, report: report)
        }
        let clock = ContinuousClock()
        let wallStart = clock.now
        var failure: BusError?
        var heads: [AnyPacket?] = Array(repeating: nil, count: sources.count)
        var firstStamp: Timestamp?
        var lastStamp: Timestamp?
        // Realtime mode: what was read ahead of analysis while behind schedule.
        var backlogBytes = 0, backlogGroups = 0

        // Realtime mode: the replay's clock starts once every analyzer is open and the first
        // packets are read (a Python worker's start or a model's loading is not the data's time).
        var replayStart = wallStart
        do {
            try state.openAll()
            for i in sources.indices {
                heads[i] = try pull(i)
                if heads[i] == nil { state.endSourceStreams(sources[i].streams.map(\.name)) }
            }
            replayStart = clock.now
            while true {
                guard let t = Self.earliest(heads) else { break }
                if cancelled() { throw BusError.cancelled }
                if options.mode == .realtime, let first = firstStamp {
                    let wait = due(t, first: first) - (clock.now - replayStart).seconds
                    if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                }
                firstStamp = firstStamp ?? t
                lastStamp = t
                progress(t)
                for i in sources.indices {
                    while let packet = heads[i], packet.timestamp == t {
                        if options.mode == .realtime { backlogBytes += PayloadBytes.of(packet.payload) }
                        try state.acceptSource(packet)
                        try inputs?(packet)
                        heads[i] = try pull(i)
                        if heads[i] == nil { state.endSourceStreams(sources[i].streams.map(\.name)) }
                    }
                }
                backlogGroups += 1
                if options.mode == .realtime, let first = firstStamp,
                   let next = Self.earliest(heads) {
                    // Behind schedule: deliver the next group before analyzing, so the flow
                    // limiter sees the backlog and drops older triggers — within a bound.
                    if due(next, first: first) <= (clock.now - replayStart).seconds,
                       backlogBytes < options.realtimeBacklogBytes, backlogGroups < Self.maximumBacklogGroups { continue }
                }
                try state.drain(now: options.mode == .realtime ? currentDatasetTime(first: firstStamp, clock: clock, start: replayStart) : nil)
                backlogBytes = 0
                backlogGroups = 0
            }
            try state.drain(now: nil)
        } catch let error as BusError {
            failure = error
        } catch {
            failure = .sourceFailed(message: "\(error)", badInput: error is any BadInput)
        }
        // Close every analyzer even after a failure: flush what was computed.
        do { try state.closeAll() } catch let error as BusError {
            if failure == nil { failure = error }
        } catch {
            if failure == nil { failure = .sourceFailed(message: "\(error)", badInput: error is any BadInput) }
        }

        for source in sources { (source as? PrefetchingSource)?.stop() }
        streamMetadata = state.metadataByStream()
        var report = state.report()
        report.mode = options.mode.rawValue
        report.wallSeconds = (clock.now - wallStart).seconds
        if let f = firstStamp, let l = lastStamp { report.datasetSeconds = l.seconds(since: f) }
        report.realtimeFactor = report.wallSeconds > 0 ? report.datasetSeconds / report.wallSeconds : 0
        report.peakMemoryMegabytes = ProcessMemory.peakResidentMegabytes()
        if let failure {
            report.failure = failure.description
            throw FrameBusFailure(error: failure, report: report)
        }
        return report
    }

    /// Realtime mode: most timestamp groups read ahead of analysis while behind schedule.
    static let maximumBacklogGroups = 64

    /// The smallest timestamp among the sources' next packets (no allocation: runs per packet).
    private static func earliest(_ heads: [AnyPacket?]) -> Timestamp? {
        var best: Timestamp?
        for case let p? in heads where best == nil || p.timestamp < best! { best = p.timestamp }
        return best
    }

    private func pull(_ i: Int) throws -> AnyPacket? {
        do { return try sources[i].next() } catch let error as BusError { throw error } catch {
            throw BusError.sourceFailed(message: "\(error)", badInput: error is any BadInput)
        }
    }

    /// Wall-clock seconds after the start at which packets stamped `t` are due (realtime mode).
    private func due(_ t: Timestamp, first: Timestamp) -> Double { t.seconds(since: first) / options.realtimeSpeed }

    private func currentDatasetTime(first: Timestamp?, clock: ContinuousClock, start: ContinuousClock.Instant) -> Timestamp? {
        guard let first else { return nil }
        let elapsed = (clock.now - start).seconds * options.realtimeSpeed
        return Timestamp(nanoseconds: first.nanoseconds + Int64(elapsed * 1e9))
    }
}

/// A failed run: the error and the report of what was done up to it.
public struct FrameBusFailure: Error, CustomStringConvertible {
    public let error: BusError
    public let report: RunReport
    public var description: String { error.description }
}
