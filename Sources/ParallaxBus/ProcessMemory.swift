#if canImport(Glibc)
import Glibc
#endif

/// Process memory figures for run reports.
public enum ProcessMemory {
    /// Peak resident set size of this process so far (MB), from `getrusage`.
    public static func peakResidentMegabytes() -> Double {
        #if canImport(Glibc)
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_maxrss) / 1024  // Linux reports KiB
        #else
        return 0
        #endif
    }
}

@_silgen_name("mallopt") private func c_mallopt(_ parameter: Int32, _ value: Int32) -> Int32

extension ProcessMemory {
    /// Tells glibc's allocator to keep freed blocks of up to 32 MiB in the heap instead of
    /// returning them to the kernel (`M_MMAP_THRESHOLD`, `M_TRIM_THRESHOLD`).
    ///
    /// Image pipelines allocate and free the same megabyte-sized buffers every frame; with the
    /// defaults each one is a fresh `mmap`, and touching it page-faults every page again. On the
    /// KLT benchmark this setting cut tracking from 7.3 to 4.5 ms and detection from 8.7 to
    /// 2.7 ms per frame. Process-wide: the CLI calls it at start; call it in your own host.
    ///
    /// 32 MiB is the largest threshold glibc accepts on 64-bit (half its heap size): it refuses
    /// a larger one, and the trim setting alone would then pin the threshold at its 128 KiB
    /// default with the dynamic raise turned off — every image buffer a fresh `mmap`. Returns
    /// whether glibc took the threshold (false elsewhere).
    @discardableResult
    public static func keepFreedBuffers() -> Bool {
        #if canImport(Glibc)
        guard c_mallopt(-3, mmapThreshold) == 1 else { return false }  // M_MMAP_THRESHOLD
        _ = c_mallopt(-1, 2 * mmapThreshold)  // M_TRIM_THRESHOLD
        return true
        #else
        return false
        #endif
    }

    /// Under a limit on the address space (`ulimit -v`), has every thread allocate from one
    /// arena (`M_ARENA_MAX` = 1). glibc otherwise gives each new thread that allocates an arena
    /// of its own, reserving 64 MiB of address space each (up to 8 per core): under a 600 MB
    /// limit two of them left no room for the decoding threads' stacks, and libdispatch waits
    /// for a thread it can never create — the run hung. Without a limit nothing changes (the
    /// arenas spare the threads a shared lock). Call it before threads start; the CLI does.
    /// Returns whether the setting was made.
    @discardableResult
    public static func shareOneArenaUnderAddressLimit() -> Bool {
        #if canImport(Glibc)
        guard addressSpaceIsLimited else { return false }
        return c_mallopt(-8, 1) == 1  // M_ARENA_MAX
        #else
        return false
        #endif
    }

    /// Whether this process runs under a limit on its address space (`ulimit -v`, `RLIMIT_AS`
    /// not infinite). Parallax then avoids what such a limit turns into a hang: worker threads
    /// (no prefetching, see ``FrameBus/Options/prefetch``), per-thread malloc arenas, OpenBLAS's
    /// own threads.
    public static var addressSpaceIsLimited: Bool { addressSpaceLimitBytes != nil }

    /// The limit on this process's address space (bytes, `RLIMIT_AS`'s soft limit); nil when
    /// there is none. (ParallaxMath's ``LAPACKRuntime`` reads it for itself: that floor does not
    /// depend on this one.)
    public static var addressSpaceLimitBytes: Int? {
        #if canImport(Glibc)
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
        #else
        return nil
        #endif
    }

    /// The threshold ``keepFreedBuffers()`` asks for (bytes): glibc's largest on 64-bit.
    static let mmapThreshold: Int32 = 32 << 20
}
