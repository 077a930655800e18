import Testing
@testable import Parallax

/// The verdict behind the stop at a run's start under `ulimit -v` (``AddressSpace``); the live
/// check through the executable is `BLASThreadsGuardTests.aLimitTooSmallForBLASStopsAtOnceSayingWhatToAllow`.
@Suite struct AddressSpaceTests {
    @Test func withoutALimitEveryRunHasRoom() {
        #expect(AddressSpace.shortfall(limit: nil, mapped: 300, bufferTaken: false, bufferMegabytes: 136) == nil)
        #expect(AddressSpace.shortfall(limit: nil, mapped: nil, bufferTaken: true, bufferMegabytes: 136) == nil)
    }

    /// The buffer missing fails whatever else is free: every LAPACK call would throw and the
    /// analyzers would report "nothing found".
    @Test func aMissingBLASBufferIsAShortfall() throws {
        let shortfall = try #require(AddressSpace.shortfall(limit: 2000, mapped: 300, bufferTaken: false, bufferMegabytes: 136))
        #expect(shortfall.mappedMegabytes == 300)
        #expect(shortfall.neededMegabytes == 600)   // 300 + 136 + 128 = 564, rounded up to 100
        #expect(AddressSpace.shortfall(limit: 2000, mapped: nil, bufferTaken: false, bufferMegabytes: 136) != nil)
    }

    /// With the buffer taken (counted in what is mapped), the run needs 128 MB more.
    @Test func theBufferTakenLeavesTheHeadroomToJudge() throws {
        #expect(AddressSpace.shortfall(limit: 600, mapped: 436, bufferTaken: true, bufferMegabytes: 136) == nil)   // 164 MB free
        let tight = try #require(AddressSpace.shortfall(limit: 500, mapped: 436, bufferTaken: true, bufferMegabytes: 136))   // 64 MB free
        #expect(tight.mappedMegabytes == 300)   // the buffer is counted once, in the advice
        #expect(tight.neededMegabytes == 600)
        // Where /proc cannot say what is mapped, only the buffer is judged.
        #expect(AddressSpace.shortfall(limit: 500, mapped: nil, bufferTaken: true, bufferMegabytes: 136) == nil)
    }

    @Test func theMessageNamesTheLimitTheBufferAndWhatToAllow() {
        let text = AddressSpace.Shortfall(limitMegabytes: 380, mappedMegabytes: 315, bufferMegabytes: 136).description
        #expect(text == "the limit on the address space (ulimit -v: 380 MB) leaves no room for BLAS's work buffer (136 MB) and 128 MB"
                + " for data beside the 315 MB parallax maps at its start; nothing was run. Raise the limit to at least 600 MB (ulimit -v 614400)")
        let vague = AddressSpace.Shortfall(limitMegabytes: 380, mappedMegabytes: nil, bufferMegabytes: 136).description
        #expect(vague.hasSuffix("nothing was run. Raise the limit"))
    }

    /// A run without a limit is not held up by the check.
    @Test(.enabled(if: ProcessMemory.addressSpaceLimitBytes == nil, "the test runner limits the address space"))
    func aRunWithoutALimitPassesTheCheck() throws {
        try AddressSpace.requireRoomForRun()
    }
}
