import Testing
@testable import ParallaxBus

@Suite struct TimestampTests {
    @Test func timestampConversions() {
        let t = Timestamp(seconds: 1403715273.262142976)
        #expect(abs(t.seconds - 1403715273.262143) < 1e-6)
        #expect(Timestamp(nanoseconds: 2_500_000_000).seconds(since: Timestamp(nanoseconds: 1_000_000_000)) == 1.5)
    }
}
