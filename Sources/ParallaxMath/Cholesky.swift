import Foundation
import CLAPACK

/// Cholesky factorization `A = L · Lᵀ` of a symmetric positive-definite matrix, by LAPACK
/// `dpotrf` (lower triangle).
///
/// Contract: `A` must be square, finite and symmetric to within `symmetryTolerance` (relative
/// to its largest element); only its lower triangle is read. A matrix that is not positive
/// definite throws ``LinearAlgebraError/notPositiveDefinite(routine:minor:)``.
public struct Cholesky: Sendable {
    /// The lower-triangular factor `L` (upper triangle zero).
    public let l: Matrix

    /// Factors `matrix`.
    public init(_ matrix: Matrix, symmetryTolerance: Double = 1e-10) throws {
        try matrix.requireSquare("LAPACKE_dpotrf")
        try matrix.requireFinite("LAPACKE_dpotrf")
        try matrix.requireSymmetric("LAPACKE_dpotrf", tolerance: symmetryTolerance)
        var a = matrix
        let n = a.rows
        if n > 0 {
            LAPACKRuntime.prepare()
            let info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, Int8(UInt8(ascii: "L")), lapack_int(n), &a.elements, lapack_int(n))
            if info > 0 { throw LinearAlgebraError.notPositiveDefinite(routine: "LAPACKE_dpotrf", minor: Int(info)) }
            try checkConvergence(info, routine: "LAPACKE_dpotrf")
            for j in 1..<max(n, 1) { for i in 0..<j { a[i, j] = 0 } }
        }
        l = a
    }

    /// Solves `A · X = B` with the factor (`dpotrs`). `B` must have `n` rows.
    public func solve(_ b: Matrix) throws -> Matrix {
        let n = l.rows
        guard b.rows == n else {
            throw LinearAlgebraError.dimensionMismatch(operation: "LAPACKE_dpotrs", expected: "\(n) rows", got: "\(b.rows)")
        }
        try b.requireFinite("LAPACKE_dpotrs")
        var x = b
        if n == 0 || b.columns == 0 { return x }
        LAPACKRuntime.prepare()
        let info = LAPACKE_dpotrs(LAPACK_COL_MAJOR, Int8(UInt8(ascii: "L")), lapack_int(n), lapack_int(b.columns),
                                  l.elements, lapack_int(n), &x.elements, lapack_int(n))
        try checkConvergence(info, routine: "LAPACKE_dpotrs")
        return x
    }

    /// log det(A) = 2 Σ log Lᵢᵢ (never overflows, unlike det).
    public var logDeterminant: Double { 2 * (0..<l.rows).reduce(0) { $0 + log(l[$1, $1]) } }
}

extension Matrix {
    /// Solves `self · X = B` for symmetric positive-definite `self` in one call (`dposv`).
    ///
    /// This is the normal-equations path of ``LevenbergMarquardt``. Throws
    /// ``LinearAlgebraError/notPositiveDefinite(routine:minor:)`` when `self` is not SPD.
    public func solvePositiveDefinite(_ b: Matrix, symmetryTolerance: Double = 1e-10) throws -> Matrix {
        try requireSquare("LAPACKE_dposv")
        guard b.rows == rows else {
            throw LinearAlgebraError.dimensionMismatch(operation: "LAPACKE_dposv", expected: "\(rows) rows", got: "\(b.rows)")
        }
        try requireFinite("LAPACKE_dposv")
        try b.requireFinite("LAPACKE_dposv")
        try requireSymmetric("LAPACKE_dposv", tolerance: symmetryTolerance)
        var a = elements
        var x = b
        if rows == 0 || b.columns == 0 { return x }
        LAPACKRuntime.prepare()
        let info = LAPACKE_dposv(LAPACK_COL_MAJOR, Int8(UInt8(ascii: "L")), lapack_int(rows), lapack_int(b.columns),
                                 &a, lapack_int(rows), &x.elements, lapack_int(rows))
        if info > 0 { throw LinearAlgebraError.notPositiveDefinite(routine: "LAPACKE_dposv", minor: Int(info)) }
        try checkConvergence(info, routine: "LAPACKE_dposv")
        return x
    }

    func requireSymmetric(_ operation: String, tolerance: Double) throws {
        var worst = 0.0
        for j in 0..<columns { for i in (j + 1)..<max(rows, j + 1) { worst = max(worst, abs(self[i, j] - self[j, i])) } }
        if worst > tolerance * max(1, maxAbs) {
            throw LinearAlgebraError.notSymmetric(operation: operation, maxAsymmetry: worst)
        }
    }
}
