import Foundation
import Testing
import ParallaxTesting
@testable import ParallaxBus
import ParallaxOptions
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

/// An algorithm's settings (as ParallaxVision's are): options declared once, below the bus.
struct TrackingSettings: ParameterGroup, Equatable {
    @Parameter("features kept per frame", range: 1...10_000) var maxFeatures = 200
    @Parameter("tracking window (px)", range: 3...101) var window = 21
    @Parameter("pyramid levels", range: 0...8) var levels = 3
    init() {}
}

/// An analyzer whose options embed the settings as a group, beside its own stream option.
struct GroupProbe: Analyzer {
    static let name = "group-probe"
    static let summary = "test: a parameter group among the options"
    struct Options: AnalyzerOptions {
        @Parameter("camera stream") var camera = "cam0"
        var tracking = TrackingSettings()
        init() {}
    }
    let frames: InputPort<Int>
    let options: Options
    init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        self.options = options
        frames = .each(options.camera)
    }
    mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {}
}

/// Declares `window` itself and through its group: refused.
struct ClashingProbe: Analyzer {
    static let name = "clashing-probe"
    static let summary = "test: a name declared twice"
    struct Options: AnalyzerOptions {
        @Parameter("its own window (px)", range: 1...9) var window = 5
        var tracking = TrackingSettings()
        init() {}
    }
    let frames = InputPort<Int>.each("cam0")
    init(options: Options) throws { try options.checkRanges(analyzer: Self.name) }
    mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {}
}

@Suite struct OptionTests {
    func decode(_ values: [String: String]) throws -> OptionProbe.Options {
        try OptionCoding.decode(OptionProbe.Options.self, defaults: .init(), values: values)
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

    @Test func aGroupsParametersAreTheAnalyzersOptionsListedAndCheckedLikeItsOwn() throws {
        var registry = AnalyzerRegistry()
        registry.register(GroupProbe.self)
        let entry = try #require(registry.entry("group-probe"))
        // One list sorted by name: the group's parameters among the analyzer's own, the group not.
        #expect(entry.options.map(\.name) == ["camera", "levels", "max_features", "window"])
        let window = try #require(entry.options.first { $0.name == "window" })
        #expect(window == AnalyzerRegistry.OptionInfo(name: "window", defaultValue: "21", documentation: "tracking window (px)",
                                                       type: "integer", range: "3…101", choices: nil, fromData: nil))
        #expect(entry.defaultsProblem == nil)
        // Set by their flat names, checked with their ranges, misspelled with a did-you-mean.
        let made = try registry.make("group-probe", options: ["window": "7", "maxFeatures": "50"])
        let probe = try #require(made.analyzer as? GroupProbe)
        #expect(probe.options.tracking.window == 7 && probe.options.tracking.maxFeatures == 50 && probe.options.tracking.levels == 3)
        #expect(made.optionSummary == ["window": "7", "maxFeatures": "50"])   // run.json records what was typed
        #expect { _ = try registry.make("group-probe", options: ["window": "1"]) } throws: { error in
            "\(error)".contains("analyzer 'group-probe', option 'window' = '1': must be in 3…101")
        }
        #expect { _ = try registry.make("group-probe", options: ["windw": "7"]) } throws: { error in
            "\(error)".contains("has no option 'windw'; did you mean 'window'?")
        }
        #expect { _ = try registry.make("group-probe", options: ["tracking": "{}"]) } throws: { error in
            "\(error)".contains("has no option 'tracking'")
        }
        // Set from Swift, the group's ranges hold too.
        var o = GroupProbe.Options()
        o.tracking.levels = 9
        #expect(throws: AnalyzerError.invalidOption(analyzer: "group-probe", option: "levels", reason: "must be in 0…8")) { _ = try GroupProbe(options: o) }
    }

    @Test func aNameDeclaredByTheOptionsAndTheirGroupIsRefused() throws {
        var registry = AnalyzerRegistry()
        registry.register(ClashingProbe.self)
        let entry = try #require(registry.entry("clashing-probe"))
        let reason = "declared twice: by the field window and by tracking.window (every option, in a group or not, needs a name of its own)"
        #expect(entry.defaultsProblem == "option 'window': " + reason)
        #expect(entry.options.filter { $0.name == "window" }.count == 2)
        #expect { _ = try registry.make("clashing-probe", options: [:]) } throws: { error in
            "\(error)".contains("option 'window' = '(default)': " + reason)
        }
        #expect(throws: AnalyzerError.invalidOption(analyzer: "clashing-probe", option: "window", reason: reason)) {
            _ = try ClashingProbe(options: .init())
        }
    }

    @Test func triggerIsNonOptionalForASingleTriggerAnalyzer() throws {
        var harness = AnalyzerHarness { try OptionProbe(options: .init()) }
        harness.push(41, on: StreamKey<Int>("cam0"), at: Timestamp(nanoseconds: 1))
        #expect(try harness.run().packets(on: "probe", as: String.self).map(\.payload) == ["41"])
    }
}
