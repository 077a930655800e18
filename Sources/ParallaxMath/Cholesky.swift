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
    ///
    /// - Parameter symmetryTolerance: the largest accepted `|A[i,j] − A[j,i]|`, relative to
    ///   `max(1, max|A|)`; `nil` skips the O(n²) symmetry check (for callers that built `A`
    ///   symmetric, e.g. with ``Matrix/gram()``; only the lower triangle is read either way).
    ///
    /// Non-finite input is detected without a separate pass over `A`: LAPACKE scans the lower
    /// triangle for NaN, `dpotrf` fails on ±Inf reaching a pivot, and the diagonal of the
    /// factor is checked on success.
    public init(_ matrix: Matrix, symmetryTolerance: Double? = 1e-10) throws {
        try matrix.requireSquare("LAPACKE_dpotrf")
        if let symmetryTolerance {
            try matrix.requireFiniteSymmetric("LAPACKE_dpotrf", tolerance: symmetryTolerance)
        }
        var a = matrix
        let n = a.rows
        if n > 0 {
            let lease = try LAPACKRuntime.enter("LAPACKE_dpotrf")
            defer { lease.leave() }
            let info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, Int8(UInt8(ascii: "L")), lapack_int(n), &a.elements, lapack_int(n))
            if info != 0 {
                // LAPACKE's own NaN scan answers -4; NaN/Inf reaching a pivot answers > 0.
                try matrix.requireFinite("LAPACKE_dpotrf")
                if info > 0 { throw LinearAlgebraError.notPositiveDefinite(routine: "LAPACKE_dpotrf", minor: Int(info)) }
            }
            try checkConvergence(info, routine: "LAPACKE_dpotrf")
            for i in 0..<n where !a[i, i].isFinite { throw LinearAlgebraError.nonFinite(operation: "LAPACKE_dpotrf") }
            a.zeroStrictUpperTriangle()
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
        let lease = try LAPACKRuntime.enter("LAPACKE_dpotrs")
        defer { lease.leave() }
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
    /// `symmetryTolerance` as in ``Cholesky/init(_:symmetryTolerance:)``; `nil` skips the check.
    public func solvePositiveDefinite(_ b: Matrix, symmetryTolerance: Double? = 1e-10) throws -> Matrix {
        try requireSquare("LAPACKE_dposv")
        guard b.rows == rows else {
            throw LinearAlgebraError.dimensionMismatch(operation: "LAPACKE_dposv", expected: "\(rows) rows", got: "\(b.rows)")
        }
        if let symmetryTolerance {
            try requireFiniteSymmetric("LAPACKE_dposv", tolerance: symmetryTolerance)
        } else {
            try requireFinite("LAPACKE_dposv")
        }
        try b.requireFinite("LAPACKE_dposv")
        var a = elements
        var x = b
        if rows == 0 || b.columns == 0 { return x }
        let lease = try LAPACKRuntime.enter("LAPACKE_dposv")
        defer { lease.leave() }
        let info = LAPACKE_dposv(LAPACK_COL_MAJOR, Int8(UInt8(ascii: "L")), lapack_int(rows), lapack_int(b.columns),
                                 &a, lapack_int(rows), &x.elements, lapack_int(rows))
        if info > 0 { throw LinearAlgebraError.notPositiveDefinite(routine: "LAPACKE_dposv", minor: Int(info)) }
        try checkConvergence(info, routine: "LAPACKE_dposv")
        return x
    }

    /// Sets every element above the diagonal to zero.
    mutating func zeroStrictUpperTriangle() {
        let n = rows
        elements.withUnsafeMutableBufferPointer { p in
            for j in 1..<max(columns, 1) { for i in 0..<min(j, n) { p[i + j * n] = 0 } }
        }
    }
}

extension Cholesky {
    /// Solves `A x = b` for a small symmetric positive-definite `A` (`n × n`, row-major, only
    /// the lower triangle read) by Cholesky in place, without LAPACK: for the 6 × 6 normal
    /// equations of per-point solvers, solved once per iteration. On return
    /// `b` holds `x`; `false` (and `b` unspecified) when `A` is not positive definite or not finite.
    public static func solveSmall(_ a: inout [Double], _ b: inout [Double], n: Int) -> Bool {
        guard a.count >= n * n, b.count >= n else { return false }
        for j in 0..<n {
            var d = a[j * n + j]
            for k in 0..<j { d -= a[j * n + k] * a[j * n + k] }
            guard d > 0, d.isFinite else { return false }
            let l = d.squareRoot()
            a[j * n + j] = l
            for i in (j + 1)..<max(j + 1, n) {
                var s = a[i * n + j]
                for k in 0..<j { s -= a[i * n + k] * a[j * n + k] }
                a[i * n + j] = s / l
            }
        }
        for i in 0..<n {  // L y = b
            var s = b[i]
            for k in 0..<i { s -= a[i * n + k] * b[k] }
            b[i] = s / a[i * n + i]
        }
        for i in stride(from: n - 1, through: 0, by: -1) {  // Lᵀ x = y
            var s = b[i]
            for k in (i + 1)..<max(i + 1, n) { s -= a[k * n + i] * b[k] }
            b[i] = s / a[i * n + i]
        }
        return b.prefix(n).allSatisfy(\.isFinite)
    }
}
