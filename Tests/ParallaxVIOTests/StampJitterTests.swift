import Testing
@testable import ParallaxVIO

/// σ of a camera's stamps about its frame period, from the stamps: 0 for a triggered camera,
/// the jitter for one stamping on arrival, dropped frames counting as whole periods.
@Suite struct StampJitterTests {
    /// Stamps `period` apart (ns) from 1 s, each moved by up to ±`jitter` ns (a fixed linear
    /// congruential sequence), every `keep`-th kept.
    static func stamps(count: Int, period: Int64, jitter: Int64, keep: Int = 1) -> [Int64] {
        var state: UInt64 = 12345
        return (0..<count).compactMap { k -> Int64? in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let u = Double(state >> 11) / Double(1 << 53) * 2 - 1
            return k % keep == 0 ? 1_000_000_000 + Int64(k) * period + Int64(u * Double(jitter)) : nil
        }
    }

    @Test func aTriggeredCameraHasNone() {
        var j = StampJitter()
        for s in Self.stamps(count: 100, period: 50_000_000, jitter: 0) { j.record(s) }
        #expect(j.sigma == 0)
    }

    @Test(arguments: [1, 2, 3])
    func stampsOnArrivalGiveTheirSpreadDroppedFramesOrNot(keep: Int) {
        // Uniform over ±2 ms: σ = 2/√3 = 1.155 ms (the estimate, from 128 intervals and made for
        // normal errors, within a third of it).
        var j = StampJitter()
        for s in Self.stamps(count: 200 * keep, period: 50_000_000, jitter: 2_000_000, keep: keep) { j.record(s) }
        #expect(abs(j.sigma - 0.001155) < 0.0004, "σ \(j.sigma * 1000) ms")
    }

    @Test func tooFewFramesGiveNone() {
        var j = StampJitter()
        for s in Self.stamps(count: StampJitter.fewest, period: 50_000_000, jitter: 2_000_000) { j.record(s) }
        #expect(j.sigma == 0, "\(StampJitter.fewest - 1) intervals")
        j.record(2_000_000_000)
        #expect(j.sigma > 0)
    }
}
