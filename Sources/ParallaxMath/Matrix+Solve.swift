import CLAPACK

extension Matrix {
    /// Solves the square system `self · X = B` with LAPACK `dgesv` (LU with partial pivoting),
    /// then checks conditioning with `dgecon`.
    ///
    /// Throws ``LinearAlgebraError/singular(routine:pivot:rcond:)`` when a pivot is exactly
    /// zero or the reciprocal condition number is below machine epsilon (the answer would be
    /// dominated by rounding), ``LinearAlgebraError/dimensionMismatch(operation:expected:got:)``
    /// for wrong shapes, ``LinearAlgebraError/nonFinite(operation:)`` for NaN/Inf.
    public func solve(_ b: Matrix) throws -> Matrix {
        try requireSquare("LAPACKE_dgesv")
        guard b.rows == rows else {
            throw LinearAlgebraError.dimensionMismatch(operation: "LAPACKE_dgesv", expected: "\(rows) rows", got: "\(b.rows)")
        }
        try requireFinite("LAPACKE_dgesv")
        try b.requireFinite("LAPACKE_dgesv")
        let n = rows
        var a = elements
        var x = b
        if n == 0 || b.columns == 0 { return x }
        var ipiv = [lapack_int](repeating: 0, count: n)
        let anorm = norm1
        let lease = try LAPACKRuntime.enter("LAPACKE_dgesv")
        defer { lease.leave() }
        let info = LAPACKE_dgesv(LAPACK_COL_MAJOR, lapack_int(n), lapack_int(b.columns), &a, lapack_int(n),
                                 &ipiv, &x.elements, lapack_int(n))
        if info > 0 { throw LinearAlgebraError.singular(routine: "LAPACKE_dgesv", pivot: Int(info), rcond: nil) }
        try checkConvergence(info, routine: "LAPACKE_dgesv")
        var rcond = 0.0
        let cinfo = LAPACKE_dgecon(LAPACK_COL_MAJOR, Int8(UInt8(ascii: "1")), lapack_int(n), a, lapack_int(n), anorm, &rcond)
        try checkConvergence(cinfo, routine: "LAPACKE_dgecon")
        if rcond < Double.ulpOfOne {
            throw LinearAlgebraError.singular(routine: "LAPACKE_dgesv", pivot: 0, rcond: rcond)
        }
        return x
    }

    /// Solves `self · x = b` for a single right-hand side (see ``solve(_:)-(Matrix)``).
    public func solve(_ b: [Double]) throws -> [Double] {
        try solve(Matrix(rows: b.count, columns: 1, columnMajor: b)).elements
    }

    /// Least-squares solution of `min ‖self · X − B‖` (overdetermined, `m ≥ n`) or the
    /// minimum-norm solution (underdetermined), with LAPACK `dgels` (QR/LQ).
    ///
    /// Contract: `self` must have full rank; otherwise
    /// ``LinearAlgebraError/rankDeficient(routine:diagonalIndex:)``, also when a diagonal of
    /// the triangular factor is below `max(m, n)·ε·max|diag|` (use ``SVD`` for rank-deficient
    /// problems). Returns the `n × nrhs` solution.
    public func leastSquares(_ b: Matrix) throws -> Matrix {
        guard b.rows == rows else {
            throw LinearAlgebraError.dimensionMismatch(operation: "LAPACKE_dgels", expected: "\(rows) rows", got: "\(b.rows)")
        }
        try requireFinite("LAPACKE_dgels")
        try b.requireFinite("LAPACKE_dgels")
        let m = rows, n = columns, nrhs = b.columns
        let ldb = max(1, m, n)
        if m == 0 || n == 0 || nrhs == 0 { return Matrix(rows: n, columns: nrhs) }
        var a = elements
        var x = [Double](repeating: 0, count: ldb * nrhs)
        for j in 0..<nrhs { for i in 0..<m { x[i + j * ldb] = b[i, j] } }
        let lease = try LAPACKRuntime.enter("LAPACKE_dgels")
        defer { lease.leave() }
        let info = LAPACKE_dgels(LAPACK_COL_MAJOR, Int8(UInt8(ascii: "N")), lapack_int(m), lapack_int(n), lapack_int(nrhs),
                                 &a, lapack_int(m), &x, lapack_int(ldb))
        if info > 0 { throw LinearAlgebraError.rankDeficient(routine: "LAPACKE_dgels", diagonalIndex: Int(info)) }
        try checkConvergence(info, routine: "LAPACKE_dgels")
        // dgels reports only exactly-zero diagonals; rounding usually leaves a tiny one instead.
        // Treat |R(i,i)| ≤ max(m, n)·ε·max|R(j,j)| as rank deficiency (the solution would be noise).
        let k = min(m, n)
        let diagonal = (0..<k).map { abs(a[$0 + $0 * m]) }
        let threshold = Double(max(m, n)) * Double.ulpOfOne * (diagonal.max() ?? 0)
        if let weak = diagonal.firstIndex(where: { $0 <= threshold }) {
            throw LinearAlgebraError.rankDeficient(routine: "LAPACKE_dgels", diagonalIndex: weak + 1)
        }
        var result = Matrix(rows: n, columns: nrhs)
        for j in 0..<nrhs { for i in 0..<n { result[i, j] = x[i + j * ldb] } }
        return result
    }
}
