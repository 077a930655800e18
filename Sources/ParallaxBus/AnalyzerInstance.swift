/// One analyzer in a running graph: the type-erased analyzer plus its instance name, and the
/// streams its ports are wired to.
///
/// Instance names default to the analyzer's registry name; give two instances of one analyzer
/// distinct names (`as:` in a chain). A chain may *remap* ports to other streams by port name
/// (`klt frames=@cam1`, or `inputs:`/`outputs:` in YAML): ``inputs`` and ``outputs`` then name
/// the bus's streams, while the analyzer keeps seeing the stream names it declared — the bus
/// translates at this boundary.
public final class AnalyzerInstance {
    /// Name in the chain (unique within a bus).
    public let name: String
    /// The analyzer's registry name.
    public let typeName: String
    /// Declared inputs, wired to the bus's streams.
    public let inputs: [PortDescription]
    /// Declared outputs, wired to the bus's streams.
    public let outputs: [PortDescription]
    /// The options as given, for the run report (`key=value`, sorted).
    public let optionSummary: [String: String]
    /// Every option with the value the analyzer was made with, defaults included (`snake_case`
    /// name → JSON text), for the run report; empty for an instance not made by a registry.
    public let effectiveOptions: [String: String]
    /// The options the chain gave (`snake_case`), the others being defaults that may follow the
    /// data; `nil` for an analyzer made in Swift, whose every option counts as chosen.
    public let givenOptions: Set<String>?
    /// Options taken from a consumer's ``UpstreamPreference`` (the chain gave none of them).
    public internal(set) var preferred: [AppliedPreference] = []
    /// Bus stream → the stream name the analyzer declared (inputs), where remapped.
    let portStreamForBus: [String: String]
    /// Declared stream name → bus stream (outputs), where remapped.
    let busStreamForPort: [String: String]
    var analyzer: any Analyzer

    /// Why a remapping is not possible.
    public enum RemapError: Error, Equatable, Sendable, CustomStringConvertible {
        /// No port has that name.
        case unknownPort(analyzer: String, port: String, ports: [String])
        /// Two input ports would read one stream under different names.
        case sharedStream(analyzer: String, stream: String)

        public var description: String {
            switch self {
            case let .unknownPort(a, port, ports):
                return "\(a) has no port '\(port)' (ports: \(ports.joined(separator: ", ")))"
            case let .sharedStream(a, stream):
                return "\(a): two inputs would read stream '\(stream)'; remap one of them elsewhere"
            }
        }
    }

    /// Wraps `analyzer` under `name`, its ports on the streams it declared.
    public convenience init(_ analyzer: some Analyzer, name: String? = nil, optionSummary: [String: String] = [:]) {
        self.init(unchecked: analyzer, declared: (analyzer.inputs, analyzer.outputs), name: name, optionSummary: optionSummary, effectiveOptions: [:],
                  givenOptions: nil, remap: [:])
    }

    /// Wraps `analyzer` under `name`, with the ports named in `remap` (port name → stream)
    /// wired to other streams. Throws ``RemapError`` for an unknown port name.
    /// `givenOptions`: the options the chain gave, when it was made from one (a registry).
    /// `typeName`: the registry name when it is not the type's (`python:detect.py`, made by an
    /// ``AnalyzerResolver``); it is also the default instance name.
    public convenience init(_ analyzer: some Analyzer, name: String? = nil, typeName: String? = nil, optionSummary: [String: String] = [:],
                            effectiveOptions: [String: String] = [:], givenOptions: Set<String>? = nil, remapping remap: [String: String]) throws {
        // Port discovery reflects over the analyzer: do it once.
        let declared = (inputs: analyzer.inputs, outputs: analyzer.outputs)
        let all = declared.inputs + declared.outputs
        let instanceName = name ?? typeName ?? type(of: analyzer).name
        for port in remap.keys.sorted() where !all.contains(where: { $0.name == port }) {
            throw RemapError.unknownPort(analyzer: instanceName, port: port, ports: all.compactMap(\.name))
        }
        self.init(unchecked: analyzer, declared: declared, name: name, typeName: typeName, optionSummary: optionSummary,
                  effectiveOptions: effectiveOptions, givenOptions: givenOptions, remap: remap)
        var seen: [String: String] = [:]
        for (bus, port) in zip(inputs.map(\.stream), declared.inputs.map(\.stream)) {
            if let other = seen[bus], other != port { throw RemapError.sharedStream(analyzer: instanceName, stream: bus) }
            seen[bus] = port
        }
    }

    private init(unchecked analyzer: some Analyzer, declared: (inputs: [PortDescription], outputs: [PortDescription]), name: String?,
                 typeName: String? = nil, optionSummary: [String: String], effectiveOptions: [String: String], givenOptions: Set<String>?,
                 remap: [String: String]) {
        self.analyzer = analyzer
        self.typeName = typeName ?? type(of: analyzer).name
        self.name = name ?? typeName ?? type(of: analyzer).name
        func wire(_ ports: [PortDescription]) -> [PortDescription] {
            ports.map { p in
                var q = p
                if let n = p.name, let stream = remap[n] { q.stream = stream }
                return q
            }
        }
        let declaredInputs = declared.inputs, declaredOutputs = declared.outputs
        inputs = wire(declaredInputs)
        outputs = wire(declaredOutputs)
        var toPort: [String: String] = [:], toBus: [String: String] = [:]
        for (bus, port) in zip(inputs, declaredInputs) where bus.stream != port.stream { toPort[bus.stream] = port.stream }
        for (bus, port) in zip(outputs, declaredOutputs) where bus.stream != port.stream { toBus[port.stream] = bus.stream }
        portStreamForBus = toPort
        busStreamForPort = toBus
        self.optionSummary = optionSummary
        self.effectiveOptions = effectiveOptions
        self.givenOptions = givenOptions
    }

    /// Whether any port is remapped (the bus translates stream names only then).
    var isRemapped: Bool { !portStreamForBus.isEmpty || !busStreamForPort.isEmpty }

    func open(_ context: inout AnalyzerContext) throws { try analyzer.open(context: &context) }
    func process(_ input: AnalyzerInput, _ context: inout AnalyzerContext) throws { try analyzer.process(input, context: &context) }
    func close(_ context: inout AnalyzerContext) throws { try analyzer.close(context: &context) }
}
