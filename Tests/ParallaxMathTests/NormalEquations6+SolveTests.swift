import Foundation
import Testing
@testable import ParallaxMath

@Suite struct NormalEquations6SolveTests {
    /// Normal equations with `H` = `a` (symmetric 6 × 6) and gradient `g`.
    static func equations(_ a: Matrix, _ g: [Double]) -> NormalEquations6 {
        func row(_ i: Int) -> SIMD8<Double> {
            var r = SIMD8<Double>.zero
            for j in 0...i { r[j] = a[i, j] }
            return r
        }
        return NormalEquations6(lower: row(0), row(1), row(2), row(3), row(4), row(5), gradient: SIMD8(g[0], g[1], g[2], g[3], g[4], g[5], 0, 0))
    }

    /// LAPACK's solve of `(H + λ·diag(max(Hᵢᵢ, 1e-12))) δ = −g`.
    static func lapackStep(_ a: Matrix, _ g: [Double], damping: Double) throws -> [Double] {
        var damped = a
        for i in 0..<6 { damped[i, i] += damping * max(a[i, i], 1e-12) }
        return try damped.solvePositiveDefinite(Matrix(rows: 6, columns: 1, columnMajor: g.map { -$0 })).elements
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func agreesWithLAPACKOnRandomSystems(seed: UInt64) throws {
        let a = TestSupport.randomSPD(6, seed: seed)
        let g = TestSupport.randomMatrix(rows: 6, columns: 1, seed: seed &+ 100).elements
        for damping in [0.0, 1e-3, 10] {
            let expected = try Self.lapackStep(a, g, damping: damping)
            let step = try #require(Self.equations(a, g).dampedStep(damping: damping))
            for i in 0..<6 { #expect(abs(step[i] - expected[i]) <= 1e-12 * max(1, abs(expected[i])), "seed \(seed) λ \(damping) [\(i)]") }
            #expect(step[6] == 0 && step[7] == 0)
        }
    }

    /// The 6 × 6 Hilbert matrix (condition ~1.5e7) and one with eigenvalues 1 … 1e-12
    /// (condition 1e12): the step leaves a residual `‖Hδ + g‖` as small as LAPACK's does.
    @Test func asAccurateAsLAPACKWhenIllConditioned() throws {
        let q = try QR(TestSupport.randomMatrix(rows: 6, columns: 6, seed: 9)).q()
        let spread = try q.multiplied(by: Matrix.diagonal([1, 1e-2, 1e-4, 1e-6, 1e-8, 1e-12])).multiplied(by: q, transposeOther: true)
        var symmetric = spread
        for i in 0..<6 { for j in 0..<6 { symmetric[i, j] = (spread[i, j] + spread[j, i]) / 2 } }
        for a in [TestSupport.hilbert(6), symmetric] {
            let g = [1.0, -2, 0.5, 3, -1, 0.25]
            /// ‖a δ + g‖.
            func residual(_ delta: [Double]) -> Double {
                (0..<6).map { i in (0..<6).reduce(g[i]) { $0 + a[i, $1] * delta[$1] } }.reduce(0) { $0 + $1 * $1 }.squareRoot()
            }
            let expected = try Self.lapackStep(a, g, damping: 0)
            let step = try #require(Self.equations(a, g).dampedStep(damping: 0))
            let ours = residual((0..<6).map { step[$0] })
            #expect(ours <= 10 * residual(expected) + 1e-12, "residual \(ours) vs LAPACK's \(residual(expected))")
        }
    }

    @Test func refusesWhatIsNotPositiveDefinite() {
        var a = Matrix.identity(6)
        a[3, 3] = -1
        #expect(Self.equations(a, [Double](repeating: 1, count: 6)).dampedStep(damping: 0) == nil)
        // Damping cannot rescue a negative pivot (it scales by max(Hᵢᵢ, 1e-12)), only a small one.
        #expect(Self.equations(a, [Double](repeating: 1, count: 6)).dampedStep(damping: 1e3) == nil)
        var nan = Matrix.identity(6)
        nan[2, 1] = .nan
        #expect(Self.equations(nan, [Double](repeating: 1, count: 6)).dampedStep(damping: 0) == nil)
        #expect(NormalEquations6().dampedStep(damping: 0) == nil)  // all zero: singular
    }

    @Test func gradientNormIsTheLargestMagnitude() {
        let e = Self.equations(Matrix.identity(6), [1, -7, 3, 2, -0.5, 6])
        #expect(e.gradientNorm == 7)
    }
}
