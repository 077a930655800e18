import Foundation
import ParallaxBus
import ParallaxMath
#if canImport(Glibc)
import Glibc
#endif

/// OpenBLAS starts a worker thread per core when it is loaded, and each reserves a buffer of up to
/// 128 MB of address space. Under a limit on the address space (`ulimit -v`) that reservation
/// fails and OpenBLAS retries it forever: the process hung at its exit, whatever the command
/// (`ulimit -v 400000; parallax plugins`). Parallax runs BLAS on one thread anyway
/// (``ParallaxMath/LAPACKRuntime``), and OpenBLAS reads its thread count only when it loads, so
/// under such a limit the executable starts itself once more with `OPENBLAS_NUM_THREADS=1`
/// (also when the variable asks for another count).
/// Without a limit nothing happens (a start costs ≈ 70 ms).
enum BLASThreadsGuard {
    static let variable = "OPENBLAS_NUM_THREADS"

    /// Whether this process must start again: its address space is limited and OpenBLAS's
    /// thread count is not 1 (unset, or set by the user to more: 64 threads' buffers hung too).
    static var needsRestart: Bool {
        if let value = getenv(variable), String(cString: value) == "1" { return false }
        return ProcessMemory.addressSpaceIsLimited
    }

    /// Replaces the process by itself with `OPENBLAS_NUM_THREADS=1` when ``needsRestart``; returns
    /// (and the process goes on as it is) when it need not or cannot.
    static func restartIfNeeded() {
        guard needsRestart else { return }
        setenv(variable, "1", 1)
        let arguments = CommandLine.arguments
        var pointers = arguments.map { strdup($0) }
        pointers.append(nil)
        execv("/proc/self/exe", pointers)
        // execv returned: it failed. Go on in this process (the hang may follow; nothing else to do).
        for p in pointers { free(p) }
    }
}
