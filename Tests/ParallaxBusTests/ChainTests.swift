import Testing
@testable import ParallaxBus
import ParallaxPayloads
@Suite struct ChainTests {
    var registry: AnalyzerRegistry {
        var r = AnalyzerRegistry()
        r.register(Doubler.self)
        r.register(Recorder.self)
        return r
    }
    let streams = [StreamDescription(MultiRate.cam), StreamDescription(MultiRate.imu), StreamDescription(MultiRate.depth)]

    @Test func pipelineStringBuildsAnalyzersWithOptions() throws {
        let chain = try Chain.parse(pipeline: "doubler output=x2 fail_at=5 ! doubler:second input=x2 output=x4 sleepMs=0")
        #expect(chain.nodes.count == 2)
        #expect(chain.nodes[1].instanceName == "second")
        let instances = try chain.instantiate(registry: registry, sourceStreams: streams)
        #expect(instances.map(\.name) == ["doubler", "second"])
        #expect(instances[1].inputs.first?.stream == "x2")
    }

    @Test func unknownNamesGetDidYouMean() {
        #expect(throws: ChainError.unknownAnalyzer(name: "dobler", suggestion: "doubler",
                                                   location: ChainLocation(file: "<pipeline>", line: 1, column: 1))) {
            _ = try Chain.parse(pipeline: "dobler").instantiate(registry: registry, sourceStreams: streams)
        }
        #expect(throws: ChainError.unknownOption(analyzer: "doubler", option: "ouput", suggestion: "output",
                                                 location: ChainLocation(file: "<pipeline>", line: 1, column: 12))) {
            _ = try Chain.parse(pipeline: "recorder ! doubler ouput=y").instantiate(registry: registry, sourceStreams: streams)
        }
    }

    @Test func badValuesAreNamed() {
        #expect {
            _ = try Chain.parse(pipeline: "doubler fail_at=soon").instantiate(registry: registry, sourceStreams: streams)
        } throws: { error in
            guard case let ChainError.invalidOptionValue(a, o, v, reason, _) = error else { return false }
            return a == "doubler" && o == "fail_at" && v == "soon" && reason == "expected an integer"
        }
        #expect(throws: ChainError.self) { _ = try Chain.parse(pipeline: "doubler ! ! recorder") }
        #expect(throws: ChainError.self) { _ = try Chain.parse(pipeline: "doubler output") }
    }

    @Test func yamlTypeMismatchPointsAtFileAndLine() throws {
        let yaml = """
        name: test
        analyzers:
          - analyzer: recorder
          - analyzer: doubler
            options:
              input: imu0
        """
        let chain = try Chain.parse(yaml: yaml, file: "chains/test.yaml")
        #expect(chain.name == "test")
        #expect {
            _ = try chain.instantiate(registry: registry, sourceStreams: streams)
        } throws: { error in
            guard case let ChainError.wiring(BusError.typeMismatch(a, s, expected, found), location) = error else { return false }
            return a == "doubler" && s == "imu0" && expected == "Int" && found == "Double"
                && location == ChainLocation(file: "chains/test.yaml", line: 4, column: 15)
                && "\(error)".hasPrefix("chains/test.yaml:4:15: ")
        }
    }

    @Test func malformedYAMLNamesTheLine() {
        #expect {
            _ = try Chain.parse(yaml: "analyzers:\n  - analyzer: [doubler\n", file: "c.yaml")
        } throws: { error in
            guard case let ChainError.syntax(_, location) = error else { return false }
            return location?.file == "c.yaml" && (location?.line ?? 0) >= 2
        }
    }

    /// An element without an analyzer name (`:x`, `x:`, `:`) is an error naming it (it trapped).
    @Test func elementsWithoutAnAnalyzerNameAreErrors() {
        for pipeline in [":", ":tracker camera=cam0", "klt: camera=cam0", "doubler ! :x"] {
            #expect {
                _ = try Chain.parse(pipeline: pipeline)
            } throws: { error in
                guard case let ChainError.syntax(message, _) = error else { return false }
                return message.contains("expected an analyzer name")
            }
        }
        #expect((try? Chain.parse(pipeline: "doubler:twice"))?.nodes.first?.instanceName == "twice")
    }

    /// A key given twice is an error naming it, in a pipeline (options and ports) and in YAML:
    /// neither value may win in silence.
    @Test func keysGivenTwiceAreErrors() {
        for pipeline in ["doubler factor=2 factor=3", "doubler input=@cam0 input=@cam1", "doubler input=@cam0 input=2"] {
            #expect {
                _ = try Chain.parse(pipeline: pipeline)
            } throws: { error in
                guard case let ChainError.syntax(message, location) = error else { return false }
                return message.contains("given twice") && location?.column ?? 0 > 12
            }
        }
        let yaml = "analyzers:\n  - analyzer: doubler\n    options: {factor: 2, factor: 3}\n"
        #expect {
            _ = try Chain.parse(yaml: yaml, file: "c.yaml")
        } throws: { error in
            guard case let ChainError.syntax(message, location) = error else { return false }
            return message.contains("'factor'") && message.contains("twice") && location?.line == 3
        }
        // Keys Yams sees as different (an integer and a string) that name the same option, and a
        // port mapped in both `inputs` and `outputs`: Chain's own checks.
        for (text, line) in [("analyzers:\n  - analyzer: doubler\n    options: {1: 2, \"1\": 3}\n", 3),
                             ("analyzers:\n  - analyzer: doubler\n    inputs: {input: cam0}\n    outputs: {input: cam1}\n", 4)] {
            #expect {
                _ = try Chain.parse(yaml: text, file: "c.yaml")
            } throws: { error in
                guard case let ChainError.syntax(message, location) = error else { return false }
                return message.contains("twice") && location?.line == line
            }
        }
    }

    @Test func registryListsOptionsWithDefaultsAndDocs() throws {
        let entry = try #require(registry.entry("doubler"))
        #expect(entry.options.map(\.name) == ["fail_at", "input", "open_sleep_ms", "output", "sleep_ms"])
        #expect(entry.options.first { $0.name == "input" }?.defaultValue == "\"cam0\"")
        #expect(entry.options.first { $0.name == "fail_at" }?.documentation.contains("ns") == true)
        #expect(entry.defaultInputs.first?.stream == "cam0")
    }

    @Test func folderReferencesInOptionValuesResolveAfterParsing() throws {
        let chain = try Chain.parse(pipeline: "image-track reference=[@scene/a.png, @scene/b.png] width=0.4 ! klt camera=cam0 ! x path=@other/c.png")
        let resolved = try chain.resolvingReferences(["scene": "/tmp/my sim"])
        #expect(resolved.nodes[0].options["reference"] == "[/tmp/my sim/a.png, /tmp/my sim/b.png]")
        #expect(resolved.nodes[0].options["width"] == "0.4" && resolved.nodes[1].options["camera"] == "cam0")
        // A name it was not given stays as written: here a port remapped to stream `other/c.png`.
        #expect(resolved.nodes[2].remap["path"] == "other/c.png" && resolved.nodes[2].options["path"] == nil)
        // Alone, `@scene/FILE` is a file, not a stream.
        let alone = try Chain.parse(pipeline: "vio map=@scene/m.pxmap tracks=@cam0/tracks").resolvingReferences(["scene": "/s"])
        #expect(alone.nodes[0].options["map"] == "/s/m.pxmap" && alone.nodes[0].remap == ["tracks": "cam0/tracks"])
        // Without a scene (parallax run, not a bench case), @scene/ is refused saying where it
        // works; a chain without references is unchanged.
        #expect { _ = try chain.resolvingReferences([:]) } throws: { "\($0)".contains("known only in a bench suite's chain") }
        let plain = try Chain.parse(pipeline: "klt camera=cam0 ! vio map=m.pxmap")
        #expect(try plain.resolvingReferences([:]) == plain)
    }

    @Test func aFolderReferenceMayNotClimbOutOfItsFolder() throws {
        for text in ["image-track reference=[@scene/../../etc/passwd] width=0.4", "image-track reference=[@scene/a.png, @scene/x/../../b.png]",
                     "vio map=@scene/../m.pxmap"] {
            #expect(throws: ChainError.self, "\(text)") { _ = try Chain.parse(pipeline: text).resolvingReferences(["scene": "/s"]) }
        }
        // '..' in another path of the same list is not the reference's.
        let other = try Chain.parse(pipeline: "image-track reference=[@scene/a.png, /data/../b.png]").resolvingReferences(["scene": "/s"])
        #expect(other.nodes[0].options["reference"] == "[/s/a.png, /data/../b.png]")
    }

    @Test func aPipelineEndingInYAMLIsAPipelineUnlessItIsAFile() throws {
        let chain = try Chain.load("klt camera=cam0 ! vio map=place.yaml")
        #expect(chain.nodes.map(\.analyzer) == ["klt", "vio"])
        #expect(throws: ChainError.self) { _ = try Chain.load("/nonexistent/chain.yaml") }
    }
}
