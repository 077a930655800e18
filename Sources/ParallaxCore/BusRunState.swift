import Foundation

/// The mutable state of one bus run: per-analyzer trigger queues, `between` buffers,
/// `latest` histories, timing and counters. Single-threaded by construction.
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
        let latestInputs: [(stream: Int, name: String, tolerance: Nanoseconds)]
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
    }

    var nodes: [Node]
    var streams: [Stream]
    let streamIDs: [String: Int]
    let sink: FrameBus.Sink
    var warnings: [String] = []
    let clock = ContinuousClock()

    init(analyzers: [AnalyzerInstance], streamTypes: [String: PayloadType], streamOrder: [String], sink: @escaping FrameBus.Sink) {
        self.sink = sink
        var ids: [String: Int] = [:]
        streams = streamOrder.enumerated().map { i, name in
            ids[name] = i
            return Stream(name: name, type: streamTypes[name]!)
        }
        streamIDs = ids
        nodes = analyzers.map { a in
            var latestInputs: [(Int, String, Nanoseconds)] = []
            for input in a.inputs { if case let .latest(tol) = input.policy { latestInputs.append((ids[input.stream]!, input.stream, tol)) } }
            return Node(instance: a, latestInputs: latestInputs,
                        outputIDs: Dictionary(a.outputs.map { ($0.stream, ids[$0.stream]!) }, uniquingKeysWith: { a, _ in a }),
                        context: AnalyzerContext(instanceName: a.name))
        }
        for (i, a) in analyzers.enumerated() {
            for input in a.inputs {
                let id = ids[input.stream]!
                switch input.policy {
                case .each: streams[id].eachConsumers.append(i)
                case .between: streams[id].betweenConsumers.append(i)
                case .latest: streams[id].keepsLatest = true
                }
            }
        }
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

    /// Runs the pending triggers of node `i` (dropping stale ones when `now` is given).
    private mutating func drainNode(_ i: Int, now: Timestamp?) throws {
        while nodes[i].triggerHead < nodes[i].triggers.count {
            let packet = nodes[i].triggers[nodes[i].triggerHead]
            nodes[i].triggerHead += 1
            if let now, hasNewerDueTrigger(node: i, than: packet, now: now) {
                nodes[i].dropped[packet.stream, default: 0] += 1
                continue
            }
            try invoke(i, trigger: packet)
        }
        nodes[i].triggers.removeAll(keepingCapacity: true)
        nodes[i].triggerHead = 0
    }

    private func hasNewerDueTrigger(node i: Int, than packet: AnyPacket, now: Timestamp) -> Bool {
        let n = nodes[i]
        return n.triggers[n.triggerHead...].contains { $0.stream == packet.stream && $0.timestamp <= now }
    }

    private mutating func invoke(_ i: Int, trigger: AnyPacket) throws {
        let t = trigger.timestamp
        var between: [String: [AnyPacket]] = [:]
        if !nodes[i].between.isEmpty {
            for (stream, queue) in nodes[i].between {
                let cut = queue.firstIndex { $0.timestamp > t } ?? queue.count
                between[stream] = Array(queue[..<cut])
                nodes[i].between[stream] = cut == queue.count ? [] : Array(queue[cut...])
            }
        }
        var latestPackets: [String: AnyPacket] = [:]
        for (id, name, tolerance) in nodes[i].latestInputs {
            if let p = streams[id].latest.last(where: { $0.timestamp <= t }), t.nanoseconds - p.timestamp.nanoseconds <= tolerance {
                latestPackets[name] = p
            }
        }
        let input = AnalyzerInput(trigger: trigger, latest: latestPackets, between: between)
        let instance = nodes[i].instance
        let start = clock.now
        do {
            try instance.process(input, &nodes[i].context)
        } catch {
            nodes[i].context.reset()
            throw BusError.analyzerFailed(analyzer: instance.name, phase: "process", stream: trigger.stream, timestamp: t,
                                          message: "\(error)")
        }
        nodes[i].durations.append((clock.now - start).nanoseconds)
        try publish(from: i)
    }

    /// Sends what node `i` emitted (in its context) to the sink and the consumers.
    private mutating func publish(from i: Int) throws {
        if !nodes[i].context.warnings.isEmpty {
            let name = nodes[i].instance.name
            warnings += nodes[i].context.warnings.map { "\(name): \($0)" }
        }
        if nodes[i].context.emitted.isEmpty { nodes[i].context.reset(); return }
        let emitted = nodes[i].context.emitted
        nodes[i].context.reset()
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
            let start = clock.now
            do { try nodes[i].instance.open(&nodes[i].context) } catch {
                throw BusError.analyzerFailed(analyzer: nodes[i].instance.name, phase: "open", stream: nil, timestamp: nil, message: "\(error)")
            }
            nodes[i].openCloseNanoseconds += (clock.now - start).nanoseconds
            try publish(from: i)
        }
    }

    /// Closes every analyzer in dependency order, publishing and draining what each flushes.
    /// Continues past failures (every analyzer gets its close); throws the first failure.
    mutating func closeAll() throws {
        var firstError: (any Error)?
        for i in nodes.indices {
            do {
                try drainNode(i, now: nil)  // outputs of upstream closes
                let start = clock.now
                do { try nodes[i].instance.close(&nodes[i].context) } catch {
                    throw BusError.analyzerFailed(analyzer: nodes[i].instance.name, phase: "close", stream: nil, timestamp: nil, message: "\(error)")
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

    func report() -> RunReport {
        var r = RunReport()
        for n in nodes {
            let sorted = n.durations.sorted()
            func pct(_ q: Double) -> Double {
                sorted.isEmpty ? 0 : Double(sorted[min(sorted.count - 1, Int((q * Double(sorted.count - 1)).rounded()))]) / 1e6
            }
            let total = Double(n.durations.reduce(0, +) + n.openCloseNanoseconds) / 1e6
            r.analyzers.append(.init(instance: n.instance.name, analyzer: n.instance.typeName, calls: n.durations.count,
                                     p50Milliseconds: pct(0.5), p95Milliseconds: pct(0.95),
                                     maxMilliseconds: Double(sorted.last ?? 0) / 1e6, totalMilliseconds: total))
            for (stream, count) in n.dropped.sorted(by: { $0.key < $1.key }) {
                r.skipped.append(.init(analyzer: n.instance.name, stream: stream, count: count,
                                       reason: "realtime: analyzer behind, older trigger dropped"))
            }
        }
        for s in streams {
            r.streams.append(.init(stream: s.name, type: s.type.name, packets: s.packets, first: s.first, last: s.last))
        }
        r.warnings = warnings
        return r
    }
}
