import Testing
@testable import ParallaxBus
import ParallaxPayloads

/// Warns when a frame is odd and notes, at the end, how many it saw.
private struct Teller: Analyzer {
    static let name = "teller"
    static let summary = "test: warns and notes"
    struct Options: AnalyzerOptions { init() {} }
    let frames: InputPort<Int> = .each("cam0")
    var seen = 0
    init(options: Options) {}
    mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        seen += 1
        if seen == 2 { context.warn("frame 2 was odd") }
    }
    mutating func close(context: inout AnalyzerContext) throws { context.note("saw \(seen) frames") }
}

/// Takes `size` from the data (its default, 5, gives way to 42) unless the chain gave it.
private struct Sizer: Analyzer {
    static let name = "sizer"
    static let summary = "test: an option from the data"
    static let optionsFromData = ["size": "the test's data"]
    struct Options: AnalyzerOptions {
        @Parameter("a size") var size = 5
        @Parameter("another option") var label = "x"
        init() {}
    }
    let frames: InputPort<Int> = .each("cam0")
    let sizes = OutputPort<Int>("sizes")
    var options: Options
    init(options: Options) { self.options = options }
    mutating func open(context: inout AnalyzerContext) throws {
        if !context.isGiven("size") {
            options.size = 42
            context.useFromData("size", value: "42", from: "the test's data")
        }
    }
    mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        context.emit(options.size, on: sizes, at: input.timestamp)
    }
}

/// What an analyzer reports reaches the run report by kind: warnings (what went wrong) apart
/// from notes (what went as it should), each under the instance's name.
@Suite struct AnalyzerContextTests {
    @Test func notesAreKeptApartFromWarnings() throws {
        let bus = try FrameBus(sources: [MultiRate.sources()[0]], analyzers: [AnalyzerInstance(Teller(options: .init()), name: "t")])
        let (_, report) = try runCollecting(bus)
        #expect(report.warnings == ["t: frame 2 was odd"])
        #expect(report.notes == ["t: saw 40 frames"])
    }

    /// An option the chain did not give follows the data, said once as a note and listed in the
    /// report; one the chain gave (in either spelling) wins and nothing is said.
    @Test func optionsTheChainDidNotGiveFollowTheData() throws {
        var registry = AnalyzerRegistry()
        registry.register(Sizer.self)
        #expect(registry.entry("sizer")?.options.first { $0.name == "size" }?.fromData == "the test's data")
        #expect(registry.entry("sizer")?.options.first { $0.name == "label" }?.fromData == nil)
        for (given, expected) in [([:], 42), (["label": "y"], 42), (["size": "7"], 7), (["Size": "8"], 8)] as [([String: String], Int)] {
            let bus = try FrameBus(sources: [MultiRate.sources()[0]], analyzers: [registry.make("sizer", options: given, instanceName: "s")])
            let (outputs, report) = try runCollecting(bus)
            #expect(outputs.compactMap { $0.payload as? Int }.allSatisfy { $0 == expected }, "\(given)")
            if expected == 42 {
                #expect(report.notes == ["s: size=42 from the test's data"])
                #expect(report.optionsFromData == [RunReport.OptionFromData(instance: "s", option: "size", value: "42", origin: "the test's data")])
            } else {
                #expect(report.notes.isEmpty && report.optionsFromData == nil, "\(given)")
            }
        }
    }
}
