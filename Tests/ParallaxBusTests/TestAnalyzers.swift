import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry

/// What `Recorder` saw at one trigger.
struct Record: Codable, Equatable, Sendable {
    var t: Int64
    var imu: [Int64]
    var depth: Int64?
}

/// Records, per camera frame, the IMU stamps between frames and the latest depth stamp — or,
/// with `look_ahead`, the IMU stamps through the first one after the frame
/// (`.between(through: .firstAfter)`) and the nearest depth stamp (`.nearest`).
struct Recorder: Analyzer {
    static let name = "recorder"
    static let summary = "test: records synchronized inputs"
    struct Options: AnalyzerOptions {
        var camera = "cam0"
        var toleranceMs = 100.0
        var lookAhead = false
        /// With `look_ahead`: the IMU window reaches this far past each frame (ns; `.ahead`).
        var leadNs: Int64 = 0
        init() {}
    }
    let frames: InputPort<Int>, imu: InputPort<Double>, depth: InputPort<Float>
    let out: OutputPort<Record>
    init(options: Options) {
        let tolerance = Int64(options.toleranceMs * 1e6)
        frames = .each(options.camera)
        imu = .between("imu0", through: options.lookAhead ? (options.leadNs > 0 ? .ahead(options.leadNs) : .firstAfter) : .trigger)
        depth = options.lookAhead ? .nearest("depth0", tolerance: tolerance) : .latest("depth0", tolerance: tolerance)
        out = OutputPort("\(options.camera)/record")
    }
    mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        // `latest` and `nearest` inputs are read alike.
        context.emit(Record(t: input.timestamp.nanoseconds, imu: input.between(imu).map(\.timestamp.nanoseconds),
                            depth: input.nearest(depth)?.timestamp.nanoseconds), on: out, at: input.timestamp)
    }

    /// A recorder with look-ahead inputs (the IMU's `lead` ns past each frame).
    static func lookingAhead(lead: Int64 = 0) -> Recorder {
        var options = Options()
        options.lookAhead = true
        options.leadNs = lead
        return Recorder(options: options)
    }
}

/// Doubles each integer it receives; optionally throws at one timestamp or sleeps.
struct Doubler: Analyzer {
    static let name = "doubler"
    static let summary = "test: doubles integers"
    struct Options: AnalyzerOptions {
        @Parameter("stream of Int") var input = "cam0"
        var output = "doubled"   // a plain field: still an option, without documentation
        @Parameter("timestamp (ns) at which to throw; -1 never", range: -1...Int64.max) var failAt: Int64 = -1
        @Parameter("sleep per packet (ms)", range: 0...10_000) var sleepMs = 0.0
        @Parameter("sleep in open (ms)", range: 0...10_000) var openSleepMs = 0.0
        init() {}
    }
    struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
    let input: InputPort<Int>, output: OutputPort<Int>
    let options: Options
    var closedCount = 0
    init(options: Options) {
        input = .each(options.input)
        output = OutputPort(options.output)
        self.options = options
    }
    mutating func open(context: inout AnalyzerContext) throws {
        if options.openSleepMs > 0 { Thread.sleep(forTimeInterval: options.openSleepMs / 1000) }
    }
    mutating func process(_ i: AnalyzerInput, context: inout AnalyzerContext) throws {
        if i.timestamp.nanoseconds == options.failAt { throw Boom() }
        if options.sleepMs > 0 { Thread.sleep(forTimeInterval: options.sleepMs / 1000) }
        context.emit(i.payload(input)! * 2, on: output, at: i.timestamp)
    }
    mutating func close(context: inout AnalyzerContext) throws {
        context.emit(-1, on: output, at: Timestamp(nanoseconds: .max))  // a flush marker
    }
}

/// Seeded multi-rate streams: IMU 200 Hz (Double), camera 20 Hz (Int), depth 5 Hz with jitter (Float).
enum MultiRate {
    static let cam = StreamKey<Int>("cam0"), imu = StreamKey<Double>("imu0"), depth = StreamKey<Float>("depth0")
    static let start: Int64 = 1_000_000_000

    static func sources(seconds: Double = 2, seed: UInt64 = 7) -> [any PacketSource] {
        var rng = SplitMix(seed: seed)
        let imuPackets = (0..<Int(seconds * 200)).map { Packet(Double($0), at: Timestamp(nanoseconds: start + Int64($0) * 5_000_000)) }
        let camPackets = (0..<Int(seconds * 20)).map { Packet($0, at: Timestamp(nanoseconds: start + Int64($0) * 50_000_000)) }
        let depthPackets = (0..<Int(seconds * 5)).map { k -> Packet<Float> in
            let jitter = Int64(rng.next() % 7_000_000) - 3_000_000
            return Packet(Float(k), at: Timestamp(nanoseconds: start + 10_000_000 + Int64(k) * 200_000_000 + jitter))
        }
        return [ArraySource(cam, camPackets), ArraySource(imu, imuPackets), ArraySource(depth, depthPackets)]
    }
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The timestamps (ns) of every packet of `source`.
func collectStamps(_ source: any PacketSource) throws -> [Int64] {
    var stamps: [Int64] = []
    while let p = try source.next() { stamps.append(p.timestamp.nanoseconds) }
    return stamps
}

func runCollecting(_ bus: FrameBus) throws -> (outputs: [AnyPacket], report: RunReport) {
    nonisolated(unsafe) var outputs: [AnyPacket] = []
    let report = try bus.run { _, p in outputs.append(p) }
    return (outputs, report)
}

/// Reads its input's metadata in `open`, passes it on with the focal length doubled (a 2×
/// upscaling stage would), and emits the focal length it read with every packet.
struct MetadataForwarder: Analyzer {
    static let name = "metadata-forwarder"
    static let summary = "test: reads and declares stream metadata"
    struct Options: AnalyzerOptions {
        var input = "cam0"
        var output = "cam0/scaled"
        /// Declare the output's metadata in `process` instead of `open` (an error).
        var describeLate = false
        init() {}
    }
    let input: InputPort<Int>, output: OutputPort<Int>
    let options: Options
    var focal = Double.nan
    init(options: Options) {
        input = .each(options.input)
        output = OutputPort(options.output)
        self.options = options
    }
    mutating func open(context: inout AnalyzerContext) throws {
        var camera = try context.cameraCalibration(of: input)
        focal = camera.model.intrinsics.fx
        camera.model.intrinsics.fx *= 2
        if !options.describeLate { context.describe(output, as: StreamMetadata(camera: camera)) }
    }
    mutating func process(_ i: AnalyzerInput, context: inout AnalyzerContext) throws {
        if options.describeLate { context.describe(output, as: .none) }
        context.emit(Int(focal), on: output, at: i.timestamp)
    }
}
