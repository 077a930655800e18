// Dataset throughput: where the time goes when a chain runs over real EuRoC frames.
//   swift run -c release --package-path Benchmarks dataset-throughput [DATASET]   (a folder, a bag, a video: any format)
// Default folder: ../shared/data/euroc/MH_01_easy_20s (400 frames 752×480 + 200 Hz IMU).
//
// 1. decode only: the reader alone, one thread (every PNG decoded, no bus);
// 2. bus, one thread: the same packets through a pass-through chain (stream-stats on every
//    packet), decoding on the bus thread;
// 3. bus + prefetch: decoding on worker threads (both cores), reassembled in order.
import Diagnostics
import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxDatasets

let folder = CommandLine.arguments.dropFirst().first
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../../shared/data/euroc/MH_01_easy_20s").standardized.path
guard FileManager.default.fileExists(atPath: folder) else {
    print("dataset not found: \(folder)"); exit(2)
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    return (ContinuousClock.now - start).seconds
}

func chain() throws -> [AnalyzerInstance] {
    var o = StreamStatsAnalyzer.Options()
    o.streams = ["cam0", "imu0"]
    return [AnalyzerInstance(try StreamStatsAnalyzer(options: o))]
}

var frames = 0
var decode = Double.infinity, single = Double.infinity, prefetch = Double.infinity
var report = RunReport()
for _ in 0..<3 {
    decode = min(decode, try seconds {
        let s = try DatasetFolder.open(folder)
        frames = 0
        while let p = try s.next() { if p.payload is CameraFrame { frames += 1 } }
    })
    single = min(single, try seconds {
        _ = try FrameBus(sources: [try DatasetFolder.open(folder)], analyzers: chain()).run()
    })
    prefetch = min(prefetch, try seconds {
        report = try FrameBus(sources: [try DatasetFolder.open(folder)], analyzers: chain(), options: .init(prefetch: true)).run()
    })
}
let f = Double(frames)
print("| configuration | wall (best of 3) | frames/s | vs decode only |")
print("|---|---:|---:|---:|")
print(String(format: "| decode only, one thread | %.3f s | %.0f | 1.00× |", decode, f / decode))
print(String(format: "| bus, one thread | %.3f s | %.0f | %.2f× |", single, f / single, decode / single))
print(String(format: "| bus + prefetch (%d decode workers) | %.3f s | %.0f | %.2f× |", ProcessInfo.processInfo.activeProcessorCount, prefetch, f / prefetch, decode / prefetch))
print("")
print(String(format: "%d frames; bus overhead (one thread − decode only) %.1f ms per frame; dataset %.1f s replayed at %.0f× real time; peak memory %.0f MB",
             frames, (single - decode) / f * 1000, report.datasetSeconds, report.realtimeFactor, report.peakMemoryMegabytes))
