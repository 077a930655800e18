extension NormalEquations6 {
    /// The Levenberg–Marquardt step `δ` of `(H + λ·diag(max(Hᵢᵢ, 10⁻¹²))) δ = −g`, by a 6 × 6
    /// Cholesky factorization on the stack (no heap, no LAPACK: LAPACKE costs ~3 µs a call
    /// at this size, the factorization itself ~0.1 µs). `damping` is `λ` (≥ 0; 0 gives the
    /// Gauss–Newton step). Lanes 6 and 7 of the result are 0. `nil` when the damped matrix is not
    /// positive definite or the step is not finite (the caller raises `λ`).
    @inlinable public func dampedStep(damping: Double) -> SIMD8<Double>? {
        // Lower triangle, row-major in a stack buffer: l[i * 6 + j], j ≤ i.
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 42) { l -> SIMD8<Double>? in
            l[0] = h00
            l[6] = h10; l[7] = h11
            l[12] = h20; l[13] = h21; l[14] = h22
            l[18] = h30; l[19] = h31; l[20] = h32; l[21] = h33
            l[24] = h40; l[25] = h41; l[26] = h42; l[27] = h43; l[28] = h44
            l[30] = h50; l[31] = h51; l[32] = h52; l[33] = h53; l[34] = h54; l[35] = h55
            for i in 0..<6 { l[i * 6 + i] += damping * max(l[i * 6 + i], 1e-12) }
            // L with its diagonal stored inverted (one division per column; the substitutions
            // multiply: no division waits on another).
            for j in 0..<6 {
                var d = l[j * 6 + j]
                for k in 0..<j { d -= l[j * 6 + k] * l[j * 6 + k] }
                guard d > 0, d.isFinite else { return nil }
                let inverse = 1 / d.squareRoot()
                l[j * 6 + j] = inverse
                var i = j + 1
                while i < 6 {
                    var s = l[i * 6 + j]
                    for k in 0..<j { s -= l[i * 6 + k] * l[j * 6 + k] }
                    l[i * 6 + j] = s * inverse
                    i += 1
                }
            }
            // The right-hand side in plain stack slots after L (a SIMD8 indexed element by element
            // would be stored and reloaded whole: a store-forwarding stall per element).
            let x = l.baseAddress.map { $0 + 36 }
            guard let x else { return nil }
            x[0] = -g0; x[1] = -g1; x[2] = -g2; x[3] = -g3; x[4] = -g4; x[5] = -g5
            for i in 0..<6 {  // L y = −g
                var s = x[i]
                for k in 0..<i { s -= l[i * 6 + k] * x[k] }
                x[i] = s * l[i * 6 + i]
            }
            for i in stride(from: 5, through: 0, by: -1) {  // Lᵀ δ = y
                var s = x[i]
                var k = i + 1
                while k < 6 {
                    s -= l[k * 6 + i] * x[k]
                    k += 1
                }
                x[i] = s * l[i * 6 + i]
            }
            for i in 0..<6 where !x[i].isFinite { return nil }
            return SIMD8(x[0], x[1], x[2], x[3], x[4], x[5], 0, 0)
        }
    }

    /// The decrease of the cost that the quadratic model `½δᵀHδ + gᵀδ` predicts for the step
    /// `δ` (lanes 0–5): `−gᵀδ − ½δᵀHδ`.
    @inlinable public func predictedDecrease(_ d: SIMD8<Double>) -> Double {
        let hd0 = h00 * d[0] + h10 * d[1] + h20 * d[2] + h30 * d[3] + h40 * d[4] + h50 * d[5]
        let hd1 = h10 * d[0] + h11 * d[1] + h21 * d[2] + h31 * d[3] + h41 * d[4] + h51 * d[5]
        let hd2 = h20 * d[0] + h21 * d[1] + h22 * d[2] + h32 * d[3] + h42 * d[4] + h52 * d[5]
        let hd3 = h30 * d[0] + h31 * d[1] + h32 * d[2] + h33 * d[3] + h43 * d[4] + h53 * d[5]
        let hd4 = h40 * d[0] + h41 * d[1] + h42 * d[2] + h43 * d[3] + h44 * d[4] + h54 * d[5]
        let hd5 = h50 * d[0] + h51 * d[1] + h52 * d[2] + h53 * d[3] + h54 * d[4] + h55 * d[5]
        let dhd = d[0] * hd0 + d[1] * hd1 + d[2] * hd2 + d[3] * hd3 + d[4] * hd4 + d[5] * hd5
        let gd = g0 * d[0] + g1 * d[1] + g2 * d[2] + g3 * d[3] + g4 * d[4] + g5 * d[5]
        return -gd - 0.5 * dhd
    }

    /// `max |gᵢ|`: the gradient's infinity norm.
    @inlinable public var gradientNorm: Double {
        max(max(max(abs(g0), abs(g1)), max(abs(g2), abs(g3))), max(abs(g4), abs(g5)))
    }
}
