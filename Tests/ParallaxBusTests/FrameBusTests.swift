import Foundation
import Testing
import ParallaxTesting
@testable import ParallaxBus
import ParallaxPayloads
@Suite struct FrameBusTests {
    @Test func multiRatePoliciesDeliverExactlyTheDocumentedPackets() throws {
        let sources = MultiRate.sources()
        let depthStamps = try collectStamps(MultiRate.sources()[2])
        let bus = try FrameBus(sources: sources, analyzers: [AnalyzerInstance(Recorder(options: .init()))])
        let (outputs, report) = try runCollecting(bus)
        let records = outputs.compactMap { $0.payload as? Record }
        #expect(records.count == 40)
        var previous: Int64?
        for r in records {
            // between: IMU stamps in (previous frame, this frame]; the first frame gets all up to it.
            let expected = stride(from: MultiRate.start, through: r.t, by: 5_000_000).filter { previous == nil || $0 > previous! }
            #expect(r.imu == Array(expected), "frame \(r.t)")
            // latest: newest depth ≤ t within 100 ms, else nil.
            let candidate = depthStamps.last { $0 <= r.t }
            let want = candidate.flatMap { r.t - $0 <= 100_000_000 ? $0 : nil }
            #expect(r.depth == want, "frame \(r.t)")
            previous = r.t
        }
        #expect(records.contains { $0.depth == nil } && records.contains { $0.depth != nil })
        #expect(report.streams.first { $0.stream == "imu0" }?.packets == 400)
        #expect(report.analyzers.first?.calls == 40)
    }

    @Test(arguments: [false, true])
    func equalTimestampsAreDeliveredBeforeTriggering(imuFirst: Bool) throws {
        // Camera and IMU share stamps; whatever the source order, the frame sees the IMU sample at its own time.
        let cam = ArraySource(MultiRate.cam, [Packet(0, at: Timestamp(nanoseconds: 10)), Packet(1, at: Timestamp(nanoseconds: 20))])
        let imu = ArraySource(MultiRate.imu, (1...4).map { Packet(Double($0), at: Timestamp(nanoseconds: Int64($0) * 5)) })
        let depth = ArraySource(MultiRate.depth, [])
        let sources: [any PacketSource] = imuFirst ? [imu, cam, depth] : [cam, imu, depth]
        let (outputs, _) = try runCollecting(try FrameBus(sources: sources, analyzers: [AnalyzerInstance(Recorder(options: .init()))]))
        let records = outputs.compactMap { $0.payload as? Record }
        #expect(records.map(\.imu) == [[5, 10], [15, 20]])
        #expect(records.allSatisfy { $0.depth == nil })  // empty stream: absent, no crash
    }

    @Test func analyzerOutputsFeedDownstreamAnalyzersInOrder() throws {
        var first = Doubler.Options(); first.output = "x2"
        var second = Doubler.Options(); second.input = "x2"; second.output = "x4"
        // Declared consumer-first: the bus must still run the producer first.
        let bus = try FrameBus(sources: [ArraySource(MultiRate.cam, (1...3).map { Packet($0, at: Timestamp(nanoseconds: Int64($0))) })],
                               analyzers: [AnalyzerInstance(Doubler(options: second), name: "b"), AnalyzerInstance(Doubler(options: first), name: "a")])
        let (outputs, _) = try runCollecting(bus)
        let x4 = outputs.filter { $0.stream == "x4" }.compactMap { $0.payload as? Int }
        #expect(x4 == [4, 8, 12, -2, -1])  // −2: a's close marker doubled; −1: b's own close marker
    }

    @Test func throwingAnalyzerNamesItselfAndFlushesTheOthers() throws {
        var failing = Doubler.Options(); failing.output = "bad"; failing.failAt = MultiRate.start + 100_000_000
        let bus = try FrameBus(sources: MultiRate.sources(),
                               analyzers: [AnalyzerInstance(Recorder(options: .init())), AnalyzerInstance(Doubler(options: failing), name: "fragile")])
        nonisolated(unsafe) var outputs: [AnyPacket] = []
        #expect {
            try bus.run { _, p in outputs.append(p) }
        } throws: { error in
            guard let failure = error as? FrameBusFailure,
                  case let .analyzerFailed(name, phase, stream, timestamp, message, badInput) = failure.error else { return false }
            return name == "fragile" && phase == "process" && stream == "cam0" && timestamp?.nanoseconds == MultiRate.start + 100_000_000
                && message == "boom" && !badInput && !failure.error.isBadInput && failure.report.failure != nil
                && failure.description.contains("'fragile'") && failure.description.contains("cam0")
        }
        // The recorder ran up to and including the failing timestamp; both analyzers were closed.
        #expect(outputs.filter { $0.stream == "cam0/record" }.count == 3)
        #expect(outputs.filter { $0.stream == "bad" }.compactMap { $0.payload as? Int } == [0, 2, -1])
    }

    @Test func prefetchedAndSingleThreadedRunsWriteByteIdenticalFiles() throws {
        func write(prefetch: Bool) throws -> Data {
            let bus = try FrameBus(sources: MultiRate.sources(seconds: 5), analyzers: [AnalyzerInstance(Recorder(options: .init()))],
                                   options: .init(prefetch: prefetch))
            let (outputs, _) = try runCollecting(bus)
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-det-\(prefetch)-\(UUID()).jsonl")
            try AnalyzerVerifier.fingerprint(outputs).joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: url) }
            return try Data(contentsOf: url)
        }
        let single = try write(prefetch: false)
        #expect(single.count > 1000)
        #expect(single == (try write(prefetch: true)))
    }

    @Test func realtimeModeDropsWhenBehindAndOfflineNeverDoes() throws {
        var slow = Doubler.Options(); slow.sleepMs = 25  // 25 ms of work on a 100 Hz stream
        let packets = (0..<30).map { Packet($0, at: Timestamp(nanoseconds: Int64($0) * 10_000_000)) }
        let realtime = try FrameBus(sources: [ArraySource(MultiRate.cam, packets)], analyzers: [AnalyzerInstance(Doubler(options: slow))],
                                    options: .init(mode: .realtime))
        let (rtOut, rtReport) = try runCollecting(realtime)
        let drops = rtReport.skipped.reduce(0) { $0 + $1.count }
        #expect(drops > 0)
        #expect(rtOut.count - 1 + drops == 30)  // every packet is either processed or counted as dropped
        #expect(rtReport.skipped.first?.reason.contains("realtime") == true)
        // An analyzer that keeps up loses at most a trigger or two to a scheduling hiccup (a due
        // trigger used to count as its own newer one, so every one was dropped).
        let fast = try FrameBus(sources: [ArraySource(MultiRate.cam, packets)], analyzers: [AnalyzerInstance(Doubler(options: .init()))],
                                options: .init(mode: .realtime))
        let (fastOut, fastReport) = try runCollecting(fast)
        let fastDrops = fastReport.skipped.reduce(0) { $0 + $1.count }
        #expect(fastDrops * 2 < 30 && fastOut.count - 1 + fastDrops == 30, "\(fastReport.skipped)")
        slow.sleepMs = 1
        let offline = try FrameBus(sources: [ArraySource(MultiRate.cam, packets)], analyzers: [AnalyzerInstance(Doubler(options: slow))])
        let (offOut, offReport) = try runCollecting(offline)
        #expect(offOut.count == 31 && offReport.skipped.isEmpty)
    }

    /// An input reaching further past each trigger than the triggers are apart (vio's IMU, 100 ms
    /// ahead of 20 Hz frames): in real time a trigger waits for its look-ahead, and the next one
    /// is not due before its own is, so nothing is dropped (every frame was).
    @Test func realtimeWaitsForALeadLongerThanTheTriggerInterval() throws {
        let sources = MultiRate.sources(seconds: 1)
        let bus = try FrameBus(sources: sources, analyzers: [AnalyzerInstance(Recorder.lookingAhead(lead: 120_000_000))],
                               options: .init(mode: .realtime))
        let (out, report) = try runCollecting(bus)
        let drops = report.skipped.reduce(0) { $0 + $1.count }
        #expect(drops * 4 < 20, "\(report.skipped)")
        #expect(out.filter { $0.stream == "cam0/record" }.count + drops == 20)
    }

    /// The replay's clock starts once the analyzers are open: a slow start (a Python worker, a
    /// model loading) is not time the data had, and drops nothing (it dropped every packet
    /// that fell due while it lasted).
    @Test func realtimeReplayStartsAfterTheAnalyzersOpen() throws {
        var slowStart = Doubler.Options(); slowStart.openSleepMs = 400
        let packets = (0..<30).map { Packet($0, at: Timestamp(nanoseconds: Int64($0) * 10_000_000)) }
        let bus = try FrameBus(sources: [ArraySource(MultiRate.cam, packets)], analyzers: [AnalyzerInstance(Doubler(options: slowStart))],
                               options: .init(mode: .realtime))
        let (out, report) = try runCollecting(bus)
        let drops = report.skipped.reduce(0) { $0 + $1.count }
        #expect(drops * 3 < 30 && out.count - 1 + drops == 30, "\(report.skipped)")
        #expect(report.wallSeconds >= 0.4)
    }

    /// A source slower than real time keeps the bus behind schedule for the whole run: it reads
    /// due packets ahead of analysis only within its backlog bound (here 3 packets' bytes), not
    /// the whole dataset (every packet accepted before the first was analyzed).
    @Test func realtimeBacklogIsBoundedWhenTheSourceIsSlowerThanRealTime() throws {
        final class SlowSource: PacketSource, @unchecked Sendable {
            let streams = [StreamDescription(MultiRate.cam)]
            var k = 0
            func next() throws -> AnyPacket? {
                guard k < 40 else { return nil }
                defer { k += 1 }
                Thread.sleep(forTimeInterval: 0.003)  // 3 ms per packet of a 1 kHz stream
                return AnyPacket(stream: MultiRate.cam.name, timestamp: Timestamp(nanoseconds: Int64(k) * 1_000_000), payload: k)
            }
        }
        var options = FrameBus.Options(mode: .realtime)
        options.realtimeBacklogBytes = 3 * PayloadBytes.defaultBytes
        let bus = try FrameBus(sources: [SlowSource()], analyzers: [AnalyzerInstance(Doubler(options: .init()))], options: options)
        final class Lag: @unchecked Sendable { var accepted = 0, most = 0, processed = 0 }
        let lag = Lag()
        let report = try bus.run(sink: { _, packet in
            guard let v = packet.payload as? Int, v >= 0 else { return }
            lag.processed += 1
            lag.most = max(lag.most, lag.accepted - (v / 2 + 1))
        }, inputs: { _ in lag.accepted += 1 })
        #expect(lag.accepted == 40)
        #expect(lag.processed + report.skipped.reduce(0) { $0 + $1.count } == 40)
        #expect(lag.most <= 3, "packets read ahead of analysis: \(lag.most)")
    }

    @Test func cancellationStopsCleanlyAndFlushes() throws {
        // As Ctrl-C does in the CLI: the check turns true after a few groups.
        let bus = try FrameBus(sources: [ArraySource(MultiRate.cam, (1...100).map { Packet($0, at: Timestamp(nanoseconds: Int64($0))) })],
                               analyzers: [AnalyzerInstance(Doubler(options: .init()))], options: .init(prefetch: true))
        final class Counter: @unchecked Sendable { var groups = 0 }
        let counter = Counter()
        bus.setProgress { _ in counter.groups += 1 }
        bus.setCancellation { counter.groups >= 10 }
        nonisolated(unsafe) var outputs: [Int] = []
        #expect {
            try bus.run { _, p in outputs.append(p.payload as! Int) }
        } throws: { error in
            guard let f = error as? FrameBusFailure, case .cancelled = f.error else { return false }
            return f.report.analyzers.first?.calls == 10
        }
        // The ten processed packets, then the close marker: nothing computed was lost.
        #expect(outputs == (1...10).map { $0 * 2 } + [-1])
    }

    @Test func wiringErrorsAreCaughtBeforeRunning() {
        // Its own output is no stream it could read: not offered.
        #expect(throws: BusError.unknownStream(analyzer: "doubler", stream: "cam9", available: ["cam0"])) {
            var o = Doubler.Options(); o.input = "cam9"
            _ = try FrameBus(sources: [ArraySource(MultiRate.cam, [])], analyzers: [AnalyzerInstance(Doubler(options: o))])
        }
        #expect(throws: BusError.typeMismatch(analyzer: "doubler", stream: "imu0", expected: "Int", found: "Double")) {
            var o = Doubler.Options(); o.input = "imu0"
            _ = try FrameBus(sources: [ArraySource(MultiRate.imu, [])], analyzers: [AnalyzerInstance(Doubler(options: o))])
        }
        #expect(throws: BusError.cycle(analyzers: ["a", "b"])) {
            var a = Doubler.Options(); a.input = "y"; a.output = "x"
            var b = Doubler.Options(); b.input = "x"; b.output = "y"
            _ = try FrameBus(sources: [], analyzers: [AnalyzerInstance(Doubler(options: a), name: "a"), AnalyzerInstance(Doubler(options: b), name: "b")])
        }
    }

    @Test func sourceTimestampsGoingBackwardsOrRepeatingAreErrors() throws {
        final class Unsorted: PacketSource {
            let streams = [StreamDescription(MultiRate.cam)]
            var stamps: [Int64]
            init(_ s: [Int64]) { stamps = s }
            func next() throws -> AnyPacket? {
                stamps.isEmpty ? nil : AnyPacket(stream: "cam0", timestamp: Timestamp(nanoseconds: stamps.removeFirst()), payload: 1)
            }
        }
        for (stamps, previous, current) in [([10, 20, 20], 20, 20), ([10, 30, 30, 5], 30, 30)] as [([Int64], Int64, Int64)] {
            let bus = try FrameBus(sources: [Unsorted(stamps)], analyzers: [AnalyzerInstance(Doubler(options: .init()))])
            #expect {
                try bus.run()
            } throws: { error in
                guard let f = error as? FrameBusFailure, case let .sourceOutOfOrder(s, p, c) = f.error else { return false }
                return s == "cam0" && p.nanoseconds == previous && c.nanoseconds == current && f.description.contains("repeats")
            }
        }
    }

}
