import Foundation
import ParallaxBus
import ParallaxMath
#if canImport(Glibc)
import Glibc
#endif

/// Whether a limit on the address space (`ulimit -v`, `RLIMIT_AS`) leaves a run room for BLAS's
/// work buffer and for data, checked before a run reads anything: by the executable at its start
/// and by ``ChainRunner/run(options:cancelled:progress:sink:inputs:)`` for every host of the
/// library (the bench, an application of its own).
///
/// Without the buffer every LAPACK wrapper throws (``ParallaxMath/LAPACKRuntime``), and
/// analyzers take a failed solve for "nothing found": `planes` emitted no plane and `vio` reset
/// on every frame, exit 0 — a silent wrong result. Without room for data the run ended on
/// Swift's allocation trap as soon as it decoded a frame. Both are refused up front instead,
/// with the limit to allow. Without a limit nothing is checked.
public enum AddressSpace {
    /// Address space a run needs beyond the program and BLAS's buffer before its first data
    /// (MB): below it, runs ended on Swift's allocation trap (a crash report, exit 134) as
    /// soon as they decoded a frame or built a pyramid (EuRoC's 752×480 frames at 480 MB).
    public static let minimumHeadroomMegabytes = 128

    /// A limit too small for a run: the figures its message is made of.
    public struct Shortfall: Error, Equatable, CustomStringConvertible, Sendable {
        /// The limit (MB).
        public var limitMegabytes: Int
        /// What the process maps besides BLAS's buffer (MB); nil where `/proc` cannot say.
        public var mappedMegabytes: Int?
        /// BLAS's work buffer (MB).
        public var bufferMegabytes: Int

        /// The limit to allow (MB, rounded up to 100): the program, the buffer and the headroom.
        public var neededMegabytes: Int? {
            mappedMegabytes.map { (($0 + bufferMegabytes + AddressSpace.minimumHeadroomMegabytes + 99) / 100) * 100 }
        }

        public var description: String {
            var text = "the limit on the address space (ulimit -v: \(limitMegabytes) MB) leaves no room for BLAS's work buffer"
            text += " (\(bufferMegabytes) MB) and \(AddressSpace.minimumHeadroomMegabytes) MB for data"
            guard let mapped = mappedMegabytes, let needed = neededMegabytes else { return text + "; nothing was run. Raise the limit" }
            return text + " beside the \(mapped) MB parallax maps at its start; nothing was run."
                + " Raise the limit to at least \(needed) MB (ulimit -v \(needed * 1024))"
        }
    }

    /// The verdict on given figures (MB): nil when the run has room. `limit` nil: no limit;
    /// `mapped` is what the process maps now, the buffer included when `bufferTaken`; nil where
    /// it cannot be read (then only the buffer is judged).
    public static func shortfall(limit: Int?, mapped: Int?, bufferTaken: Bool, bufferMegabytes: Int = LAPACKRuntime.workspaceMegabytes) -> Shortfall? {
        guard let limit else { return nil }
        let besidesBuffer = mapped.map { bufferTaken ? $0 - bufferMegabytes : $0 }
        if bufferTaken {
            guard let mapped, limit - mapped < minimumHeadroomMegabytes else { return nil }
        }
        return Shortfall(limitMegabytes: limit, mappedMegabytes: besidesBuffer, bufferMegabytes: bufferMegabytes)
    }

    /// Throws ``Shortfall`` when this process's limit (if any) leaves no room for BLAS's work
    /// buffer and ``minimumHeadroomMegabytes`` of data. Configures the BLAS backend first (under
    /// a limit it takes the buffer then, if it fits: call this before reading data, while the
    /// space is free).
    public static func requireRoomForRun() throws(Shortfall) {
        LAPACKRuntime.prepare()
        // Without a limit (every ordinary run) nothing more: /proc is read only under one.
        guard let limit = ProcessMemory.addressSpaceLimitBytes.map({ $0 >> 20 }) else { return }
        if let shortfall = shortfall(limit: limit, mapped: mappedMegabytes, bufferTaken: LAPACKRuntime.workspaceAvailable) {
            throw shortfall
        }
    }

    /// Address space mapped now (MB), from `/proc/self/statm`; nil where it cannot be read.
    static var mappedMegabytes: Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = text.split(separator: " ").first.flatMap({ Int($0) }) else { return nil }
        return (pages * Int(sysconf(Int32(_SC_PAGESIZE)))) >> 20
    }
}
