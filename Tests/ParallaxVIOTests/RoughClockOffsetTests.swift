import Testing
@testable import ParallaxVIO

@Suite struct RoughClockOffsetTests {
    /// The rendered orbit with the camera 100 ms late (bench/vio-offsets.yaml): two searches a
    /// second apart agree on about −104 ms while the filter's estimate goes −1.6 → −4.6 ms.
    @Test func anAnswerTheFilterHeadsForLeadsIt() {
        let before = RoughClockOffset(offset: -0.1055, sigma: 0.016, filter: -0.0016)
        let now = RoughClockOffset(offset: -0.1028, sigma: 0.011, filter: -0.0046)
        #expect(now.leadsTheFilter(after: before))
        // Early as well as late.
        let early = RoughClockOffset(offset: 0.0967, sigma: 0.011, filter: 0.0116)
        #expect(early.leadsTheFilter(after: RoughClockOffset(offset: 0.0950, sigma: 0.016, filter: 0.0063)))
    }

    /// No lead: a first answer (nothing before), a filter that stays put (synchronized: it moves
    /// a fraction of a millisecond) or moves away, and two answers that disagree.
    @Test func anAnswerTheFilterDoesNotHeadForDoesNotLead() {
        let before = RoughClockOffset(offset: 0.102, sigma: 0.014, filter: 0.0004)
        #expect(!RoughClockOffset(offset: 0.102, sigma: 0.014, filter: 0.0011).leadsTheFilter(after: nil))
        #expect(!RoughClockOffset(offset: 0.101, sigma: 0.014, filter: 0.0011).leadsTheFilter(after: before))      // 0.7 ms
        #expect(!RoughClockOffset(offset: 0.101, sigma: 0.014, filter: -0.0040).leadsTheFilter(after: before))     // away
        #expect(!RoughClockOffset(offset: -0.030, sigma: 0.014, filter: -0.0040).leadsTheFilter(after: before))    // 132 ms apart
        // The threshold is on the move toward the answer, whichever side the answer lies.
        let moved = RoughClockOffset.leadMinimum * 1.5
        #expect(RoughClockOffset(offset: -0.2, sigma: 0.01, filter: -moved).leadsTheFilter(after: RoughClockOffset(offset: -0.2, sigma: 0.01, filter: 0)))
        #expect(!RoughClockOffset(offset: -0.2, sigma: 0.01, filter: moved).leadsTheFilter(after: RoughClockOffset(offset: -0.2, sigma: 0.01, filter: 0)))
    }
}
