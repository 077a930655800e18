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

/// The message with which the executable stops at its start when the limit on its address space
/// leaves no room for BLAS's work buffer (``ParallaxMath/LAPACKRuntime``).
enum AddressSpace {
    /// Address space mapped now (MB), from `/proc/self/statm`; nil where it cannot be read.
    static var mappedMegabytes: Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = text.split(separator: " ").first.flatMap({ Int($0) }) else { return nil }
        return (pages * Int(sysconf(Int32(_SC_PAGESIZE)))) >> 20
    }

    /// The limit on the address space (MB); nil when there is none.
    static var limitMegabytes: Int? { ProcessMemory.addressSpaceLimitBytes.map { $0 >> 20 } }

    /// Address space a run needs beyond the program and BLAS's buffer before its first data
    /// (MB): below it, runs ended on Swift's allocation trap (a crash report, exit 134) as
    /// soon as they decoded a frame or built a pyramid (EuRoC's 752×480 frames at 480 MB).
    static let minimumHeadroomMegabytes = 128

    /// Whether the limit (if any) leaves room for BLAS's work buffer and
    /// ``minimumHeadroomMegabytes`` (call after ``ParallaxMath/LAPACKRuntime/prepare()``, which
    /// has taken the buffer if it fit).
    static var isEnough: Bool {
        guard let limit = limitMegabytes else { return true }
        guard LAPACKRuntime.workspaceAvailable else { return false }
        guard let mapped = mappedMegabytes else { return true }
        return limit - mapped >= minimumHeadroomMegabytes
    }

    static var tooSmallMessage: String {
        let buffer = LAPACKRuntime.workspaceMegabytes
        var text = "parallax: the limit on the address space (ulimit -v: \(limitMegabytes.map { "\($0) MB" } ?? "?"))"
        text += " leaves no room for BLAS's work buffer (\(buffer) MB) and \(minimumHeadroomMegabytes) MB for data"
        if var mapped = mappedMegabytes {
            if LAPACKRuntime.workspaceAvailable { mapped -= buffer }  // taken already: counted once
            let needed = ((mapped + buffer + minimumHeadroomMegabytes + 99) / 100) * 100
            text += " beside the \(mapped) MB parallax maps at its start; nothing was run. Raise the limit to at least \(needed) MB (ulimit -v \(needed * 1024))\n"
        } else {
            text += "; nothing was run. Raise the limit\n"
        }
        return text
    }
}
