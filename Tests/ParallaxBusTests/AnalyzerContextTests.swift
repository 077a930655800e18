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

/// What an analyzer reports reaches the run report by kind: warnings (what went wrong) apart
/// from notes (what went as it should), each under the instance's name.
@Suite struct AnalyzerContextTests {
    @Test func notesAreKeptApartFromWarnings() throws {
        let bus = try FrameBus(sources: [MultiRate.sources()[0]], analyzers: [AnalyzerInstance(Teller(options: .init()), name: "t")])
        let (_, report) = try runCollecting(bus)
        #expect(report.warnings == ["t: frame 2 was odd"])
        #expect(report.notes == ["t: saw 40 frames"])
    }
}
