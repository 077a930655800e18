import CLAPACK

extension Matrix {
    /// The Gram matrix `Aᵀ · A` (`n × n`), by BLAS `cblas_dsyrk`: half the flops of a general
    /// multiply, and exactly symmetric (the lower triangle is mirrored), as the normal
    /// equations of least squares need.
    public func gram() -> Matrix {
        let n = columns
        var g = Matrix(rows: n, columns: n)
        if n == 0 || rows == 0 { return g }
        guard let lease = try? LAPACKRuntime.enter("cblas_dsyrk") else {
            // No BLAS work buffer under this address-space limit: the same sums, in a loop.
            for j in 0..<n {
                for i in j..<n {
                    var sum = 0.0
                    for r in 0..<rows { sum += self[r, i] * self[r, j] }
                    g[i, j] = sum
                }
            }
            for j in 0..<n { for i in 0..<j { g[i, j] = g[j, i] } }
            return g
        }
        defer { lease.leave() }
        elements.withUnsafeBufferPointer { a in
            g.elements.withUnsafeMutableBufferPointer { c in
                cblas_dsyrk(CblasColMajor, CblasLower, CblasTrans, Int32(n), Int32(rows), 1.0,
                            a.baseAddress, Int32(rows), 0.0, c.baseAddress, Int32(n))
            }
        }
        for j in 0..<n { for i in 0..<j { g[i, j] = g[j, i] } }
        return g
    }
}
