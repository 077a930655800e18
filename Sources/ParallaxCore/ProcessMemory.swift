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
