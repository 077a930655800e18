import Foundation
import Testing
import ParallaxTesting
@testable import ParallaxBus
import ParallaxPayloads
/// `.between(through: .firstAfter)` and `.nearest`: triggers wait for the stream to pass them.
@Suite struct LookAheadSyncTests {
    func records(prefetch: Bool, sourcePerStream: Bool, seconds: Double = 2) throws -> [Record] {
        var harness = AnalyzerHarness { Recorder.lookingAhead() }
        for source in MultiRate.sources(seconds: seconds) {
            while let p = try source.next() {
                switch p.payload {
                case let v as Int: harness.push(v, on: MultiRate.cam, at: p.timestamp)
                case let v as Double: harness.push(v, on: MultiRate.imu, at: p.timestamp)
                case let v as Float: harness.push(v, on: MultiRate.depth, at: p.timestamp)
                default: Issue.record("unexpected payload")
                }
            }
        }
        let result = try harness.run(prefetch: prefetch, sourcePerStream: sourcePerStream)
        #expect(result.failure == nil)
        return result.packets(on: "cam0/record", as: Record.self).map(\.payload)
    }

    @Test func firstAfterDeliversTheFirstSampleAfterTheFrameAndNearestPicksTheCloserDepth() throws {
        let imu = try collectStamps(MultiRate.sources()[1])
        let depth = try collectStamps(MultiRate.sources()[2])
        let got = try records(prefetch: false, sourcePerStream: false)
        #expect(got.count == 40)
        var previous: Int64?
        for r in got {
            // (previous frame, this frame] and the first sample after this frame.
            var expected = imu.filter { (previous == nil || $0 > previous!) && $0 <= r.t }
            if let after = imu.first(where: { $0 > r.t }) { expected.append(after) }
            #expect(r.imu == expected, "frame \(r.t)")
            if let after = imu.first(where: { $0 > r.t }) { #expect(r.imu.last == after && after > r.t) }
            // The nearer of the depth maps before and after, within 100 ms (the earlier on a tie).
            let before = depth.last { $0 <= r.t }, after = depth.first { $0 > r.t }
            var want = before.flatMap { r.t - $0 <= 100_000_000 ? $0 : nil }
            if let a = after, a - r.t <= 100_000_000, want.map({ a - r.t < r.t - $0 }) ?? true { want = a }
            #expect(r.depth == want, "frame \(r.t)")
            previous = r.t
        }
        // Some frames take a depth map from the future: the look-ahead is used.
        #expect(got.contains { r in r.depth.map { $0 > r.t } ?? false })
    }

    @Test func aTriggerWaitingForAStreamThatEndedRunsWithWhatThereIs() throws {
        // IMU stops at 20 ns; frames at 10, 30 and 40 ns. Frame 10 gets 5, 10 and 15 (the first
        // after); frames 30 and 40 wait for a sample that never comes and run when the IMU's
        // source ends (not at the end of the run), with what there is.
        var harness = AnalyzerHarness { Recorder.lookingAhead() }
        for t: Int64 in [10, 30, 40] { harness.push(Int(t), on: MultiRate.cam, at: Timestamp(nanoseconds: t)) }
        for t: Int64 in [5, 10, 15, 20] { harness.push(Double(t), on: MultiRate.imu, at: Timestamp(nanoseconds: t)) }
        harness.declare(MultiRate.depth)
        let records = try harness.run(sourcePerStream: true).packets(on: "cam0/record", as: Record.self).map(\.payload)
        #expect(records.map(\.imu) == [[5, 10, 15], [15, 20], []])
    }

    @Test func aLeadReachesThatFarPastEachTriggerAndTheFirstSampleBeyond() throws {
        // IMU every 5 ns, frames at 10, 30 and 40 ns, the window 12 ns ahead: frame 10 gets up to
        // 22 and 25 (the first beyond), frame 30 (22, 42] and 45, frame 40 (42, 52] and 55; the
        // sample beyond comes again in the next call, as with `.firstAfter`.
        var harness = AnalyzerHarness { Recorder.lookingAhead(lead: 12) }
        for t: Int64 in [10, 30, 40] { harness.push(Int(t), on: MultiRate.cam, at: Timestamp(nanoseconds: t)) }
        for t in stride(from: Int64(5), through: 80, by: 5) { harness.push(Double(t), on: MultiRate.imu, at: Timestamp(nanoseconds: t)) }
        harness.declare(MultiRate.depth)
        let records = try harness.run(sourcePerStream: true).packets(on: "cam0/record", as: Record.self).map(\.payload)
        #expect(records.map(\.imu) == [[5, 10, 15, 20, 25], [25, 30, 35, 40, 45], [45, 50, 55]])
        #expect(SyncPolicy.BetweenEnd.ahead(0).lead == SyncPolicy.BetweenEnd.firstAfter.lead)
        #expect(SyncPolicy.BetweenEnd.trigger.lead == nil)
    }

    @Test func nearestPicksTheCloserOfTwoDepthMaps() throws {
        // Frame at 100 ms, depth at 60 ms and 130 ms: 130 is closer (30 < 40) although it is later.
        var harness = AnalyzerHarness { Recorder.lookingAhead() }
        harness.push(0, on: MultiRate.cam, at: Timestamp(nanoseconds: 100_000_000))
        harness.push(1, on: MultiRate.cam, at: Timestamp(nanoseconds: 300_000_000))
        harness.push(0, on: MultiRate.depth, at: Timestamp(nanoseconds: 60_000_000))
        harness.push(1, on: MultiRate.depth, at: Timestamp(nanoseconds: 130_000_000))
        harness.push(2, on: MultiRate.depth, at: Timestamp(nanoseconds: 600_000_000))
        harness.declare(MultiRate.imu)  // empty: its source ends at once, so nothing waits for it
        let result = try harness.run(sourcePerStream: true)
        let records = result.packets(on: "cam0/record", as: Record.self).map(\.payload)
        // The second frame's nearest (130 ms, 170 ms away) is beyond the 100 ms tolerance: absent.
        #expect(records.map(\.depth) == [130_000_000, nil])
        // The first frame waited for the depth map after it (30 ms of dataset time); the second
        // waited until the stream passed 300 + 100 ms.
        let timing = try #require(result.report.analyzers.first)
        #expect(timing.lookAheadMaxMilliseconds == 300 && timing.lookAheadP50Milliseconds == 300)
    }

    @Test func threadedAndSingleThreadedRunsAgree() throws {
        let reference = try records(prefetch: false, sourcePerStream: false)
        #expect(try records(prefetch: true, sourcePerStream: false) == reference)
        #expect(try records(prefetch: true, sourcePerStream: true) == reference)
        #expect(try records(prefetch: false, sourcePerStream: true) == reference)
    }

    @Test func anAnalyzerWithoutLookAheadReportsNoLookAheadLatency() throws {
        let bus = try FrameBus(sources: MultiRate.sources(), analyzers: [AnalyzerInstance(Recorder(options: .init()))])
        let (_, report) = try runCollecting(bus)
        #expect(report.analyzers.first?.lookAheadMaxMilliseconds == nil)
    }
}
