import Foundation
import Testing
import ParallaxTesting
@testable import ParallaxBus
import ParallaxOptions
import ParallaxPayloads

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
