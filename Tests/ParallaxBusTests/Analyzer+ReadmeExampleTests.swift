import Foundation
import Testing
import ParallaxTesting
import ParallaxBus
import ParallaxPayloads
// The README's minimal analyzer, verbatim: it must compile and work.

/// Counts IMU samples between consecutive camera frames.
struct IMUPerFrame: Analyzer {
    static let name = "imu-per-frame"
    static let summary = "Number of IMU samples between consecutive camera frames"
    typealias Options = NoOptions
    let frames = InputPort<CameraFrame>.each("cam0")
    let imu = InputPort<IMUSample>.between("imu0")
    let count = OutputPort<Int>("cam0/imu-count")
    init(options: Options) {}
    mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        context.emit(input.between(imu).count, on: count, at: input.timestamp)
    }
}

@Suite struct ReadmeAnalyzerTests {
    /// The analyzer above is the README's, character for character.
    @Test func isTheREADMEs() throws {
        let here = URL(fileURLWithPath: #filePath)
        let readme = try String(contentsOf: here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md"), encoding: .utf8)
        let test = try String(contentsOf: here, encoding: .utf8)
        func block(_ text: String) -> String? {
            guard let start = text.range(of: "/// Counts IMU samples between consecutive camera frames.\nstruct IMUPerFrame"),
                  let end = text.range(of: "\n}\n", range: start.upperBound..<text.endIndex) else { return nil }
            return String(text[start.lowerBound..<end.upperBound])
        }
        let inReadme = try #require(block(readme)), inTest = try #require(block(test))
        #expect(inReadme == inTest)
    }

    @Test func countsAndRemaps() throws {
        var registry = AnalyzerRegistry()
        registry.register(IMUPerFrame.self)
        let entry = try #require(registry.entry("imu-per-frame"))
        #expect(entry.defaultInputs.map(\.name) == ["frames", "imu"] && entry.defaultOutputs.map(\.name) == ["count"])
        let frame = CameraFrame(cameraID: "cam1", image: ImageBuffer(width: 1, height: 1, repeating: 0))
        let sample = IMUSample(gyroscope: .zero, accelerometer: .zero)
        var packets: [AnyPacket] = []
        for k in 0..<3 { packets.append(AnyPacket(stream: "cam1", timestamp: Timestamp(nanoseconds: Int64(k) * 50), payload: frame)) }
        for k in 0..<10 { packets.append(AnyPacket(stream: "imu0", timestamp: Timestamp(nanoseconds: Int64(k) * 10 + 5), payload: sample)) }
        let source = ArraySource(streams: [StreamDescription(StreamKey<CameraFrame>("cam1")), StreamDescription(StreamKey<IMUSample>("imu0"))],
                                 packets: packets)
        let chain = try Chain.parse(pipeline: "imu-per-frame frames=@cam1 count=@cam1/imu-count")
        let bus = try FrameBus(sources: [source], analyzers: try chain.instantiate(registry: registry, sourceStreams: source.streams))
        let out = try runCollecting(bus).outputs
        #expect(out.map(\.stream) == ["cam1/imu-count", "cam1/imu-count", "cam1/imu-count"])
        #expect(out.compactMap { $0.payload as? Int } == [0, 5, 5])
    }
}
