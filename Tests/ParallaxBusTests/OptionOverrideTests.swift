import Testing
@testable import ParallaxBus
import ParallaxPayloads

/// `--set ANALYZER.OPTION=VALUE`: read, applied to a chain by instance or analyzer name, and
/// checked as the chain's own options are, every refusal naming the `--set`.
@Suite struct OptionOverrideTests {
    var registry: AnalyzerRegistry {
        var r = AnalyzerRegistry()
        r.register(Doubler.self)
        r.register(Recorder.self)
        return r
    }
    let streams = [StreamDescription(MultiRate.cam), StreamDescription(MultiRate.imu), StreamDescription(MultiRate.depth)]

    func overrides(_ texts: String...) throws -> [OptionOverride] { try texts.map { try OptionOverride(parsing: $0) } }

    @Test func textSplitsAtTheFirstEqualsAndTheLastDot() throws {
        #expect(try OptionOverride(parsing: "vio.map=place.pxmap") == OptionOverride(analyzer: "vio", option: "map", value: "place.pxmap"))
        // Instance names may hold dots; values may hold anything, `=` and nothing included.
        #expect(try OptionOverride(parsing: "cam.left.window=[1, 2]") == OptionOverride(analyzer: "cam.left", option: "window", value: "[1, 2]"))
        #expect(try OptionOverride(parsing: "a.b=x=y").value == "x=y" && (try OptionOverride(parsing: "a.b=").value) == "")
        #expect(try OptionOverride(parsing: "vio.map=place.pxmap").description == "vio.map=place.pxmap")
        for bad in ["vio.map", "map=x", ".map=x", "vio.=x", "=x"] {
            #expect {
                _ = try OptionOverride(parsing: bad)
            } throws: { error in
                "\(error)".hasPrefix("--set \(bad): expected ANALYZER.OPTION=VALUE")
            }
        }
    }

    @Test func anOverrideReplacesTheChainsValueAndIsRecordedOnItsNode() throws {
        let chain = try Chain.parse(pipeline: "doubler output=x2 sleepMs=0 ! doubler:second input=x2 output=x4")
        let set = try chain.applying(try overrides("doubler.sleep_ms=1.5", "second.fail_at=7", "second.output=@x8"), registry: registry)
        // The chain's camelCase key gives way to the --set, under its snake_case name.
        #expect(set.nodes[0].options == ["output": "x2", "sleep_ms": "1.5"])
        #expect(set.nodes[1].options == ["input": "x2", "fail_at": "7"] && set.nodes[1].remap == ["output": "x8"])
        #expect(set.nodes[0].overrides.map(\.description) == ["doubler.sleep_ms=1.5"])
        #expect(set.nodes[1].overrides.map(\.description) == ["second.fail_at=7", "second.output=@x8"])
        let instances = try set.instantiate(registry: registry, sourceStreams: streams)
        #expect(instances[1].outputs.first?.stream == "x8")
        #expect(instances[0].optionSummary == ["output": "x2", "sleep_ms": "1.5"])
        // What each analyzer was made with, defaults included.
        #expect(instances[0].effectiveOptions == ["input": "cam0", "output": "x2", "fail_at": "-1", "sleep_ms": "1.5", "open_sleep_ms": "0"])
        #expect(instances[1].effectiveOptions["fail_at"] == "7")
        // No override: the chain as it was.
        #expect(try chain.applying([], registry: registry) == chain)
    }

    @Test func namesAreCheckedAgainstTheChainWithADidYouMean() throws {
        let chain = try Chain.parse(pipeline: "doubler output=x2 ! recorder")
        let cases: [(String, String)] = [
            ("dobler.fail_at=1", "--set dobler.fail_at=1: chain 'pipeline' has no analyzer 'dobler'; did you mean 'doubler'? (its analyzers: 'doubler', 'recorder')"),
            ("zzz.fail_at=1", "--set zzz.fail_at=1: chain 'pipeline' has no analyzer 'zzz' (its analyzers: 'doubler', 'recorder')"),
            ("doubler.fial_at=1", "--set doubler.fial_at=1: analyzer 'doubler' has no option 'fial_at'; did you mean 'fail_at'? (see `parallax plugins doubler`)"),
            ("doubler.fail_at=1", ""),
        ]
        for (text, message) in cases {
            if message.isEmpty {
                _ = try chain.applying(try overrides(text), registry: registry)
                continue
            }
            #expect(throws: ChainError.self, "\(text)") { _ = try chain.applying(try overrides(text), registry: registry) }
            do { _ = try chain.applying(try overrides(text), registry: registry) } catch { #expect("\(error)" == message) }
        }
        // One option set twice (in either spelling) is refused: neither value may win in silence.
        #expect { _ = try chain.applying(try overrides("doubler.fail_at=1", "doubler.failAt=2"), registry: registry) } throws: { error in
            "\(error)" == "--set doubler.failAt=2: 'doubler.failAt' is set twice: give one value"
        }
    }

    /// Two analyzers of one kind: each is named by its instance name; the analyzer name alone
    /// is refused with the names to use.
    @Test func anAnalyzerInTheChainTwiceIsNamedByItsInstance() throws {
        let chain = try Chain.parse(pipeline: "doubler:first output=x2 ! doubler:second input=x2 output=x4")
        let set = try chain.applying(try overrides("second.fail_at=3"), registry: registry)
        #expect(set.nodes[1].options["fail_at"] == "3" && set.nodes[0].options["fail_at"] == nil)
        #expect { _ = try chain.applying(try overrides("doubler.fail_at=3"), registry: registry) } throws: { error in
            "\(error)" == "--set doubler.fail_at=3: chain 'pipeline' has 2 'doubler' analyzers, 'first' and 'second': name one by its instance name (--set first.fail_at=3)"
        }
        // An instance named like the analyzer is that instance.
        let named = try Chain.parse(pipeline: "doubler output=x2 ! doubler:second input=x2 output=x4")
        #expect(try named.applying(try overrides("doubler.fail_at=3"), registry: registry).nodes[0].options["fail_at"] == "3")
    }

    /// Values are checked when they are applied (before a command writes anything), as the
    /// chain's own are when it is made; a bad one is the `--set`'s fault (no chain location), a
    /// bad value the chain gave stays the chain's.
    @Test func valuesAreTypeAndRangeCheckedAndBlameTheOverride() throws {
        let chain = try Chain.parse(pipeline: "doubler output=x2")
        for (text, reason) in [("doubler.sleep_ms=-1", "must be in 0.0…10000.0"), ("doubler.fail_at=soon", "expected an integer")] {
            let set = try overrides(text)
            #expect { _ = try chain.applying(set, registry: registry) } throws: { error in
                guard case let ChainError.override(given, .invalidOptionValue(_, _, _, why, location)) = error else { return false }
                return given == text && why == reason && location == nil && "\(error)".hasPrefix("--set \(text): analyzer 'doubler', option ")
            }
        }
        // A port that does not exist, given with `@`.
        let port = try chain.applying(try overrides("doubler.outptu=@x3"), registry: registry)
        #expect { _ = try port.instantiate(registry: registry, sourceStreams: streams) } throws: { error in
            "\(error)".hasPrefix("--set doubler.outptu=@x3: analyzer 'doubler' has no port 'outptu'; did you mean 'output'?")
        }
        // The chain's own bad value, beside a good --set: the chain's, at its place.
        let own = try Chain.parse(pipeline: "doubler fail_at=soon"), good = try overrides("doubler.sleep_ms=1")
        #expect { _ = try own.applying(good, registry: registry) } throws: { error in
            guard case let ChainError.invalidOptionValue(_, option, _, _, location) = error else { return false }
            return option == "fail_at" && location?.file == "<pipeline>"
        }
    }

    /// A port set like an option (no `@`) gets the spelling that wires it.
    @Test func aPortSetWithoutAtSaysHowToWireIt() throws {
        #expect { _ = try Chain.parse(pipeline: "recorder").applying(try overrides("recorder.frames=cam1"), registry: registry) } throws: {
            "\($0)" == "--set recorder.frames=cam1: 'frames' is a port of recorder, not an option: wire it to a stream with @ (--set recorder.frames=@cam1)"
        }
    }

    /// A port a `--set` wired to a stream that is not there is the `--set`'s fault, not the chain's.
    @Test func aWiringTheSetBrokeIsBlamedOnTheSet() throws {
        let chain = try Chain.parse(pipeline: "doubler").applying(try overrides("doubler.input=@nowhere"), registry: registry)
        #expect { _ = try chain.instantiate(registry: registry, sourceStreams: streams) } throws: { error in
            guard case ChainError.override("doubler.input=@nowhere", .wiring(_, location: nil)) = error else { return false }
            return "\(error)".hasPrefix("--set doubler.input=@nowhere: ")
        }
    }
}
