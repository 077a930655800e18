/// Why a linear-algebra routine refused its input or could not produce a result.
///
/// Every LAPACK wrapper in ``Matrix`` throws one of these instead of crashing or returning
/// garbage. The message names the operation (and the LAPACK routine where one was called).
public enum LinearAlgebraError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Operand shapes do not fit, e.g. multiplying a 3×4 by a 3×4.
    case dimensionMismatch(operation: String, expected: String, got: String)
    /// An input holds NaN or ±Inf; LAPACK would silently propagate them.
    case nonFinite(operation: String)
    /// The matrix is singular to working precision. `pivot` is the 1-based index LAPACK
    /// reported (0 when detected by the reciprocal condition number instead), `rcond` the
    /// estimated reciprocal condition number in the 1-norm when it was computed.
    case singular(routine: String, pivot: Int, rcond: Double?)
    /// The matrix is not (numerically) positive definite: the leading minor of order
    /// `minor` is not positive.
    case notPositiveDefinite(routine: String, minor: Int)
    /// The matrix given to a symmetric routine is not symmetric within tolerance.
    case notSymmetric(operation: String, maxAsymmetry: Double)
    /// A least-squares matrix does not have full rank.
    case rankDeficient(routine: String, diagonalIndex: Int)
    /// An iterative routine (SVD, eigen) did not converge.
    case didNotConverge(routine: String, info: Int)
    /// LAPACK rejected an argument (a bug in the wrapper if it ever happens).
    case invalidArgument(routine: String, argument: Int)
    /// The BLAS backend's work buffer (`bytes` of address space) did not fit under the
    /// process's address-space limit (`ulimit -v`); see ``LAPACKRuntime``.
    case outOfAddressSpace(routine: String, bytes: Int)

    public var description: String {
        switch self {
        case let .dimensionMismatch(operation, expected, got):
            return "\(operation): dimension mismatch, expected \(expected), got \(got)"
        case let .nonFinite(operation):
            return "\(operation): input contains NaN or infinity"
        case let .singular(routine, pivot, rcond):
            if let rcond {
                return "\(routine): matrix is singular to working precision (reciprocal condition number \(rcond))"
            }
            return "\(routine): matrix is singular (U(\(pivot),\(pivot)) is exactly zero)"
        case let .notPositiveDefinite(routine, minor):
            return "\(routine): matrix is not positive definite (leading minor of order \(minor) is not positive)"
        case let .notSymmetric(operation, maxAsymmetry):
            return "\(operation): matrix is not symmetric (max |A[i,j] - A[j,i]| = \(maxAsymmetry))"
        case let .rankDeficient(routine, index):
            return "\(routine): matrix does not have full rank (R(\(index),\(index)) is zero)"
        case let .didNotConverge(routine, info):
            return "\(routine): did not converge (info = \(info))"
        case let .invalidArgument(routine, argument):
            return "\(routine): argument \(argument) had an illegal value"
        case let .outOfAddressSpace(routine, bytes):
            return "\(routine): the BLAS work buffer (\(bytes >> 20) MB of address space) does not fit under this process's address-space limit (ulimit -v); raise the limit"
        }
    }
}
