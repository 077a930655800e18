import Foundation
import ParallaxFiles

/// The mutable state of one bus run: per-analyzer trigger queues, `between` buffers,
/// `latest`/`nearest` histories, stream metadata, timing and counters. Single-threaded by
/// construction.
///
/// Look-ahead inputs (`nearest`, `between(through: .firstAfter)`) hold a node's trigger queue: its head
/// trigger runs only once every such input can answer for its time, judged from packet order
/// alone (a stream's newest timestamp, the source watermark, the end of a source or of the
/// run), so held triggers never change results.
///
/// Streams are interned to integer ids when the run starts, so the per-packet path does one
/// string hash (the packet's stream name) and otherwise indexes arrays.
struct BusRunState {
    /// Kept packets per stream for `latest` lookups (newest last).
    static let latestHistory = 64

    struct Node {
        let instance: AnalyzerInstance
        var triggers: [AnyPacket] = []
        var triggerHead = 0
        /// Pending packets of each `between` input, keyed by stream name.
        var between: [String: [AnyPacket]] = [:]
        var durations: [Int64] = []
        var openCloseNanoseconds: Int64 = 0
        var dropped: [String: Int] = [:]
        /// `latest` and `nearest` inputs.
        let joinInputs: [(stream: Int, name: String, tolerance: Nanoseconds, ahead: Bool)]
        /// `between` inputs that also take the first packet after the trigger (plus their lead,
        /// ns: the window reaches that far past the trigger first).
        let firstAfterStreams: [String: Nanoseconds]
        /// Look-ahead inputs the head trigger waits for, and the farthest they reach past it (ns).
        let waits: [Wait]
        var lead: Nanoseconds { waits.map(\.lead).max() ?? 0 }
        /// Dataset time each look-ahead trigger waited: source watermark − trigger time (ns).
        var lookAheadWaits: [Int64] = []
        /// Declared outputs by stream id (ids of this node's outputs only).
        let outputIDs: [String: Int]
        var context: AnalyzerContext
    }

    struct Stream {
        let name: String
        let type: PayloadType
        var packets = 0
        var first: Timestamp?
        var last: Timestamp?
        var eachConsumers: [Int] = []
        var betweenConsumers: [Int] = []
        var keepsLatest = false
        var latest: [AnyPacket] = []
        /// Last output timestamp (analyzer streams) or last source timestamp (source streams).
        var lastStamp: Timestamp?
        /// What the stream's packets were sensed with.
        var metadata: StreamMetadata
        /// Produced by a source (as opposed to an analyzer).
        let isSource: Bool
        /// No further packet will come (its source is exhausted).
        var ended = false
    }

    /// A look-ahead input: the stream, and whether it needs a packet strictly after the
    /// trigger (`between(through: .firstAfter)`) or one at or after it / nothing within the
    /// tolerance (`nearest`).
    struct Wait {
        let stream: Int
        let strictlyAfter: Bool
        let tolerance: Nanoseconds
        /// How far past the trigger the packet must be (ns, `between(through: .ahead)`).
        var lead: Nanoseconds = 0
    }

    var nodes: [Node]
    var streams: [Stream]
    let streamIDs: [String: Int]
    let sink: FrameBus.Sink
    var warnings: [String] = []
    /// What analyzers reported that is no warning (``AnalyzerContext/note(_:)``), each `instance: …`.
    var notes: [String] = []
    /// Options analyzers took from the data, in order.
    var optionsFromData: [RunReport.OptionFromData] = []
    let clock = ContinuousClock()
    /// Timestamp of the newest source packet delivered: every source packet up to it is in.
    var watermark: Timestamp?
    /// Set while closing: every stream has ended, held triggers run with what there is.
    var flushing = false

    /// The state for `analyzers` (in run order) wired by `plan`. Every stream an analyzer names
    /// is in a plan made by ``BusWiring/plan(sourceStreams:analyzers:)``; one that is not is
    /// reported as ``BusError/unknownStream(analyzer:stream:available:)``.
    init(analyzers: [AnalyzerInstance], plan: BusWiring.Plan, sink: @escaping FrameBus.Sink) throws {
        self.sink = sink
        var ids: [String: Int] = [:]
        var streams: [Stream] = []
        for name in plan.streamOrder {
            guard let type = plan.streamTypes[name] else { throw BusError.unknownStream(analyzer: "(source)", stream: name, available: plan.streamOrder) }
            ids[name] = streams.count
            let source = plan.sourceMetadata[name]
            streams.append(Stream(name: name, type: type, metadata: source ?? .none, isSource: source != nil))
        }
        func id(_ stream: String, of a: AnalyzerInstance) throws -> Int {
            guard let id = ids[stream] else { throw BusError.unknownStream(analyzer: a.name, stream: stream, available: plan.streamOrder) }
            return id
        }
        var nodes: [Node] = []
        for (i, a) in analyzers.enumerated() {
            var joins: [(Int, String, Nanoseconds, Bool)] = []
            var firstAfter: [String: Nanoseconds] = [:]
            var waits: [Wait] = []
            for input in a.inputs {
                let sid = try id(input.stream, of: a)
                switch input.policy {
                case .each: streams[sid].eachConsumers.append(i)
                case .between(through: .trigger): streams[sid].betweenConsumers.append(i)
                case let .between(through: end):
                    streams[sid].betweenConsumers.append(i)
                    let lead = end.lead ?? 0
                    firstAfter[input.stream] = lead
                    waits.append(Wait(stream: sid, strictlyAfter: true, tolerance: 0, lead: lead))
                case let .latest(tol):
                    streams[sid].keepsLatest = true
                    joins.append((sid, input.stream, tol, false))
                case let .nearest(tol):
                    streams[sid].keepsLatest = true
                    joins.append((sid, input.stream, tol, true))
                    waits.append(Wait(stream: sid, strictlyAfter: false, tolerance: tol))
                }
            }
            var outputIDs: [String: Int] = [:]
            for o in a.outputs where outputIDs[o.stream] == nil { outputIDs[o.stream] = try id(o.stream, of: a) }
            nodes.append(Node(instance: a, joinInputs: joins, firstAfterStreams: firstAfter, waits: waits, outputIDs: outputIDs,
                              context: AnalyzerContext(instanceName: a.name, givenOptions: a.givenOptions)))
        }
        self.streams = streams
        self.streamIDs = ids
        self.nodes = nodes
    }

    /// Marks `names` as ended: their source has no further packet.
    mutating func endSourceStreams(_ names: [String]) {
        for name in names { if let id = streamIDs[name] { streams[id].ended = true } }
    }

    /// Validates a source packet (declared stream, type, strictly increasing stamps) and delivers it.
    mutating func acceptSource(_ packet: AnyPacket) throws {
        guard let id = streamIDs[packet.stream], streams[id].type.matches(packet.payload) else {
            throw BusError.undeclaredSourceStream(stream: packet.stream)
        }
        if let prev = streams[id].lastStamp, packet.timestamp <= prev {
            throw BusError.sourceOutOfOrder(stream: packet.stream, previous: prev, current: packet.timestamp)
        }
        streams[id].lastStamp = packet.timestamp
        if watermark.map({ packet.timestamp > $0 }) ?? true { watermark = packet.timestamp }
        deliver(packet, stream: id)
    }

    /// Hands a packet to every consumer of its stream.
    private mutating func deliver(_ packet: AnyPacket, stream id: Int) {
        streams[id].packets += 1
        if streams[id].first == nil { streams[id].first = packet.timestamp }
        streams[id].last = packet.timestamp
        if streams[id].keepsLatest {
            streams[id].latest.append(packet)
            if streams[id].latest.count > 2 * Self.latestHistory { streams[id].latest.removeFirst(Self.latestHistory) }
        }
        for i in streams[id].betweenConsumers { nodes[i].between[packet.stream, default: []].append(packet) }
        for i in streams[id].eachConsumers { nodes[i].triggers.append(packet) }
    }

    /// Runs every pending trigger, producers first. `now` (realtime mode only) is the dataset
    /// time the wall clock has reached: older triggers with a newer one already due are dropped.
    mutating func drain(now: Timestamp?) throws {
        for i in nodes.indices { try drainNode(i, now: now) }
    }

    /// Runs the pending triggers of node `i` (dropping stale ones when `now` is given), up to the
    /// first one still waiting for a look-ahead input.
    private mutating func drainNode(_ i: Int, now: Timestamp?) throws {
        while nodes[i].triggerHead < nodes[i].triggers.count {
            let packet = nodes[i].triggers[nodes[i].triggerHead]
            if let now, hasNewerDueTrigger(node: i, than: packet, now: now) {
                nodes[i].triggerHead += 1
                nodes[i].dropped[packet.stream, default: 0] += 1
                continue
            }
            guard canRun(i, at: packet.timestamp) else { break }
            nodes[i].triggerHead += 1
            if !nodes[i].waits.isEmpty {
                let wait = (watermark ?? packet.timestamp).nanoseconds - packet.timestamp.nanoseconds
                nodes[i].lookAheadWaits.append(max(0, wait))
            }
            try invoke(i, trigger: packet)
        }
        if nodes[i].triggerHead == nodes[i].triggers.count {
            nodes[i].triggers.removeAll(keepingCapacity: true)
        } else {
            nodes[i].triggers.removeFirst(nodes[i].triggerHead)
        }
        nodes[i].triggerHead = 0
    }

    /// Whether every look-ahead input of node `i` can answer for time `t`.
    private func canRun(_ i: Int, at t: Timestamp) -> Bool {
        if flushing { return true }
        for wait in nodes[i].waits {
            let s = streams[wait.stream]
            if s.ended { continue }
            if let last = s.lastStamp, wait.strictlyAfter ? last.nanoseconds > Self.adding(wait.lead, to: t) : last >= t { continue }
            // Nothing within the tolerance can still come on a source stream once every
            // source packet up to t + tolerance is in.
            if !wait.strictlyAfter, s.isSource, let w = watermark, w.nanoseconds - t.nanoseconds >= wait.tolerance { continue }
            return false
        }
        return true
    }

    /// `t` + `lead` (ns), saturating.
    static func adding(_ lead: Nanoseconds, to t: Timestamp) -> Int64 {
        let (sum, overflow) = t.nanoseconds.addingReportingOverflow(Int64(lead))
        return overflow ? Int64.max : sum
    }

    /// Whether a newer trigger of the same stream is due at `now`: for a node whose input reaches
    /// `lead` ns past its triggers (`between(through: .ahead)`), a trigger is due only once its
    /// look-ahead is (else every trigger would be dropped while it waits for its data).
    private func hasNewerDueTrigger(node i: Int, than packet: AnyPacket, now: Timestamp) -> Bool {
        let n = nodes[i], lead = n.lead
        return n.triggers[(n.triggerHead + 1)...].contains {
            $0.stream == packet.stream && $0.timestamp > packet.timestamp && Self.adding(lead, to: $0.timestamp) <= now.nanoseconds
        }
    }

    private mutating func invoke(_ i: Int, trigger: AnyPacket) throws {
        let t = trigger.timestamp
        var between: [String: [AnyPacket]] = [:]
        if !nodes[i].between.isEmpty {
            for (stream, queue) in nodes[i].between {
                let lead = nodes[i].firstAfterStreams[stream]
                let limit = Self.adding(lead ?? 0, to: t)
                let cut = queue.firstIndex { $0.timestamp.nanoseconds > limit } ?? queue.count
                // `.firstAfter` also hands over the first packet after t (+ lead), and keeps it for the next call.
                let end = cut < queue.count && lead != nil ? cut + 1 : cut
                between[stream] = Array(queue[..<end])
                nodes[i].between[stream] = cut == queue.count ? [] : Array(queue[cut...])
            }
        }
        var joined: [String: AnyPacket] = [:]
        for (id, name, tolerance, ahead) in nodes[i].joinInputs {
            let history = streams[id].latest
            let before = history.last { $0.timestamp <= t }
            var best = before.flatMap { t.nanoseconds - $0.timestamp.nanoseconds <= tolerance ? $0 : nil }
            if ahead, let after = history.first(where: { $0.timestamp > t }), after.timestamp.nanoseconds - t.nanoseconds <= tolerance {
                // The earlier packet wins a tie.
                if best.map({ after.timestamp.nanoseconds - t.nanoseconds < t.nanoseconds - $0.timestamp.nanoseconds }) ?? true { best = after }
            }
            if let best { joined[name] = best }
        }
        let instance = nodes[i].instance
        let input: AnalyzerInput
        if instance.isRemapped {
            // The analyzer sees the stream names it declared.
            func local(_ s: String) -> String { instance.portStreamForBus[s] ?? s }
            input = AnalyzerInput(trigger: AnyPacket(stream: local(trigger.stream), timestamp: t, payload: trigger.payload),
                                  joined: Dictionary(joined.map { (local($0.key), $0.value) }, uniquingKeysWith: { a, _ in a }),
                                  between: Dictionary(between.map { (local($0.key), $0.value) }, uniquingKeysWith: { a, _ in a }))
        } else {
            input = AnalyzerInput(trigger: trigger, joined: joined, between: between)
        }
        let start = clock.now
        do {
            try instance.process(input, &nodes[i].context)
        } catch {
            nodes[i].context.reset()
            throw BusError.analyzerFailed(analyzer: instance.name, phase: "process", stream: trigger.stream, timestamp: t,
                                          message: "\(error)", badInput: error is any BadInput)
        }
        nodes[i].durations.append((clock.now - start).nanoseconds)
        try publish(from: i)
    }

    /// Sends what node `i` emitted (in its context) to the sink and the consumers; in `open`,
    /// also takes the metadata it declared for its outputs.
    private mutating func publish(from i: Int, opening: Bool = false) throws {
        if !nodes[i].context.declaredMetadata.isEmpty {
            let name = nodes[i].instance.name
            for (declared, metadata) in nodes[i].context.declaredMetadata {
                let stream = nodes[i].instance.busStreamForPort[declared] ?? declared
                guard let id = nodes[i].outputIDs[stream] else {
                    nodes[i].context.reset()
                    throw BusError.undeclaredOutput(analyzer: name, stream: stream)
                }
                guard opening else {
                    nodes[i].context.reset()
                    throw BusError.metadataAfterOpen(analyzer: name, stream: stream)
                }
                streams[id].metadata = metadata
            }
        }
        if !nodes[i].context.warnings.isEmpty {
            let name = nodes[i].instance.name
            warnings += nodes[i].context.warnings.map { "\(name): \($0)" }
        }
        if !nodes[i].context.notes.isEmpty {
            let name = nodes[i].instance.name
            notes += nodes[i].context.notes.map { "\(name): \($0)" }
        }
        optionsFromData += nodes[i].context.optionsFromData
        if nodes[i].context.emitted.isEmpty { nodes[i].context.reset(); return }
        var emitted = nodes[i].context.emitted
        nodes[i].context.reset()
        if nodes[i].instance.isRemapped {
            let toBus = nodes[i].instance.busStreamForPort
            emitted = emitted.map { p in toBus[p.stream].map { AnyPacket(stream: $0, timestamp: p.timestamp, payload: p.payload) } ?? p }
        }
        for packet in emitted {
            guard let id = nodes[i].outputIDs[packet.stream], streams[id].type.matches(packet.payload) else {
                throw BusError.undeclaredOutput(analyzer: nodes[i].instance.name, stream: packet.stream)
            }
            if let prev = streams[id].lastStamp, packet.timestamp < prev {
                throw BusError.outputOutOfOrder(analyzer: nodes[i].instance.name, stream: packet.stream, previous: prev, current: packet.timestamp)
            }
            streams[id].lastStamp = packet.timestamp
            try sink(nodes[i].instance.name, packet)
            deliver(packet, stream: id)
        }
    }

    mutating func openAll() throws {
        for i in nodes.indices {
            for input in nodes[i].instance.inputs {
                let local = nodes[i].instance.portStreamForBus[input.stream] ?? input.stream
                if let id = streamIDs[input.stream] { nodes[i].context.inputMetadata[local] = streams[id].metadata }
                if local != input.stream { nodes[i].context.remappedStreams[local] = input.stream }
            }
            for (declared, bus) in nodes[i].instance.busStreamForPort { nodes[i].context.remappedStreams[declared] = bus }
            let start = clock.now
            do { try nodes[i].instance.open(&nodes[i].context) } catch {
                throw BusError.analyzerFailed(analyzer: nodes[i].instance.name, phase: "open", stream: nil, timestamp: nil, message: "\(error)", badInput: error is any BadInput)
            }
            nodes[i].openCloseNanoseconds += (clock.now - start).nanoseconds
            try publish(from: i, opening: true)
        }
    }

    /// Closes every analyzer in dependency order, publishing and draining what each flushes.
    /// Continues past failures (every analyzer gets its close); throws the first failure.
    mutating func closeAll() throws {
        flushing = true
        var firstError: (any Error)?
        for i in nodes.indices {
            do {
                try drainNode(i, now: nil)  // outputs of upstream closes
                let start = clock.now
                do { try nodes[i].instance.close(&nodes[i].context) } catch {
                    throw BusError.analyzerFailed(analyzer: nodes[i].instance.name, phase: "close", stream: nil, timestamp: nil, message: "\(error)", badInput: error is any BadInput)
                }
                nodes[i].openCloseNanoseconds += (clock.now - start).nanoseconds
                try publish(from: i)
            } catch {
                nodes[i].context.reset()
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }

    /// The metadata of every stream, by name.
    func metadataByStream() -> [String: StreamMetadata] {
        Dictionary(streams.map { ($0.name, $0.metadata) }, uniquingKeysWith: { a, _ in a })
    }

    func report() -> RunReport {
        var r = RunReport()
        for n in nodes {
            let sorted = n.durations.sorted()
            func pct(_ q: Double) -> Double {
                sorted.isEmpty ? 0 : Double(sorted[min(sorted.count - 1, Int((q * Double(sorted.count - 1)).rounded()))]) / 1e6
            }
            let total = Double(n.durations.reduce(0, +) + n.openCloseNanoseconds) / 1e6
            var timing = RunReport.AnalyzerTiming(instance: n.instance.name, analyzer: n.instance.typeName, calls: n.durations.count,
                                                  p50Milliseconds: pct(0.5), p95Milliseconds: pct(0.95),
                                                  maxMilliseconds: Double(sorted.last ?? 0) / 1e6, totalMilliseconds: total)
            if !n.waits.isEmpty {
                let waits = n.lookAheadWaits.sorted()
                timing.lookAheadP50Milliseconds = waits.isEmpty ? 0 : Double(waits[waits.count / 2]) / 1e6
                timing.lookAheadMaxMilliseconds = Double(waits.last ?? 0) / 1e6
            }
            r.analyzers.append(timing)
            for (stream, count) in n.dropped.sorted(by: { $0.key < $1.key }) {
                r.skipped.append(.init(analyzer: n.instance.name, stream: stream, count: count,
                                       reason: RunReport.Skip.realtimeDropReason))
            }
        }
        for s in streams {
            r.streams.append(.init(stream: s.name, type: s.type.name, packets: s.packets, first: s.first, last: s.last))
        }
        r.warnings = warnings
        r.notes = notes
        r.optionsFromData = optionsFromData.isEmpty ? nil : optionsFromData
        return r
    }
}
