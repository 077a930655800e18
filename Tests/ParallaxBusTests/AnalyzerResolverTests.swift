import Testing
@testable import ParallaxBus

/// Analyzers whose ports are known only at run time: `PREFIX:ARGUMENT` names a resolver turns
/// into registry entries, made like a registered analyzer's.
@Suite struct AnalyzerResolverTests {
    /// Emits the count of its trigger's stream on `ARGUMENT/count`: ports from the argument.
    struct Counter: Analyzer {
        static let name = "counter"
        static let summary = "test"
        typealias Options = NoOptions
        let inputs: [PortDescription]
        let outputs: [PortDescription]
        init(options: NoOptions) { inputs = []; outputs = [] }
        init(stream: String) {
            inputs = [PortDescription(stream: stream, type: PayloadType(Int.self), policy: .each, name: "input")]
            outputs = [PortDescription(stream: stream + "/count", type: PayloadType(Int.self), policy: .each, name: "count")]
        }
        mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {}
    }

    struct Missing: Error, CustomStringConvertible { let name: String; var description: String { "fake:\(name): no such thing" } }

    var registry: AnalyzerRegistry {
        var r = AnalyzerRegistry()
        r.register(resolver: AnalyzerResolver(prefix: "fake", argumentName: "STREAM", summary: "test") { argument in
            guard argument != "missing" else { throw Missing(name: argument) }
            let probe = Counter(stream: argument)
            return AnalyzerRegistry.Entry(
                name: "fake:\(argument)", summary: "counts \(argument)",
                options: [AnalyzerRegistry.OptionInfo(name: "level", defaultValue: "1", documentation: "a level", type: "integer", range: nil, choices: nil)],
                defaultInputs: probe.inputs, defaultOutputs: probe.outputs,
                make: { values, instance, remap in
                    try AnalyzerInstance(Counter(stream: argument), name: instance ?? "counter", typeName: "fake:\(argument)", optionSummary: values,
                                         remapping: remap)
                },
                decode: { _ in })
        })
        return r
    }

    @Test func aPipelineNamesTheArgumentAndOptionallyTheInstance() throws {
        let chain = try Chain.parse(pipeline: "fake:cam0 level=2 ! fake:imu0:second count=@imu0/n")
        let instances = try chain.instantiate(registry: registry, sourceStreams: [
            StreamDescription(name: "cam0", type: PayloadType(Int.self)), StreamDescription(name: "imu0", type: PayloadType(Int.self)),
        ])
        #expect(instances.map(\.typeName) == ["fake:cam0", "fake:imu0"])
        #expect(instances.map(\.name) == ["counter", "second"])
        #expect(instances[0].outputs.map(\.stream) == ["cam0/count"] && instances[1].outputs.map(\.stream) == ["imu0/n"])
    }

    @Test func unknownOptionsAndFailuresAreTheChainsErrors() {
        #expect(throws: ChainError.unknownOption(analyzer: "fake:cam0", option: "levle", suggestion: "level", location: nil)) {
            try registry.make("fake:cam0", options: ["levle": "1"])
        }
        #expect(throws: ChainError.syntax(message: "fake:missing: no such thing", location: nil)) { try registry.make("fake:missing", options: [:]) }
        // A name without a registered prefix stays unknown.
        #expect(throws: ChainError.self) { try registry.make("other:cam0", options: [:]) }
        #expect(throws: Never.self) { try registry.resolvedEntry("fake:cam0") }
        #expect((try? registry.resolvedEntry("nothing")) == nil)
    }

    @Test func aSetReachesAResolversInstanceByItsName() throws {
        let chain = try Chain.parse(pipeline: "fake:cam0:first ! fake:imu0:second")
        let set = try chain.applying([try OptionOverride(parsing: "second.level=3")], registry: registry)
        #expect(set.nodes.map(\.analyzer) == ["fake:cam0", "fake:imu0"] && set.nodes.map(\.instanceName) == ["first", "second"])
        #expect(set.nodes[1].options == ["level": "3"] && set.nodes[0].options.isEmpty)
        #expect(throws: ChainError.override("second.levle=3", .unknownOption(analyzer: "fake:imu0", option: "levle", suggestion: "level", location: nil))) {
            try chain.applying([try OptionOverride(parsing: "second.levle=3")], registry: registry)
        }
    }
}
