import Testing
import ParallaxBus

/// The allocator settings and memory figures the CLI relies on.
@Suite struct ProcessMemoryTests {
    /// glibc takes the mmap threshold asked for (a larger one it refuses, silently leaving every
    /// image buffer a fresh mmap); taking it twice is harmless.
    @Test func glibcTakesTheBufferThreshold() {
        #if canImport(Glibc)
        #expect(ProcessMemory.keepFreedBuffers())
        #expect(ProcessMemory.keepFreedBuffers())
        #endif
    }

    /// The peak resident size is in megabytes: touching 256 MB more than the peak so far
    /// raises it by about that much.
    @Test func peakResidentSizeFollowsWhatIsTouched() {
        let first = ProcessMemory.peakResidentMegabytes()
        let buffer = [UInt8](repeating: 1, count: (Int(first) + 256) << 20)
        let second = ProcessMemory.peakResidentMegabytes()
        #expect(first > 0)
        #expect(second >= first + 200, "peak \(first) → \(second) MB after touching \(buffer.count >> 20) MB")
    }
}
