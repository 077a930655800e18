import Foundation

/// The mutable state of one bus run: per-analyzer trigger queues, `between` buffers,
/// `latest` histories, timing and counters. Single-threaded by construction.
struct BusRunState {
    /// Kept packets per stream for `latest` lookups (newest last).
    static let latestHistory = 64

    struct Node {
        let instance: AnalyzerInstance
        var triggers: [AnyPacket] = []
        var triggerHead = 0
        var between: [String: [AnyPacket]] = [:]
        var durations: [Int64] = []
        var openCloseNanoseconds: Int64 = 0
        var lastOutput: [String: Timestamp] = [:]
        var dropped: [String: Int] = [:]
        let eachStreams: Set<String>
        let latestInputs: [(stream: String, tolerance: Nanoseconds)]
        let outputTypes: [String: PayloadType]
    }

    var nodes: [Node]
    let streamTypes: [String: PayloadType]
    let streamOrder: [String]
    let mode: FrameBus.Options.Mode
    let sink: FrameBus.Sink
    /// Consumers of each stream: (node index, policy).
    var eachConsumers: [String: [Int]] = [:]
    var betweenConsumers: [String: [Int]] = [:]
    var latest: [String: [AnyPacket]] = [:]
    var counts: [String: (packets: Int, first: Timestamp?, last: Timestamp?)] = [:]
    var warnings: [String] = []
    let clock = ContinuousClock()

    init(analyzers: [AnalyzerInstance], streamTypes: [String: PayloadType], streamOrder: [String],
         mode: FrameBus.Options.Mode, sink: @escaping FrameBus.Sink) {
        self.streamTypes = streamTypes
        self.streamOrder = streamOrder
        self.mode = mode
        self.sink = sink
        nodes = analyzers.map { a in
            var latestInputs: [(String, Nanoseconds)] = []
            for input in a.inputs { if case let .latest(tol) = input.policy { latestInputs.append((input.stream, tol)) } }
            return Node(instance: a,
                        eachStreams: Set(a.inputs.filter { $0.policy == .each }.map(\.stream)),
                        latestInputs: latestInputs,
                        outputTypes: Dictionary(a.outputs.map { ($0.stream, $0.type) }, uniquingKeysWith: { a, _ in a }))
        }
        for (i, a) in analyzers.enumerated() {
            for input in a.inputs {
                switch input.policy {
                case .each: eachConsumers[input.stream, default: []].append(i)
                case .between: betweenConsumers[input.stream, default: []].append(i)
                case .latest: latest[input.stream] = latest[input.stream] ?? []
                }
            }
        }
    }

    /// Hands a packet to every consumer of its stream.
    mutating func deliver(_ packet: AnyPacket) {
        var c = counts[packet.stream] ?? (0, nil, nil)
        c.packets += 1
        c.first = c.first ?? packet.timestamp
        c.last = packet.timestamp
        counts[packet.stream] = c
        if latest[packet.stream] != nil {
            latest[packet.stream]!.append(packet)
            if latest[packet.stream]!.count > 2 * Self.latestHistory {
                latest[packet.stream]!.removeFirst(Self.latestHistory)
            }
        }
        for i in betweenConsumers[packet.stream] ?? [] { nodes[i].between[packet.stream, default: []].append(packet) }
        for i in eachConsumers[packet.stream] ?? [] { nodes[i].triggers.append(packet) }
    }

    /// Runs every pending trigger, producers first. `now` (realtime mode only) is the dataset
    /// time the wall clock has reached: older triggers with a newer one already due are dropped.
    mutating func drain(now: Timestamp?) throws {
        for i in nodes.indices {
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
    }

    private func hasNewerDueTrigger(node i: Int, than packet: AnyPacket, now: Timestamp) -> Bool {
        let n = nodes[i]
        return n.triggers[n.triggerHead...].contains { $0.stream == packet.stream && $0.timestamp <= now }
    }

    private mutating func invoke(_ i: Int, trigger: AnyPacket) throws {
        let t = trigger.timestamp
        var between: [String: [AnyPacket]] = [:]
        for (stream, queue) in nodes[i].between {
            let cut = queue.firstIndex { $0.timestamp > t } ?? queue.count
            between[stream] = Array(queue[..<cut])
            nodes[i].between[stream] = Array(queue[cut...])
        }
        var latestPackets: [String: AnyPacket] = [:]
        for (stream, tolerance) in nodes[i].latestInputs {
            if let p = latest[stream]?.last(where: { $0.timestamp <= t }), t.nanoseconds - p.timestamp.nanoseconds <= tolerance {
                latestPackets[stream] = p
            }
        }
        let input = AnalyzerInput(trigger: trigger, latest: latestPackets, between: between)
        let instance = nodes[i].instance
        var context = AnalyzerContext(instanceName: instance.name)
        let start = clock.now
        do {
            try instance.process(input, &context)
        } catch {
            throw BusError.analyzerFailed(analyzer: instance.name, phase: "process", stream: trigger.stream, timestamp: t,
                                          message: "\(error)")
        }
        nodes[i].durations.append((clock.now - start).nanoseconds)
        try publish(from: i, context)
    }

    private mutating func publish(from i: Int, _ context: AnalyzerContext) throws {
        let name = nodes[i].instance.name
        warnings += context.warnings.map { "\(name): \($0)" }
        for packet in context.emitted {
            guard let type = nodes[i].outputTypes[packet.stream], type == PayloadType(dynamic: Swift.type(of: packet.payload)) else {
                throw BusError.undeclaredOutput(analyzer: name, stream: packet.stream)
            }
            if let prev = nodes[i].lastOutput[packet.stream], packet.timestamp < prev {
                throw BusError.outputOutOfOrder(analyzer: name, stream: packet.stream, previous: prev, current: packet.timestamp)
            }
            nodes[i].lastOutput[packet.stream] = packet.timestamp
            try sink(name, packet)
            deliver(packet)
        }
    }

    mutating func openAll() throws {
        for i in nodes.indices {
            var context = AnalyzerContext(instanceName: nodes[i].instance.name)
            let start = clock.now
            do { try nodes[i].instance.open(&context) } catch {
                throw BusError.analyzerFailed(analyzer: nodes[i].instance.name, phase: "open", stream: nil, timestamp: nil, message: "\(error)")
            }
            nodes[i].openCloseNanoseconds += (clock.now - start).nanoseconds
            try publish(from: i, context)
        }
    }

    /// Closes every analyzer in dependency order, publishing and draining what each flushes.
    /// Continues past failures (every analyzer gets its close); throws the first failure.
    mutating func closeAll() throws {
        var firstError: (any Error)?
        for i in nodes.indices {
            do {
                try drainNode(i)
                var context = AnalyzerContext(instanceName: nodes[i].instance.name)
                let start = clock.now
                do { try nodes[i].instance.close(&context) } catch {
                    throw BusError.analyzerFailed(analyzer: nodes[i].instance.name, phase: "close", stream: nil, timestamp: nil, message: "\(error)")
                }
                nodes[i].openCloseNanoseconds += (clock.now - start).nanoseconds
                try publish(from: i, context)
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }

    /// Runs the pending triggers of one node (outputs of upstream closes).
    private mutating func drainNode(_ i: Int) throws {
        while nodes[i].triggerHead < nodes[i].triggers.count {
            let packet = nodes[i].triggers[nodes[i].triggerHead]
            nodes[i].triggerHead += 1
            try invoke(i, trigger: packet)
        }
        nodes[i].triggers.removeAll()
        nodes[i].triggerHead = 0
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
        for s in streamOrder {
            let c = counts[s] ?? (0, nil, nil)
            r.streams.append(.init(stream: s, type: streamTypes[s]?.name ?? "?", packets: c.packets, first: c.first, last: c.last))
        }
        r.warnings = warnings
        return r
    }
}

extension Duration {
    /// Whole nanoseconds.
    var nanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}
