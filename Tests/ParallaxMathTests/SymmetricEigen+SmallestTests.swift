import Foundation
import Testing
@testable import ParallaxMath

@Suite struct SymmetricEigenSmallestTests {
    /// `Q diag(values) Qᵀ` for a seeded random orthogonal `Q`, row-major, exactly symmetric.
    static func withEigenvalues(_ values: [Double], seed: UInt64) throws -> [Double] {
        let n = values.count
        let q = try QR(TestSupport.randomMatrix(rows: n, columns: n, seed: seed)).q()
        let a = try q.multiplied(by: Matrix.diagonal(values)).multiplied(by: q, transposeOther: true)
        return (0..<(n * n)).map { k in (a[k / n, k % n] + a[k % n, k / n]) / 2 }
    }

    /// |cos| of the angle between the result and LAPACK's eigenvector of the smallest eigenvalue.
    static func alignment(_ a: [Double], n: Int, _ v: [Double]) throws -> (cosine: Double, values: [Double]) {
        let eigen = try SymmetricEigen(Matrix(rows: n, columns: n, columnMajor: a))
        var dot = 0.0
        for i in 0..<n { dot += eigen.vectors[i, 0] * v[i] }
        return (abs(dot), eigen.values)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func agreesWithLAPACKOnRandomMatrices(seed: UInt64) throws {
        for n in [3, 6, 12] {
            // A positive semi-definite Gram matrix of random rows plus a well-separated smallest eigenvalue.
            let values = (0..<n).map { i in i == 0 ? 1e-3 : 0.5 + Double(i) }
            let a = try Self.withEigenvalues(values, seed: seed &+ UInt64(n))
            let pair = try #require(SymmetricEigen.smallest(a, n: n))
            let (cosine, lapack) = try Self.alignment(a, n: n, pair.vector)
            #expect(cosine > 1 - 1e-12, "n \(n) seed \(seed)")
            #expect(abs(pair.value - lapack[0]) <= 1e-12 * lapack[n - 1])
            // An estimate from above: at least λ₂, at most λₙ.
            #expect(pair.second >= lapack[1] * (1 - 1e-9) && pair.second <= lapack[n - 1] * (1 + 1e-9), "second \(pair.second) vs \(lapack[1])")
            #expect(abs(pair.vector.reduce(0) { $0 + $1 * $1 } - 1) < 1e-12)
        }
    }

    /// A looser `tolerance` stops sooner on close eigenvalues (λ₁/λ₂ = 0.8: slow convergence)
    /// and still leaves the vector within about that tolerance of LAPACK's (the error after the
    /// last step is smaller than the step); the default 10⁻⁷ is out of reach in 60 steps here
    /// (0.8⁶⁰ ≈ 10⁻⁶), so it answers nil and a caller asks LAPACK.
    @Test func aLooserToleranceStaysWithinIt() throws {
        let a = try Self.withEigenvalues([0.8, 1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9, 10], seed: 9)
        #expect(SymmetricEigen.smallest(a, n: 12) == nil)
        for tolerance in [1e-3, 1e-4, 1e-5] {
            let pair = try #require(SymmetricEigen.smallest(a, n: 12, tolerance: tolerance))
            let (cosine, _) = try Self.alignment(a, n: 12, pair.vector)
            // |Δ| of two unit vectors at angle θ is 2 sin(θ/2) ≈ θ; 1 − cos θ ≈ θ²/2.
            let angle = acos(min(1, cosine))
            #expect(angle <= 5 * tolerance, "tolerance \(tolerance): angle \(angle)")
        }
    }

    /// Singular (an exact null vector) and ill-conditioned (eigenvalues over 16 decades): the
    /// null direction still comes out as LAPACK's.
    @Test func findsTheNullVectorOfSingularAndIllConditionedMatrices() throws {
        let singular = try Self.withEigenvalues([0, 1e-4, 1e-2, 1, 3, 10, 30, 100, 300, 1e3, 3e3, 1e4], seed: 7)
        let spread = try Self.withEigenvalues([1e-12, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1, 10, 1e2, 1e3, 1e4], seed: 8)
        for a in [singular, spread] {
            let pair = try #require(SymmetricEigen.smallest(a, n: 12))
            let (cosine, lapack) = try Self.alignment(a, n: 12, pair.vector)
            #expect(cosine > 1 - 1e-9)
            #expect(abs(pair.value - lapack[0]) <= 1e-12 * lapack[11])
            #expect(pair.second >= lapack[1] * (1 - 1e-6) - 1e-12 * lapack[11])
        }
    }

    /// Two equal smallest eigenvalues: a vector of their plane (λ₁ right; `second` only bounds
    /// λ₂ from above, so a caller that needs a clear gap must ask LAPACK when `second` is small). What is not positive
    /// semi-definite, finite or small enough is refused.
    @Test func showsATieAndRefusesWhatItCannotAnswer() throws {
        let tied = try Self.withEigenvalues([1, 1, 2, 3, 4, 5], seed: 3)
        let pair = try #require(SymmetricEigen.smallest(tied, n: 6))
        #expect(abs(pair.value - 1) < 1e-10 && pair.second >= 1 - 1e-9 && pair.second <= 5)
        let indefinite = try Self.withEigenvalues([-1, 1, 2, 3], seed: 4)
        #expect(SymmetricEigen.smallest(indefinite, n: 4) == nil)
        var nan = try Self.withEigenvalues([1, 2, 3], seed: 5)
        nan[4] = .nan
        #expect(SymmetricEigen.smallest(nan, n: 3) == nil)
        #expect(SymmetricEigen.smallest([Double](repeating: 0, count: 17 * 17), n: 17) == nil)
        #expect(SymmetricEigen.smallest([1, 0, 0], n: 2) == nil)
    }
}
