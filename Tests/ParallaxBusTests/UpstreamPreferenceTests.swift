import Testing
@testable import ParallaxBus
import ParallaxPayloads

/// Reads `doubled` and asks the `doubler` that writes it for a 2 ms sleep and a fail time it
/// will never reach.
private struct Asker: Analyzer {
    static let name = "asker"
    static let summary = "test: asks its producer for options"
    static let upstreamPreferences = [UpstreamPreference(port: "numbers", analyzer: "doubler", options: ["sleep_ms": "2", "fail_at": "123456789"],
                                                         reason: "test")]
    struct Options: AnalyzerOptions {
        @Parameter("stream of Int") var input = "doubled"
        init() {}
    }
    let numbers: InputPort<Int>
    init(options: Options) { numbers = .each(options.input) }
    mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {}
}

/// A consumer's preferences reach the analyzer producing its port's stream, for the options the
/// chain did not give it; any other producer, and an option given, are left alone.
@Suite struct UpstreamPreferenceTests {
    var registry: AnalyzerRegistry {
        var r = AnalyzerRegistry()
        r.register(Doubler.self)
        r.register(Recorder.self)
        r.register(Asker.self)
        return r
    }
    let streams = [StreamDescription(MultiRate.cam), StreamDescription(MultiRate.imu), StreamDescription(MultiRate.depth)]

    func producer(_ pipeline: String) throws -> AnalyzerInstance {
        try Chain.parse(pipeline: pipeline).instantiate(registry: registry, sourceStreams: streams)[0]
    }

    @Test func theProducerTakesWhatTheChainDidNotGive() throws {
        let asked = try producer("doubler ! asker")
        #expect((asked.analyzer as? Doubler)?.options.sleepMs == 2)
        #expect((asked.analyzer as? Doubler)?.options.failAt == 123456789)
        #expect(asked.preferred.map(\.description) == ["fail_at=123456789 sleep_ms=2 (as asker prefers)"])
        #expect(asked.givenOptions == ["sleep_ms", "fail_at"])
        // Given in the chain (in either spelling): the chain's value stays, the rest is applied.
        let given = try producer("doubler sleepMs=0 ! asker")
        #expect((given.analyzer as? Doubler)?.options.sleepMs == 0)
        #expect(given.preferred.map(\.description) == ["fail_at=123456789 (as asker prefers)"])
        #expect(try producer("doubler sleep_ms=0 fail_at=-1 ! asker").preferred.isEmpty)
    }

    @Test func otherProducersAndOtherStreamsAreLeftAlone() throws {
        // The asker reads another stream than the doubler writes.
        #expect(try producer("doubler output=x ! asker input=cam0").preferred.isEmpty)
        // Without the asker.
        #expect(try producer("doubler").preferred.isEmpty)
    }
}
