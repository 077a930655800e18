/// Input checks shared by the LAPACK wrappers. They run on every call, so they are written to
/// vectorize: at 300×300 the Cholesky checks cost ~10 % of `dpotrf` itself.
extension Matrix {
    /// The largest absolute element, or `nil` if any element is NaN or infinite.
    ///
    /// Four independent lanes, branch-free, so the running maximum does not form one long
    /// floating-point dependency chain.
    func finiteMaxAbs() -> Double? {
        elements.withUnsafeBufferPointer { p -> Double? in
            let count = p.count
            let g = Double.greatestFiniteMagnitude
            var m0 = 0.0, m1 = 0.0, m2 = 0.0, m3 = 0.0
            var finite = true
            var k = 0
            while k + 4 <= count {
                let a0 = abs(p[k]), a1 = abs(p[k + 1]), a2 = abs(p[k + 2]), a3 = abs(p[k + 3])
                finite = finite && (a0 <= g) && (a1 <= g) && (a2 <= g) && (a3 <= g)
                m0 = a0 > m0 ? a0 : m0
                m1 = a1 > m1 ? a1 : m1
                m2 = a2 > m2 ? a2 : m2
                m3 = a3 > m3 ? a3 : m3
                k += 4
            }
            while k < count {
                let a = abs(p[k])
                finite = finite && (a <= g)
                m0 = a > m0 ? a : m0
                k += 1
            }
            return finite ? Swift.max(Swift.max(m0, m1), Swift.max(m2, m3)) : nil
        }
    }

    func requireSquare(_ operation: String) throws {
        guard isSquare else {
            throw LinearAlgebraError.dimensionMismatch(operation: operation, expected: "square matrix", got: "\(rows)×\(columns)")
        }
    }

    func requireFinite(_ operation: String) throws {
        guard finiteMaxAbs() != nil else { throw LinearAlgebraError.nonFinite(operation: operation) }
    }

    /// Throws ``LinearAlgebraError/nonFinite(operation:)`` on NaN/Inf and
    /// ``LinearAlgebraError/notSymmetric(operation:maxAsymmetry:)`` unless
    /// `|A[i,j] − A[j,i]| ≤ tolerance · max(1, max|A|)` everywhere (square matrices only).
    func requireFiniteSymmetric(_ operation: String, tolerance: Double) throws {
        guard let largest = finiteMaxAbs() else { throw LinearAlgebraError.nonFinite(operation: operation) }
        let limit = tolerance * Swift.max(1, largest)
        let n = rows
        // Tiles keep the transposed reads in cache; four independent maxima, no branches.
        let violated: Bool = elements.withUnsafeBufferPointer { p in
            var w0 = 0.0, w1 = 0.0, w2 = 0.0, w3 = 0.0
            let tile = 32
            for jb in stride(from: 0, to: n, by: tile) {
                for ib in stride(from: jb, to: n, by: tile) {
                    let iEnd = Swift.min(ib + tile, n)
                    for j in jb..<Swift.min(jb + tile, n) {
                        var i = Swift.max(ib, j + 1)
                        let column = j * n
                        while i + 4 <= iEnd {
                            let d0 = abs(p[i + column] - p[j + i * n])
                            let d1 = abs(p[i + 1 + column] - p[j + (i + 1) * n])
                            let d2 = abs(p[i + 2 + column] - p[j + (i + 2) * n])
                            let d3 = abs(p[i + 3 + column] - p[j + (i + 3) * n])
                            w0 = d0 > w0 ? d0 : w0
                            w1 = d1 > w1 ? d1 : w1
                            w2 = d2 > w2 ? d2 : w2
                            w3 = d3 > w3 ? d3 : w3
                            i += 4
                        }
                        while i < iEnd {
                            let d = abs(p[i + column] - p[j + i * n])
                            w0 = d > w0 ? d : w0
                            i += 1
                        }
                    }
                }
            }
            return Swift.max(Swift.max(w0, w1), Swift.max(w2, w3)) > limit
        }
        if violated {
            var worst = 0.0
            for j in 0..<n { for i in (j + 1)..<Swift.max(n, j + 1) { worst = Swift.max(worst, abs(self[i, j] - self[j, i])) } }
            throw LinearAlgebraError.notSymmetric(operation: operation, maxAsymmetry: worst)
        }
    }
}
