/// Static checks and ordering of an analyzer graph, done before any packet flows.
public enum BusWiring {
    /// The result of wiring: analyzer execution order and every stream's type.
    public struct Plan {
        /// Indices into the analyzer array, producers before consumers.
        public let order: [Int]
        public let streamTypes: [String: PayloadType]
        /// Streams in declaration order (sources first, then analyzer outputs).
        public let streamOrder: [String]
        /// The metadata of every source stream (analyzer outputs get theirs in `open`).
        public let sourceMetadata: [String: StreamMetadata]
    }

    /// Checks the graph and orders it. Errors name the analyzer (its index is
    /// ``analyzerIndex(of:in:)``-recoverable from the name, for chain file locations).
    public static func plan(sourceStreams: [StreamDescription], analyzers: [AnalyzerInstance]) throws -> Plan {
        var producer: [String: String] = [:]
        var types: [String: PayloadType] = [:]
        var order: [String] = []
        var seenNames = Set<String>()
        for a in analyzers {
            guard seenNames.insert(a.name).inserted else { throw BusError.duplicateInstance(name: a.name) }
        }
        func add(_ stream: String, _ type: PayloadType, by who: String) throws {
            if let other = producer[stream] { throw BusError.duplicateProducer(stream: stream, producers: [other, who]) }
            producer[stream] = who
            types[stream] = type
            order.append(stream)
        }
        for s in sourceStreams { try add(s.name, s.type, by: "source") }
        for a in analyzers { for o in a.outputs { try add(o.stream, o.type, by: a.name) } }

        var producerIndex: [String: Int] = [:]
        for (i, a) in analyzers.enumerated() { for o in a.outputs { producerIndex[o.stream] = i } }
        var dependencies = [Set<Int>](repeating: [], count: analyzers.count)
        for (i, a) in analyzers.enumerated() {
            guard a.inputs.contains(where: { $0.policy == .each }) else { throw BusError.noTrigger(analyzer: a.name) }
            for input in a.inputs {
                guard let type = types[input.stream] else {
                    // What it could read: every stream but its own outputs.
                    let own = Set(a.outputs.map(\.stream))
                    throw BusError.unknownStream(analyzer: a.name, stream: input.stream, available: order.filter { !own.contains($0) })
                }
                if input.type != PortDescription.anyPayload, input.type != type {
                    throw BusError.typeMismatch(analyzer: a.name, stream: input.stream, expected: input.type.name, found: type.name)
                }
                if let p = producerIndex[input.stream] { dependencies[i].insert(p) }
            }
        }
        // Kahn's algorithm; ties resolved by chain position, so the order is deterministic.
        var done = [Bool](repeating: false, count: analyzers.count)
        var result: [Int] = []
        while result.count < analyzers.count {
            guard let next = analyzers.indices.first(where: { !done[$0] && dependencies[$0].allSatisfy { done[$0] } }) else {
                let stuck = analyzers.indices.filter { !done[$0] }.map { analyzers[$0].name }
                throw BusError.cycle(analyzers: stuck)
            }
            done[next] = true
            result.append(next)
        }
        let metadata = Dictionary(sourceStreams.map { ($0.name, $0.metadata) }, uniquingKeysWith: { a, _ in a })
        return Plan(order: result, streamTypes: types, streamOrder: order, sourceMetadata: metadata)
    }
}
