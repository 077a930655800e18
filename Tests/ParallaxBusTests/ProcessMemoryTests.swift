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

    /// The peak resident size is a positive number of megabytes, and grows no smaller.
    @Test func peakResidentSizeIsPositive() {
        let first = ProcessMemory.peakResidentMegabytes()
        let buffer = [UInt8](repeating: 1, count: 64 << 20)
        let second = ProcessMemory.peakResidentMegabytes()
        #expect(first > 0 && second >= first && buffer.count == 64 << 20)
    }
}
