import Testing
@testable import ParallaxBus
@testable import ParallaxPayloads
@testable import ParallaxFiles
/// The one limit every decompressor asks before allocating: a ceiling, and a ratio bound past a
/// ratio-free size; a refusal names the file, the offset, the codec and the sizes.
@Suite struct DecompressionLimitTests {
    @Test func theLimitIsTheRatioBoundUnderTheCeiling() {
        let limit = DecompressionLimit(ceilingBytes: 1000, maximumRatio: 10, ratioFreeBytes: 100)
        #expect(limit.limit(compressed: 5) == 100)     // ratio-free below 100 bytes
        #expect(limit.limit(compressed: 50) == 500)    // 10:1
        #expect(limit.limit(compressed: 500) == 1000)  // the ceiling
        #expect(limit.limit(compressed: .max) == 1000) // no overflow
        #expect(limit.limit(compressed: -1) == 100)
    }

    @Test func aDeclaredSizeIsCheckedBeforeAnythingIsAllocated() throws {
        let standard = DecompressionLimit.standard
        #expect(try standard.check(declared: 768 << 10, compressed: 300 << 10, codec: "zstd", file: "a.mcap", offset: 8) == 768 << 10)
        // 1.3 MB declaring 2.1 GB (the reported bomb): past the ceiling.
        #expect(throws: DecompressionLimitError.self) {
            try standard.check(declared: 2_100_000_000, compressed: 1_300_000, codec: "zstd", file: "a.mcap", offset: 8)
        }
        // 40 KB declaring 100 MB: past 1024:1.
        do {
            _ = try standard.check(declared: 100_000_000, compressed: 40_000, codec: "bz2", file: "b.bag", offset: 4321)
            Issue.record("a 2500:1 block was accepted")
        } catch {
            let text = "\(error)"
            #expect(text.contains("b.bag") && text.contains("4321") && text.contains("bz2") && text.contains("40000") && text.contains("100000000"))
            #expect((error as any Error) is any BadInput)
        }
        // A declared size near 2⁶⁴ is refused, not converted.
        #expect(throws: DecompressionLimitError.self) {
            try standard.check(declared: .max, compressed: 10, codec: "lz4", file: "c.bag", offset: 0)
        }
    }
}
