import CLAPACK
#if canImport(Glibc)
import Glibc
#endif

/// Process-wide settings of the BLAS/LAPACK backend (OpenBLAS + LAPACKE from Debian).
///
/// Parallax runs OpenBLAS with one thread. The frame bus parallelizes across analyzers and
/// stages; nested BLAS threads would oversubscribe the cores and make floating-point
/// reductions depend on thread scheduling. One thread keeps every result bit-identical.
///
/// **Under a limit on the address space** (`ulimit -v`, `RLIMIT_AS`) OpenBLAS is a hazard: a
/// routine that needs its work buffer (≈ 128 MB of address space, taken once and then kept in
/// its pool) retries the allocation forever when it fails, so the process hangs instead of
/// failing. Under such a limit the backend therefore takes that buffer when it is configured
/// (``prepare()``: the executable does it at its start, while the address space is still free)
/// after checking that it fits, and the wrappers run one at a time (``enter(_:)``): a
/// concurrent caller would need a second buffer. When the buffer does not fit, every wrapper
/// that would need it throws ``LinearAlgebraError/outOfAddressSpace(routine:bytes:)``.
/// Without a limit none of this happens.
public enum LAPACKRuntime {
    /// Address space OpenBLAS's work buffer takes (its `BUFFER_SIZE`, 128 MiB, and a page),
    /// with a margin for the allocator's own bookkeeping (bytes).
    static let workspaceBytes = 136 << 20
    /// ``workspaceBytes`` in MB, for messages.
    public static var workspaceMegabytes: Int { workspaceBytes >> 20 }

    /// What configuring the backend found.
    struct State: Sendable {
        /// Whether the address space is limited (`RLIMIT_AS` is not infinite).
        let addressSpaceLimited: Bool
        /// Whether OpenBLAS's work buffer is in its pool (meaningful under a limit).
        let workspaceReserved: Bool
    }

    /// Applied once, lazily, before the first BLAS/LAPACK call (thread-safe `static let`).
    static let state: State = {
        openblas_set_num_threads(1)
        guard addressSpaceIsLimited else { return State(addressSpaceLimited: false, workspaceReserved: true) }
        return State(addressSpaceLimited: true, workspaceReserved: reserveWorkspace())
    }()

    /// Configures the backend now rather than at the first call. The executable calls this
    /// at its start: under an address-space limit the work buffer is taken while the space is
    /// still free.
    public static func prepare() { _ = state }

    /// Whether the work buffer could be taken (always `true` without an address-space limit).
    public static var workspaceAvailable: Bool { state.workspaceReserved }

    /// Admits one call of `routine` into the backend: under an address-space limit, one at a
    /// time (the lease holds a process-wide lock until ``Lease/leave()``), and not at all when
    /// the work buffer did not fit. Without a limit it costs one load and a branch.
    @inline(__always)
    static func enter(_ routine: String) throws -> Lease {
        let state = self.state
        guard state.addressSpaceLimited else { return Lease(lock: nil) }
        guard state.workspaceReserved else {
            throw LinearAlgebraError.outOfAddressSpace(routine: routine, bytes: workspaceBytes)
        }
        serial.lock()
        return Lease(lock: serial)
    }

    /// A call admitted by ``enter(_:)``; `leave()` ends it (call it exactly once, by `defer`).
    struct Lease {
        let lock: RecursiveLock?
        @inline(__always)
        func leave() { lock?.unlock() }
    }

    /// Recursive: a wrapper that calls another under its lease must not wait for itself.
    private static let serial = RecursiveLock()

    private static var addressSpaceIsLimited: Bool {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0 else { return false }
        return limit.rlim_cur != rlim_t.max  // RLIM_INFINITY
    }

    /// Takes OpenBLAS's work buffer into its pool if it fits: probes the address space for it
    /// first (a reservation that is released at once), since OpenBLAS itself never gives up.
    private static func reserveWorkspace() -> Bool {
        guard let probe = mmap(nil, workspaceBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
              probe != MAP_FAILED else { return false }
        munmap(probe, workspaceBytes)
        // A matrix–vector product long enough that OpenBLAS takes its buffer rather than the
        // stack (it keeps the buffer in its pool when the call returns).
        let rows = 512
        var a = [Double](repeating: 0, count: rows), x: [Double] = [1], y = [Double](repeating: 0, count: rows)
        cblas_dgemv(CblasColMajor, CblasNoTrans, Int32(rows), 1, 1.0, &a, Int32(rows), &x, 1, 0.0, &y, 1)
        return true
    }
}

/// A process-wide recursive mutex (pthread), for the backend's one-at-a-time mode.
final class RecursiveLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}

/// Maps LAPACK's `info` return convention to ``LinearAlgebraError`` for routines where a
/// positive `info` means "did not converge".
@inline(__always)
func checkConvergence(_ info: lapack_int, routine: String) throws {
    if info < 0 { throw LinearAlgebraError.invalidArgument(routine: routine, argument: Int(-info)) }
    if info > 0 { throw LinearAlgebraError.didNotConverge(routine: routine, info: Int(info)) }
}

/// LAPACKE's integer (`lapack_int`, a C macro), exposed by the shim's typedef.
typealias lapack_int = parallax_lapack_int
