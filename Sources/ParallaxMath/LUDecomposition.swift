import CLAPACK

/// LU factorization with partial pivoting `P · A = L · U` of a square matrix, by LAPACK
/// `dgetrf`, with the reciprocal condition number from `dgecon`.
///
/// Use it for determinants and explicit inverses (``inverse()`` uses `dgetri`). An exactly
/// singular matrix throws ``LinearAlgebraError/singular(routine:pivot:rcond:)`` at
/// factorization; ``inverse()`` also refuses matrices whose condition number exceeds 1/ε.
public struct LUDecomposition: Sendable {
    private let factored: Matrix
    private let pivots: [lapack_int]
    /// Estimated reciprocal condition number in the 1-norm (0 = singular, 1 = perfect).
    public let reciprocalCondition: Double

    /// Factors `matrix` (square, finite).
    public init(_ matrix: Matrix) throws {
        try matrix.requireSquare("LAPACKE_dgetrf")
        try matrix.requireFinite("LAPACKE_dgetrf")
        let n = matrix.rows
        var a = matrix
        var ipiv = [lapack_int](repeating: 0, count: n)
        var rcond = 1.0
        if n > 0 {
            let lease = try LAPACKRuntime.enter("LAPACKE_dgetrf")
            defer { lease.leave() }
            let anorm = matrix.norm1
            let info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, lapack_int(n), lapack_int(n), &a.elements, lapack_int(n), &ipiv)
            if info > 0 { throw LinearAlgebraError.singular(routine: "LAPACKE_dgetrf", pivot: Int(info), rcond: nil) }
            try checkConvergence(info, routine: "LAPACKE_dgetrf")
            let cinfo = LAPACKE_dgecon(LAPACK_COL_MAJOR, Int8(UInt8(ascii: "1")), lapack_int(n), a.elements,
                                       lapack_int(n), anorm, &rcond)
            try checkConvergence(cinfo, routine: "LAPACKE_dgecon")
        }
        factored = a
        pivots = ipiv
        reciprocalCondition = rcond
    }

    /// det(A) = ± Π Uᵢᵢ (sign from the row interchanges). May over/underflow for large n.
    public var determinant: Double {
        var det = 1.0
        for i in 0..<factored.rows {
            det *= factored[i, i]
            if pivots[i] != lapack_int(i + 1) { det = -det }
        }
        return det
    }

    /// A⁻¹ by `dgetri`. Throws ``LinearAlgebraError/singular(routine:pivot:rcond:)`` when the
    /// reciprocal condition number is below machine epsilon (the inverse would be noise).
    public func inverse() throws -> Matrix {
        guard reciprocalCondition >= Double.ulpOfOne else {
            throw LinearAlgebraError.singular(routine: "LAPACKE_dgetri", pivot: 0, rcond: reciprocalCondition)
        }
        var a = factored
        let n = a.rows
        if n == 0 { return a }
        let lease = try LAPACKRuntime.enter("LAPACKE_dgetri")
        defer { lease.leave() }
        let info = LAPACKE_dgetri(LAPACK_COL_MAJOR, lapack_int(n), &a.elements, lapack_int(n), pivots)
        if info > 0 { throw LinearAlgebraError.singular(routine: "LAPACKE_dgetri", pivot: Int(info), rcond: nil) }
        try checkConvergence(info, routine: "LAPACKE_dgetri")
        return a
    }
}

extension Matrix {
    /// The 1-norm (maximum absolute column sum), as `dgecon` expects.
    public var norm1: Double {
        var best = 0.0
        for j in 0..<columns {
            var s = 0.0
            for i in 0..<rows { s += abs(self[i, j]) }
            best = max(best, s)
        }
        return best
    }

    /// Determinant via LU (`dgetrf`); 0 for an exactly singular matrix.
    public func determinant() throws -> Double {
        do { return try LUDecomposition(self).determinant } catch LinearAlgebraError.singular { return 0 }
    }

    /// The inverse via LU (`dgetrf` + `dgetri`); throws when singular or worse conditioned than 1/ε.
    public func inverse() throws -> Matrix { try LUDecomposition(self).inverse() }
}

extension LUDecomposition {
    /// Solves `A x = b` for a small square `A` (`n × n`, row-major) by Gaussian elimination
    /// with partial pivoting in place, without LAPACK: for minimal solvers called thousands of
    /// times per RANSAC (the 8 × 8 system of a 4-point homography). On return `b` holds `x`;
    /// `false` (and `b` unspecified) when a pivot is below `1e-10` in magnitude (near singular:
    /// the caller falls back to a factorization that can judge it) or the result is not finite.
    public static func solveSmall(_ a: inout [Double], _ b: inout [Double], n: Int) -> Bool {
        guard a.count >= n * n, b.count >= n else { return false }
        for c in 0..<n {
            var pivot = c
            for r in (c + 1)..<max(c + 1, n) where abs(a[r * n + c]) > abs(a[pivot * n + c]) { pivot = r }
            guard abs(a[pivot * n + c]) > 1e-10 else { return false }
            if pivot != c {
                for j in 0..<n { a.swapAt(c * n + j, pivot * n + j) }
                b.swapAt(c, pivot)
            }
            let d = a[c * n + c]
            for r in (c + 1)..<max(c + 1, n) {
                let f = a[r * n + c] / d
                guard f != 0 else { continue }
                for j in c..<n { a[r * n + j] -= f * a[c * n + j] }
                b[r] -= f * b[c]
            }
        }
        for r in stride(from: n - 1, through: 0, by: -1) {
            var v = b[r]
            for j in (r + 1)..<max(r + 1, n) { v -= a[r * n + j] * b[j] }
            b[r] = v / a[r * n + r]
        }
        return b.prefix(n).allSatisfy(\.isFinite)
    }
}
