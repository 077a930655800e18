import ParallaxMath

/// Block operations on a filter covariance (column-major `Matrix`), done in place.
extension Matrix {
    /// Copies `block` into this matrix at (`row`, `column`).
    mutating func setBlock(row: Int, column: Int, _ block: Matrix) {
        for j in 0..<block.columns {
            for i in 0..<block.rows { self[row + i, column + j] = block[i, j] }
        }
    }

    /// This matrix with rows and columns `range` removed (a marginalized clone).
    func removing(_ range: Range<Int>) -> Matrix {
        let keep = (0..<rows).filter { !range.contains($0) }
        var out = Matrix(rows: keep.count, columns: keep.count)
        for (jj, j) in keep.enumerated() { for (ii, i) in keep.enumerated() { out[ii, jj] = self[i, j] } }
        return out
    }

    /// This matrix with rows and columns reordered: entry `(i, j)` of the result is
    /// `self[order[i], order[j]]`.
    func permuted(_ order: [Int]) -> Matrix {
        var out = Matrix(rows: order.count, columns: order.count)
        for (jj, j) in order.enumerated() { for (ii, i) in order.enumerated() { out[ii, jj] = self[i, j] } }
        return out
    }

    /// `(A + Aᵀ) / 2`: removes the asymmetry rounding leaves in a covariance.
    mutating func symmetrize() {
        for j in 0..<columns {
            for i in 0..<j {
                let m = 0.5 * (self[i, j] + self[j, i])
                self[i, j] = m
                self[j, i] = m
            }
        }
    }
}
