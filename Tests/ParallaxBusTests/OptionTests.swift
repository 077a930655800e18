import Foundation
import Testing
import ParallaxTesting
@testable import ParallaxBus
import ParallaxPayloads
/// Options of every kind a real analyzer needs: optional, nested, lists (empty too), choices.
struct OptionProbe: Analyzer {
    static let name = "option-probe"
    static let summary = "test: options of every kind"
    enum Mode: String, CaseIterable, OptionValue { case fast, accurate }
    struct Options: AnalyzerOptions {
        @Parameter("focal length (px); none: from the calibration", range: 1.0...1e5) var focal: Double? = nil
        @Parameter("start box (px)") var box: BoundingBox? = nil
        @Parameter("streams to read") var streams = ["cam0"]
        @Parameter("speed or accuracy") var mode = Mode.fast
        @Parameter("window (px)", range: 3...101) var window = 21
        @Parameter("an acronym in the field name (ms)", range: 1...1000) var maxIMUGapMs = 50.0
        init() {}
    }
    let frames: InputPort<Int>
    let echo: OutputPort<String>
    let options: Options
    init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        self.options = options
        frames = .each("cam0")
        echo = OutputPort("probe")
    }
    mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        let packet = try input.trigger(frames)   // one trigger: no optional to unwrap
        context.emit("\(packet.payload)", on: echo, at: input.timestamp)
    }
}

@Suite struct OptionTests {
    func decode(_ values: [String: String]) throws -> OptionProbe.Options {
        try OptionCoding.decode(OptionProbe.Options.self, analyzer: OptionProbe.name, values: values)
    }

    @Test func optionalNestedListAndChoiceOptionsFromAPipeline() throws {
        // Blanks inside braces do not end a pipeline token.
        let chain = try Chain.parse(pipeline: "option-probe focal=450.5 box={x: 10, y: 20, width: 40, height: 30} streams= mode=accurate")
        #expect(chain.nodes.count == 1 && chain.nodes[0].options.count == 4)
        let o = try decode(chain.nodes[0].options)
        #expect(o.focal == 450.5)
        #expect(o.box == BoundingBox(x: 10, y: 20, width: 40, height: 30))
        #expect(o.streams.isEmpty)   // empty list
        #expect(o.mode == .accurate)
        let none = try decode(["focal": "none", "box": ""])
        #expect(none.focal == nil && none.box == nil)
        #expect(try decode([:]).streams == ["cam0"])
        #expect(try decode(["streams": "a,b"]).streams == ["a", "b"])
        // A run of capitals is one word: `maxIMUGapMs` is `max_imu_gap_ms` (Foundation's
        // snake-case strategies lose it on the way back).
        #expect(try decode(["max_imu_gap_ms": "20"]).maxIMUGapMs == 20)
        #expect(try decode(["maxIMUGapMs": "30"]).maxIMUGapMs == 30)
    }

    @Test func optionalNestedListAndChoiceOptionsFromYAML() throws {
        let yaml = """
        analyzers:
          - analyzer: option-probe
            options:
              focal: 300
              box: {x: 1.5, y: 2, width: 3, height: 4}
              streams: []
              mode: accurate
          - analyzer: option-probe
            as: second
            options:
              box:
                x: 5
                y: 6
                width: 7
                height: 8
              streams: [cam0, "cam1"]
        """
        let chain = try Chain.parse(yaml: yaml, file: "probe.yaml")
        let a = try decode(chain.nodes[0].options), b = try decode(chain.nodes[1].options)
        #expect(a.focal == 300 && a.box == BoundingBox(x: 1.5, y: 2, width: 3, height: 4) && a.streams.isEmpty && a.mode == .accurate)
        #expect(b.focal == nil && b.box == BoundingBox(x: 5, y: 6, width: 7, height: 8) && b.streams == ["cam0", "cam1"])
    }

    @Test func valuesOutsideTheDeclaredRangeOrTypeAreRefusedNamingTheOption() throws {
        var registry = AnalyzerRegistry()
        registry.register(OptionProbe.self)
        func reason(_ values: [String: String]) -> String {
            do { _ = try registry.make("option-probe", options: values); return "" } catch { return "\(error)" }
        }
        #expect(reason(["window": "100001"]).contains("option 'window' = '100001': must be in 3…101"))
        #expect(reason(["window": "-1"]).contains("must be in 3…101"))
        #expect(reason(["focal": "0.5"]).contains("option 'focal' = '0.5': must be in 1.0…100000.0"))
        #expect(reason(["focal": "nan"]).contains("expected a finite number"))
        #expect(reason(["mode": "slow"]).contains("expected one of fast, accurate"))
        #expect(reason(["box": "{x: 1}"]).contains("option 'box'"))
        #expect(reason(["window": "7"]).isEmpty)
        // Set from Swift, the same ranges hold.
        var o = OptionProbe.Options()
        o.window = 2
        #expect(throws: AnalyzerError.invalidOption(analyzer: "option-probe", option: "window", reason: "must be in 3…101")) { _ = try OptionProbe(options: o) }
    }

    @Test func theRegistryListsTypesRangesAndChoices() throws {
        var registry = AnalyzerRegistry()
        registry.register(OptionProbe.self)
        let entry = try #require(registry.entry("option-probe"))
        let options = Dictionary(uniqueKeysWithValues: entry.options.map { ($0.name, $0) })
        #expect(options["window"]?.range == "3…101" && options["window"]?.type == "integer" && options["window"]?.defaultValue == "21")
        #expect(options["mode"]?.choices == ["fast", "accurate"])
        #expect(options["focal"]?.defaultValue == "none" && options["focal"]?.type == "number or none")
        #expect(options["box"]?.documentation == "start box (px)")
        #expect(options["max_imu_gap_ms"]?.documentation == "an acronym in the field name (ms)")
        #expect(entry.defaultsProblem == nil)
        // Ports come from the declarations alone, named after their properties.
        #expect(entry.defaultInputs.map(\.name) == ["frames"] && entry.defaultOutputs.map(\.name) == ["echo"])
    }

    @Test func triggerIsNonOptionalForASingleTriggerAnalyzer() throws {
        var harness = AnalyzerHarness { try OptionProbe(options: .init()) }
        harness.push(41, on: StreamKey<Int>("cam0"), at: Timestamp(nanoseconds: 1))
        #expect(try harness.run().packets(on: "probe", as: String.self).map(\.payload) == ["41"])
    }
}

@Suite struct RemappingTests {
    func registry() -> AnalyzerRegistry {
        var r = AnalyzerRegistry()
        r.register(Doubler.self)
        r.register(Recorder.self)
        return r
    }

    /// Doubles cam1 (remapped from the declared cam0) and writes to `twice` (remapped output).
    func run(_ chain: Chain) throws -> [AnyPacket] {
        let source = ArraySource(streams: [StreamDescription(StreamKey<Int>("cam1"))],
                                 packets: (1...3).map { AnyPacket(stream: "cam1", timestamp: Timestamp(nanoseconds: Int64($0)), payload: $0) })
        let instances = try chain.instantiate(registry: registry(), sourceStreams: source.streams)
        return try runCollecting(try FrameBus(sources: [source], analyzers: instances)).outputs
    }

    @Test func pipelineRemapsPortsByName() throws {
        let out = try run(try Chain.parse(pipeline: "doubler input=@cam1 output=@twice"))
        #expect(out.filter { $0.stream == "twice" }.compactMap { $0.payload as? Int } == [2, 4, 6, -1])
    }

    @Test func yamlRemapsPortsByName() throws {
        let yaml = """
        analyzers:
          - analyzer: doubler
            inputs: {input: cam1}
            outputs: {output: twice}
          - analyzer: doubler
            as: again
            inputs: {input: twice}
            outputs: {output: four-times}
        """
        let out = try run(try Chain.parse(yaml: yaml, file: "remap.yaml"))
        #expect(out.filter { $0.stream == "four-times" }.compactMap { $0.payload as? Int } == [4, 8, 12, -2, -1])
    }

    @Test func anUnknownPortGetsADidYouMean() throws {
        #expect { _ = try run(try Chain.parse(pipeline: "doubler inptu=@cam1")) } throws: { error in
            "\(error)".contains("has no port 'inptu'; did you mean 'input'?")
        }
        let yaml = "analyzers:\n  - analyzer: doubler\n    input: {input: cam1}\n"
        #expect { _ = try Chain.parse(yaml: yaml, file: "typo.yaml") } throws: { error in
            "\(error)".contains("typo.yaml:3:5: analyzers[0]: unknown key 'input'; did you mean 'inputs'?")
        }
    }
}
