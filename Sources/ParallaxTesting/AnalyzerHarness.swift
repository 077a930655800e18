import Foundation
import ParallaxCore

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

    /// A harness building a fresh analyzer for every run.
    public init<A: Analyzer>(_ make: @escaping () throws -> A) {
        self.make = { AnalyzerInstance(try make()) }
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

    /// What one run produced.
    public struct Result {
        /// Every output packet in emission order.
        public let outputs: [AnyPacket]
        /// The bus report.
        public let report: RunReport
        /// The error that stopped the run, if any (outputs up to it are still above).
        public let failure: BusError?

        /// Typed packets of one output stream.
        public func packets<P>(on stream: String, as _: P.Type = P.self) -> [Packet<P>] {
            outputs.filter { $0.stream == stream }.compactMap { $0.typed(as: P.self) }
        }
    }

    /// Runs the queued packets through a fresh analyzer. `prefetch` reads the input on a second
    /// thread; `oneAtATime` hands packets to the bus through a source that yields them one by
    /// one (versus all at once): neither may change the result.
    public func run(prefetch: Bool = false, oneAtATime: Bool = false) throws -> Result {
        let declared = streamOrder.map { streams[$0]! }
        let source: any PacketSource = oneAtATime
            ? IncrementalSource(streams: declared, packets: ArraySource(streams: declared, packets: packets))
            : ArraySource(streams: declared, packets: packets)
        let bus = try FrameBus(sources: [source], analyzers: [try make()], options: .init(mode: .offline, prefetch: prefetch))
        nonisolated(unsafe) var outputs: [AnyPacket] = []
        do {
            let report = try bus.run { _, packet in outputs.append(packet) }
            return Result(outputs: outputs, report: report, failure: nil)
        } catch let failure as FrameBusFailure {
            return Result(outputs: outputs, report: failure.report, failure: failure.error)
        }
    }
}

/// A source that forwards another one packet per call (no look-ahead), to check that an
/// analyzer's results do not depend on how packets are batched.
final class IncrementalSource: PacketSource {
    let streams: [StreamDescription]
    private let inner: any PacketSource
    init(streams: [StreamDescription], packets: any PacketSource) { self.streams = streams; inner = packets }
    func next() throws -> AnyPacket? { try inner.next() }
}
