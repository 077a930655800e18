import ParallaxMath

/// Seeded random matrices and tolerance helpers shared by the math tests.
enum TestSupport {
    /// A matrix with entries uniform in [-1, 1), deterministic by seed.
    static func randomMatrix(rows: Int, columns: Int, seed: UInt64) -> Matrix {
        var rng = SeededGenerator(seed: seed)
        var m = Matrix(rows: rows, columns: columns)
        for k in m.elements.indices { m.elements[k] = Double.random(in: -1..<1, using: &rng) }
        return m
    }

    /// A symmetric positive-definite matrix `AᵀA + n·I`.
    static func randomSPD(_ n: Int, seed: UInt64) -> Matrix {
        var g = randomMatrix(rows: n, columns: n, seed: seed).gram()
        for i in 0..<n { g[i, i] += Double(n) }
        return g
    }

    /// The n×n Hilbert matrix: condition number ~1e10 at n = 8 (ill-conditioned, SPD).
    static func hilbert(_ n: Int) -> Matrix {
        var h = Matrix(rows: n, columns: n)
        for i in 0..<n { for j in 0..<n { h[i, j] = 1 / Double(i + j + 1) } }
        return h
    }

    /// A matrix with prescribed singular values (`U diag(σ) Vᵀ` from random orthogonal factors).
    static func withSingularValues(_ sigma: [Double], rows: Int, columns: Int, seed: UInt64) throws -> Matrix {
        let u = try QR(randomMatrix(rows: rows, columns: rows, seed: seed)).q()
        let v = try QR(randomMatrix(rows: columns, columns: columns, seed: seed &+ 1)).q()
        var s = Matrix(rows: rows, columns: columns)
        for (i, x) in sigma.enumerated() { s[i, i] = x }
        return try u.multiplied(by: s).multiplied(by: v, transposeOther: true)
    }

    /// ‖A − B‖_F.
    static func distance(_ a: Matrix, _ b: Matrix) throws -> Double { try (a - b).frobeniusNorm }

    /// Whether two 3-vectors agree to `tol` (absolute).
    static func close(_ a: Vector3, _ b: Vector3, _ tol: Double) -> Bool { (a - b).norm <= tol }
}
