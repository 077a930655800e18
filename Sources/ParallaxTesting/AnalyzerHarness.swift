import Foundation
import ParallaxBus
import ParallaxPayloads
/// Runs one analyzer on packets you push, deterministically, and returns what it emitted:
/// the embedded bus for plugin tests (like swift-nio's `EmbeddedChannel`).
///
/// ```swift
/// var harness = AnalyzerHarness { IMUIntegrator(options: .init()) }
/// harness.push(frame, on: StreamKey<CameraFrame>("cam0"), at: Timestamp(nanoseconds: 0))
/// harness.push(sample, on: StreamKey<IMUSample>("imu0"), at: Timestamp(nanoseconds: 5_000_000))
/// let result = try harness.run()
/// let rotations: [Packet<FrameRotation>] = result.packets(on: "cam0/gyro-rotation")
/// ```
public struct AnalyzerHarness {
    private let make: () throws -> AnalyzerInstance
    private var streams: [String: StreamDescription] = [:]
    private var streamOrder: [String] = []
    private var packets: [AnyPacket] = []

    /// A harness building a fresh analyzer for every run. Its options are all taken as given:
    /// none follows the data (``Analyzer/optionsFromData``); test that with
    /// ``init(_:options:registry:)``.
    public init<A: Analyzer>(_ make: @escaping () throws -> A) {
        self.make = { AnalyzerInstance(try make()) }
    }

    /// A harness building `analyzer` from `registry` with `options` as a chain gives them
    /// (`["window": "15"]`): the options not given may follow the inputs' metadata, as in a run.
    public init(_ analyzer: String, options: [String: String] = [:], registry: AnalyzerRegistry) {
        self.make = { try registry.make(analyzer, options: options) }
    }

    /// Queues a packet on a typed stream (declared on first use).
    public mutating func push<P: Sendable>(_ payload: P, on key: StreamKey<P>, at timestamp: Timestamp) {
        if streams[key.name] == nil { streams[key.name] = StreamDescription(key); streamOrder.append(key.name) }
        packets.append(AnyPacket(stream: key.name, timestamp: timestamp, payload: payload))
    }

    /// Declares a stream without packets (an empty input stream).
    public mutating func declare<P: Sendable>(_ key: StreamKey<P>) {
        if streams[key.name] == nil { streams[key.name] = StreamDescription(key); streamOrder.append(key.name) }
    }

    /// Gives a stream its metadata (camera or IMU calibration, …), as a dataset reader would;
    /// the analyzer reads it in `open`. Declares the stream if needed.
    public mutating func describe<P: Sendable>(_ key: StreamKey<P>, as metadata: StreamMetadata) {
        declare(key)
        streams[key.name]?.metadata = metadata
    }

    /// What one run produced.
    public struct Result {
        /// Every output packet in emission order.
        public let outputs: [AnyPacket]
        /// The bus report.
        public let report: RunReport
        /// The error that stopped the run, if any (outputs up to it are still above).
        public let failure: BusError?
        /// Every stream's metadata after the run (what the analyzer described its outputs with).
        public let metadata: [String: StreamMetadata]

        /// Typed packets of one output stream.
        public func packets<P>(on stream: String, as _: P.Type = P.self) -> [Packet<P>] {
            outputs.filter { $0.stream == stream }.compactMap { $0.typed(as: P.self) }
        }
    }

    /// Runs the queued packets through a fresh analyzer. `prefetch` reads the input on worker
    /// threads; `sourcePerStream` hands each stream to the bus as its own source (the bus then
    /// merges them) instead of one merged source: neither may change the result.
    public func run(prefetch: Bool = false, sourcePerStream: Bool = false) throws -> Result {
        let declared = streamOrder.compactMap { streams[$0] }
        let sources: [any PacketSource] = sourcePerStream
            ? declared.map { d in ArraySource(streams: [d], packets: packets.filter { $0.stream == d.name }) }
            : [ArraySource(streams: declared, packets: packets)]
        let bus = try FrameBus(sources: sources, analyzers: [try make()], options: .init(mode: .offline, prefetch: prefetch))
        var outputs: [AnyPacket] = []
        do {
            let report = try bus.run { _, packet in outputs.append(packet) }
            return Result(outputs: outputs, report: report, failure: nil, metadata: bus.streamMetadata)
        } catch let failure as FrameBusFailure {
            return Result(outputs: outputs, report: failure.report, failure: failure.error, metadata: bus.streamMetadata)
        }
    }
}
