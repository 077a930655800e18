/// The closest rotation to a nearly orthonormal 3×3 matrix, without LAPACK.
extension Matrix3 {
    /// The orthonormal polar factor `R = M (MᵀM)^(-1/2)` — the rotation closest to `M` in the
    /// Frobenius norm, the same matrix as `U Vᵀ` from an SVD — by Newton's iteration
    /// `X ← (X + X⁻ᵀ) / 2` (Higham 1986), which converges quadratically: a matrix orthonormal
    /// to 1e-7 (7-digit files such as KITTI's) needs three steps. `nil` when `M` is singular,
    /// a reflection (det ≤ 0) or not near enough to converge in 30 steps; callers then fall
    /// back to the SVD.
    public var nearestRotationByPolarIteration: Matrix3? {
        guard determinant > 0 else { return nil }
        var x = self
        for _ in 0..<30 {
            guard let inverse = x.inverse else { return nil }
            let next = 0.5 * (x + inverse.transposed)
            let change = (next - x).frobeniusNorm
            x = next
            if change <= 1e-15 * 3 { return x }
        }
        return nil
    }
}
