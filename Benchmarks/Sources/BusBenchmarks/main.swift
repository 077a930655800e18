// Frame-bus dispatch cost, release build:
//   swift run -c release --package-path Benchmarks bus-benchmarks
//
// 1. Pass-through: N packets through a chain of one analyzer that re-emits each packet;
//    per-packet time = wall time / N (source, merge, trigger, process, emit, sink).
// 2. Multi-analyzer: 10⁶ synthetic 200 Hz IMU packets + 20 Hz camera frames through
//    stream-stats (every IMU and frame packet), imu-integrator (IMU between frames) and a
//    pass-through on the IMU stream.
import Diagnostics
import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxMath

struct PassThrough: Analyzer {
    static let name = "pass-through"
    static let summary = "re-emits each packet"
    struct Options: AnalyzerOptions { var input = "imu0"; init() {} }
    let input: InputPort<IMUSample>, output: OutputPort<IMUSample>
    init(options: Options) { input = .each(options.input); output = OutputPort("\(options.input)/copy") }
    var inputs: [PortDescription] { [input.erased] }
    var outputs: [PortDescription] { [output.erased] }
    mutating func process(_ i: AnalyzerInput, context: inout AnalyzerContext) throws {
        context.emit(i.payload(input)!, on: output, at: i.timestamp)
    }
}

/// Synthetic IMU (200 Hz) and, optionally, tiny camera frames (20 Hz), generated on the fly.
final class SyntheticSource: PacketSource {
    let streams: [StreamDescription]
    let count: Int
    let withFrames: Bool
    var k = 0
    let frame = CameraFrame(cameraID: "cam0", image: ImageBuffer(width: 8, height: 8, repeating: 0))
    init(imuPackets: Int, withFrames: Bool) {
        count = imuPackets
        self.withFrames = withFrames
        streams = [StreamDescription(StreamKey<IMUSample>("imu0"))] + (withFrames ? [StreamDescription(StreamKey<CameraFrame>("cam0"))] : [])
    }
    var pendingFrame: AnyPacket?
    func next() throws -> AnyPacket? {
        if let f = pendingFrame { pendingFrame = nil; return f }
        guard k < count else { return nil }
        let t = Timestamp(nanoseconds: Int64(k) * 5_000_000)
        let sample = IMUSample(gyroscope: Vector3(0.01, 0.02, Double(k % 7) * 0.001), accelerometer: Vector3(0, 0, 9.81))
        if withFrames && k % 10 == 0 { pendingFrame = AnyPacket(stream: "cam0", timestamp: t, payload: frame) }
        k += 1
        return AnyPacket(stream: "imu0", timestamp: t, payload: sample)
    }
}

func time(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    return (ContinuousClock.now - start).seconds
}

let n = 1_000_000
var best = Double.infinity
for _ in 0..<3 {
    let bus = try FrameBus(sources: [SyntheticSource(imuPackets: n, withFrames: false)],
                           analyzers: [AnalyzerInstance(PassThrough(options: .init()))])
    var outputs = 0
    best = min(best, try time { try bus.run { _, _ in outputs += 1 } })
    precondition(outputs == n)
}
// Source alone, for the share of the total that is packet generation.
var sourceOnly = Double.infinity
for _ in 0..<3 {
    let s = SyntheticSource(imuPackets: n, withFrames: false)
    sourceOnly = min(sourceOnly, time { while (try? s.next()) != nil {} })
}
print("| benchmark | packets | wall | per packet |")
print("|---|---:|---:|---:|")
print(String(format: "| pass-through chain (1 analyzer, re-emits every packet) | %d | %.3f s | %.3f µs |", n, best, best / Double(n) * 1e6))
print(String(format: "| … of which the synthetic source itself | %d | %.3f s | %.3f µs |", n, sourceOnly, sourceOnly / Double(n) * 1e6))

var multiBest = Double.infinity
var report = RunReport()
for _ in 0..<3 {
    var stats = StreamStatsAnalyzer.Options(); stats.streams = ["imu0", "cam0"]
    let bus = try FrameBus(sources: [SyntheticSource(imuPackets: n, withFrames: true)],
                           analyzers: [AnalyzerInstance(try StreamStatsAnalyzer(options: stats)),
                                       AnalyzerInstance(try IMUIntegrator(options: .init())),
                                       AnalyzerInstance(PassThrough(options: .init()))])
    multiBest = min(multiBest, try time { report = try bus.run() })
}
let total = n + n / 10
print(String(format: "| stream-stats + imu-integrator + pass-through, 10⁶ IMU + 10⁵ frames | %d | %.3f s | %.3f µs |", total, multiBest, multiBest / Double(total) * 1e6))
print("")
print("Per-analyzer time in the multi-analyzer run (from the run report):")
for a in report.analyzers {
    print(String(format: "- %@: %d calls, p50 %.2f µs, p95 %.2f µs, total %.0f ms", a.instance, a.calls, a.p50Milliseconds * 1000, a.p95Milliseconds * 1000, a.totalMilliseconds))
}
print(String(format: "- dataset %.0f s replayed at %.0f× real time, peak memory %.0f MB", report.datasetSeconds, report.realtimeFactor, report.peakMemoryMegabytes))
