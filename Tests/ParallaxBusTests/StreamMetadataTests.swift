import Foundation
import Testing
import ParallaxGeometry
import ParallaxMath
import ParallaxTesting
@testable import ParallaxBus
@testable import ParallaxPayloads
/// Stream metadata: sources describe their streams once; analyzers read it in `open` and
/// declare their outputs'.
@Suite struct StreamMetadataTests {
    static let camera = CameraCalibration(model: CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 400, fy: 410, cx: 320, cy: 240)),
                                          bodyFromSensor: SE3(translation: Vector3(0.1, 0, 0)))

    func source() -> ArraySource {
        ArraySource(streams: [StreamDescription(MultiRate.cam, metadata: StreamMetadata(camera: Self.camera))],
                    packets: (0..<3).map { AnyPacket(stream: "cam0", timestamp: Timestamp(nanoseconds: Int64($0)), payload: $0) })
    }

    @Test func analyzersReadTheirInputsMetadataAndDeclareTheirOutputs() throws {
        var second = MetadataForwarder.Options()
        second.input = "cam0/scaled"
        second.output = "cam0/scaled2"
        // Chain order reversed on purpose: the bus opens producers first, so the consumer sees
        // what its producer declared.
        let bus = try FrameBus(sources: [source()], analyzers: [AnalyzerInstance(try MetadataForwarder(options: second), name: "b"),
                                                                 AnalyzerInstance(try MetadataForwarder(options: .init()), name: "a")])
        let (outputs, _) = try runCollecting(bus)
        #expect(outputs.filter { $0.stream == "cam0/scaled" }.map { $0.payload as? Int } == [400, 400, 400])
        #expect(outputs.filter { $0.stream == "cam0/scaled2" }.map { $0.payload as? Int } == [800, 800, 800])
        #expect(bus.streamMetadata["cam0/scaled2"]?.camera?.model.intrinsics.fx == 1600)
        #expect(bus.streamMetadata["cam0"]?.camera == Self.camera)
    }

    @Test func aMissingCalibrationIsAnErrorNamingTheStream() throws {
        let bare = ArraySource(MultiRate.cam, [Packet(0, at: Timestamp(nanoseconds: 0))])
        let bus = try FrameBus(sources: [bare], analyzers: [AnalyzerInstance(try MetadataForwarder(options: .init()))])
        #expect { try bus.run() } throws: { error in
            let text = "\(error)"
            return text.contains("'cam0' has no camera calibration") && text.contains("metadata-forwarder") && text.contains("open")
        }
    }

    @Test func describingAnOutputAfterOpenIsAnError() throws {
        var options = MetadataForwarder.Options()
        options.describeLate = true
        let bus = try FrameBus(sources: [source()], analyzers: [AnalyzerInstance(try MetadataForwarder(options: options))])
        #expect { try bus.run() } throws: { ($0 as? FrameBusFailure)?.error == .metadataAfterOpen(analyzer: "metadata-forwarder", stream: "cam0/scaled") }
    }

    @Test func theHarnessDescribesStreams() throws {
        var harness = AnalyzerHarness { try MetadataForwarder(options: .init()) }
        harness.describe(MultiRate.cam, as: StreamMetadata(camera: Self.camera))
        harness.push(7, on: MultiRate.cam, at: Timestamp(nanoseconds: 5))
        #expect(try harness.run().packets(on: "cam0/scaled", as: Int.self).map(\.payload) == [400])
    }

    @Test func stereoPairsComeFromTheTwoBodyFromSensorTransforms() {
        var right = Self.camera
        right.bodyFromSensor = SE3(translation: Vector3(0.1, -0.11, 0))
        let pairs = StereoPartner.pairs(["cam1": right, "cam0": Self.camera])
        #expect(pairs["cam0"]?.stream == "cam1" && pairs["cam1"]?.stream == "cam0")
        // A point 1 m in front of cam0 is at y + 0.11 in cam1's frame.
        let p = pairs["cam0"]!.partnerFromThis * Vector3(0, 0, 1)
        #expect(abs(p.y - 0.11) < 1e-12 && abs(p.x) < 1e-12)
        #expect(StereoPartner.pairs(["cam0": Self.camera]).isEmpty)
    }

    /// A kind of description the bus has never heard of, declared here as a plugin would.
    enum LensTemperatureKey: StreamMetadataKey { typealias Value = Double }

    /// Reads its input's lens temperature in `open` and emits it with every packet.
    struct LensTemperatureReader: Analyzer {
        static let name = "lens-temperature-reader"
        static let summary = "test: reads a metadata part the bus does not know"
        typealias Options = NoOptions
        let input = InputPort<Int>.each("cam0")
        let output = OutputPort<Double>("cam0/lens-temperature")
        var celsius = Double.nan
        init(options: Options) {}
        mutating func open(context: inout AnalyzerContext) throws {
            celsius = context.metadata(of: input)[LensTemperatureKey.self] ?? .nan
        }
        mutating func process(_ i: AnalyzerInput, context: inout AnalyzerContext) throws {
            context.emit(celsius, on: output, at: i.timestamp)
        }
    }

    @Test func aPluginsOwnMetadataTravelsFromTheSourceToTheAnalyzer() throws {
        var metadata = StreamMetadata(camera: Self.camera)
        metadata[LensTemperatureKey.self] = 41.5
        let source = ArraySource(streams: [StreamDescription(MultiRate.cam, metadata: metadata)],
                                 packets: (0..<2).map { AnyPacket(stream: "cam0", timestamp: Timestamp(nanoseconds: Int64($0)), payload: $0) })
        let bus = try FrameBus(sources: [source], analyzers: [AnalyzerInstance(LensTemperatureReader(options: .init()))])
        let (outputs, _) = try runCollecting(bus)
        #expect(outputs.map { $0.payload as? Double } == [41.5, 41.5])
        #expect(bus.streamMetadata["cam0"]?[LensTemperatureKey.self] == 41.5)
        #expect(bus.streamMetadata["cam0"]?.camera == Self.camera)
    }

    @Test func metadataComparesPartByPart() {
        var a = StreamMetadata.none
        #expect(a.isEmpty && a == .none)
        a[LensTemperatureKey.self] = 20
        var b = StreamMetadata(camera: Self.camera)
        #expect(a != b && !a.isEmpty)
        b.camera = nil
        #expect(b.isEmpty)
        b[LensTemperatureKey.self] = 20
        #expect(a == b)
        b[LensTemperatureKey.self] = 21
        #expect(a != b)
        b[LensTemperatureKey.self] = nil
        #expect(b == .none && b[LensTemperatureKey.self] == nil)
        // Parts of different keys never compare equal, even holding equal values.
        var c = StreamMetadata.none
        c[OtherKey.self] = 20
        #expect(c != a)
    }

    enum OtherKey: StreamMetadataKey { typealias Value = Double }
}
