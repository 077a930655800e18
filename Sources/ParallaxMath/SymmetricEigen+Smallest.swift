extension SymmetricEigen {
    /// The smallest eigenvalue of a symmetric positive semi-definite matrix, its unit
    /// eigenvector, and an estimate of the second smallest eigenvalue.
    public struct SmallestPair: Sendable {
        /// λ₁ (the Rayleigh quotient of ``vector``).
        public var value: Double
        /// Its unit eigenvector (sign as the iteration left it).
        public var vector: [Double]
        /// The Rayleigh quotient of a unit vector orthogonal to ``vector`` after four steps of
        /// inverse iteration on that complement: an estimate of λ₂ from above (never below it,
        /// to rounding; close to it when λ₂ ≪ λ₃, loose when λ₂ ≈ λ₃). A small value means λ₂
        /// may be near zero; a large one proves nothing about a gap above λ₁ by itself.
        public var second: Double
    }

    /// Largest size ``smallest(_:n:)`` takes (its buffers live on the stack).
    public static let smallestMaximumSize = 16

    /// The smallest eigenpair of a small (`n` ≤ ``smallestMaximumSize``) symmetric positive
    /// semi-definite matrix `a` (`n × n`, row-major, the lower triangle read) by inverse
    /// iteration on one Cholesky factor of `a + μI` (`μ` = 10⁻¹⁴·trace, so a singular `a`
    /// factors): the null vector of a direct linear transform's normal matrix without LAPACK
    /// (`dsyevd` for 12 × 12: ~120 000 instructions; this: ~20 000 for a face's DLT). Each
    /// step shrinks the error by `(λ₁ + μ)/(λ₂ + μ)`. `nil` when it does not apply or does not
    /// settle — `a` is not finite or positive semi-definite, `n` is out of range, or λ₁ and λ₂
    /// are too close to converge in 60 steps — and the caller uses
    /// ``init(_:symmetryTolerance:)`` instead. The iteration stops once the unit vector moves
    /// by at most `tolerance` in a step (10⁻⁷ by default; a start for a refinement needs far
    /// less: a direct linear transform's own error is larger than 10⁻³).
    public static func smallest(_ a: [Double], n: Int, tolerance: Double = 1e-7) -> SmallestPair? {
        guard n >= 2, n <= smallestMaximumSize, a.count >= n * n else { return nil }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * smallestMaximumSize + smallestMaximumSize * smallestMaximumSize) { buffer -> SmallestPair? in
            guard let base = buffer.baseAddress else { return nil }
            // Raw pointers into one stack buffer: L (n × n), then x, y, z (n each).
            let l = base, x = base + n * n, y = x + n, z = y + n
            var trace = 0.0
            for i in 0..<n { trace += a[i * n + i] }
            guard trace.isFinite, trace > 0 else { return nil }
            let shift = 1e-14 * trace
            // Cholesky factor L of a + μI (lower triangle of l, row-major), its diagonal stored
            // inverted: the substitutions multiply, no division waits on another.
            a.withUnsafeBufferPointer { a in
                for i in 0..<n { for j in 0...i { l[i * n + j] = a[i * n + j] } }
            }
            for i in 0..<n { l[i * n + i] += shift }
            // Rows by pointer (n ≤ 16: no index can overflow; the checked `i * n + k` of every
            // product was most of the factorization's instructions).
            for j in 0..<n {
                let rowJ = l + j &* n
                var d = rowJ[j]
                for k in 0..<j { d -= rowJ[k] * rowJ[k] }
                guard d > 0, d.isFinite else { return nil }
                let inverse = 1 / d.squareRoot()
                rowJ[j] = inverse
                var i = j &+ 1
                while i < n {
                    let rowI = l + i &* n
                    var s = rowI[j]
                    for k in 0..<j { s -= rowI[k] * rowJ[k] }
                    rowI[j] = s * inverse
                    i &+= 1
                }
            }
            // A fixed, generic start (no component is zero): deterministic. The first step's y is
            // not unit, so the first comparison never stops the loop.
            for i in 0..<n { x[i] = 1 + Double(i) / Double(2 * n) }
            var converged = false
            for _ in 0..<60 {
                for i in 0..<n { y[i] = x[i] }
                guard Self.inverseStep(x, l, n).isFinite else { return nil }
                // Converged when the direction stops changing (up to sign): |Δ| ≤ tolerance
                // (each step gains the factor λ₁/λ₂ more).
                var dot = 0.0
                for i in 0..<n { dot += x[i] * y[i] }
                let sign: Double = dot < 0 ? -1 : 1
                var change = 0.0
                for i in 0..<n { change += (x[i] - sign * y[i]) * (x[i] - sign * y[i]) }
                if change <= tolerance * tolerance {
                    converged = true
                    break
                }
            }
            guard converged else { return nil }
            for i in 0..<n where !x[i].isFinite { return nil }
            // The second: inverse iteration on the complement of x (projected every step).
            for i in 0..<n { z[i] = Double(i % 2 == 0 ? 1 : -1) * (1 + Double(i) / Double(3 * n)) }
            for _ in 0..<4 {
                var dot = 0.0
                for i in 0..<n { dot += z[i] * x[i] }
                for i in 0..<n { z[i] -= dot * x[i] }
                guard Self.inverseStep(z, l, n).isFinite else { return nil }
            }
            var dot = 0.0
            for i in 0..<n { dot += z[i] * x[i] }
            for i in 0..<n { z[i] -= dot * x[i] }
            var norm = 0.0
            for i in 0..<n { norm += z[i] * z[i] }
            norm = norm.squareRoot()
            guard norm > 0.5 else { return nil }
            for i in 0..<n { z[i] /= norm }
            return a.withUnsafeBufferPointer { a in
                SmallestPair(value: Self.rayleigh(a, x, n), vector: Array(UnsafeBufferPointer(start: x, count: n)), second: Self.rayleigh(a, z, n))
            }
        }
    }

    /// v ← (L Lᵀ)⁻¹ v, normalized (`l` row-major n × n, lower triangle, its diagonal inverted);
    /// v's norm before normalizing.
    @inline(__always) static func inverseStep(_ v: UnsafeMutablePointer<Double>, _ l: UnsafeMutablePointer<Double>, _ n: Int) -> Double {
        // L y = v: row i of L against y[0..<i].
        var row = l
        for i in 0..<n {
            var s = v[i]
            var k = 0
            while k < i {
                s -= row[k] * v[k]
                k &+= 1
            }
            v[i] = s * row[i]
            row += n
        }
        // Lᵀ x = y: column i of L below the diagonal, accumulated row by row from the bottom
        // (x[i] -= L[k, i]·x[k] for k > i, as x[k] is known).
        var i = n - 1
        while i >= 0 {
            let rowI = l + i &* n
            let xi = v[i] * rowI[i]
            v[i] = xi
            var k = 0
            while k < i {
                v[k] -= rowI[k] * xi
                k &+= 1
            }
            i &-= 1
        }
        var norm = 0.0
        for i in 0..<n { norm += v[i] * v[i] }
        norm = norm.squareRoot()
        if norm > 0 {
            let inverse = 1 / norm
            for i in 0..<n { v[i] *= inverse }
        }
        return norm
    }

    /// vᵀ a v (the full symmetric matrix from its lower triangle).
    @inline(__always) static func rayleigh(_ a: UnsafeBufferPointer<Double>, _ v: UnsafeMutablePointer<Double>, _ n: Int) -> Double {
        var r = 0.0
        guard let base = a.baseAddress else { return r }
        for i in 0..<n {
            let row = base + i &* n
            var s = row[i] * v[i]
            for k in 0..<i { s += 2 * row[k] * v[k] }
            r += v[i] * s
        }
        return r
    }
}
