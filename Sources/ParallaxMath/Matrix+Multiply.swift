import CLAPACK

extension Matrix {
    /// `op(self) · op(other)` with BLAS `cblas_dgemm`, where `op` transposes when asked.
    ///
    /// Contract: inner dimensions must agree (else ``LinearAlgebraError/dimensionMismatch(operation:expected:got:)``).
    /// Non-finite inputs are propagated as IEEE arithmetic does (no check: multiplication
    /// cannot hide them, and the check would double the cost for small matrices).
    public func multiplied(by other: Matrix, transposeSelf: Bool = false, transposeOther: Bool = false) throws -> Matrix {
        let m = transposeSelf ? columns : rows
        let k = transposeSelf ? rows : columns
        let k2 = transposeOther ? other.columns : other.rows
        let n = transposeOther ? other.rows : other.columns
        guard k == k2 else {
            throw LinearAlgebraError.dimensionMismatch(
                operation: "cblas_dgemm", expected: "inner dimension \(k)", got: "\(k2)")
        }
        var result = Matrix(rows: m, columns: n)
        if m == 0 || n == 0 { return result }
        if k == 0 { return result }
        let lease = try LAPACKRuntime.enter("cblas_dgemm")
        defer { lease.leave() }
        elements.withUnsafeBufferPointer { a in
            other.elements.withUnsafeBufferPointer { b in
                result.elements.withUnsafeMutableBufferPointer { c in
                    cblas_dgemm(CblasColMajor,
                                transposeSelf ? CblasTrans : CblasNoTrans,
                                transposeOther ? CblasTrans : CblasNoTrans,
                                Int32(m), Int32(n), Int32(k), 1.0,
                                a.baseAddress, Int32(max(1, rows)),
                                b.baseAddress, Int32(max(1, other.rows)),
                                0.0, c.baseAddress, Int32(max(1, m)))
                }
            }
        }
        return result
    }

    /// Matrix product `lhs · rhs` (BLAS `cblas_dgemm`); throws on mismatched inner dimensions.
    public static func * (lhs: Matrix, rhs: Matrix) throws -> Matrix {
        try lhs.multiplied(by: rhs)
    }

    /// Matrix-vector product `self · x`; throws when `x.count != columns`.
    public func multiplied(by x: [Double]) throws -> [Double] {
        guard x.count == columns else {
            throw LinearAlgebraError.dimensionMismatch(operation: "cblas_dgemv", expected: "\(columns) entries", got: "\(x.count)")
        }
        var y = [Double](repeating: 0, count: rows)
        if rows == 0 || columns == 0 { return y }
        let lease = try LAPACKRuntime.enter("cblas_dgemv")
        defer { lease.leave() }
        elements.withUnsafeBufferPointer { a in
            x.withUnsafeBufferPointer { xp in
                y.withUnsafeMutableBufferPointer { yp in
                    cblas_dgemv(CblasColMajor, CblasNoTrans, Int32(rows), Int32(columns), 1.0,
                                a.baseAddress, Int32(max(1, rows)), xp.baseAddress, 1, 0.0, yp.baseAddress, 1)
                }
            }
        }
        return y
    }
}
