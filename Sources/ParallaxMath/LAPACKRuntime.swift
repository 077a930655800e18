import CLAPACK

/// Process-wide settings of the BLAS/LAPACK backend (OpenBLAS + LAPACKE from Debian).
///
/// Parallax runs OpenBLAS with one thread. The frame bus parallelizes across analyzers and
/// stages; nested BLAS threads would oversubscribe the cores and make floating-point
/// reductions depend on thread scheduling. One thread keeps every result bit-identical.
public enum LAPACKRuntime {
    /// Applied once, lazily, before the first BLAS/LAPACK call (thread-safe `static let`).
    static let configured: Bool = {
        openblas_set_num_threads(1)
        return true
    }()

    /// Ensures the backend is configured; every wrapper calls this first (cost: one load).
    @inline(__always)
    static func prepare() { _ = configured }
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
