import Foundation
import Testing
@testable import ParallaxMath

@Suite struct CholeskyTests {
    /// The small in-place solve agrees with LAPACK's factor on a random 6 × 6 system, and refuses
    /// what is not positive definite.
    @Test func smallSolveMatchesLAPACK() throws {
        var rng = SeededGenerator(seed: 4)
        var m = Matrix(rows: 6, columns: 6)
        for i in 0..<6 { for j in 0..<6 { m[i, j] = Double(rng.next() % 1000) / 500 - 1 } }
        var a = try m.transposed * m
        for i in 0..<6 { a[i, i] += 0.5 }
        let b = (0..<6).map { Double($0) - 2.5 }
        let expected = try Cholesky(a).solve(Matrix(rows: 6, columns: 1, columnMajor: b))
        var rowMajor = (0..<36).map { a[$0 / 6, $0 % 6] }, x = b
        #expect(Cholesky.solveSmall(&rowMajor, &x, n: 6))
        for i in 0..<6 { #expect(abs(x[i] - expected[i, 0]) < 1e-10) }
        var indefinite = [1.0, 2, 2, 1], y = [1.0, 1]
        #expect(!Cholesky.solveSmall(&indefinite, &y, n: 2))
        var short = [1.0], z = [1.0, 2]
        #expect(!Cholesky.solveSmall(&short, &z, n: 2))
    }

    @Test(arguments: [1, 4, 15, 60, 300])
    func reconstructsSPD(n: Int) throws {
        let a = TestSupport.randomSPD(n, seed: UInt64(n))
        let chol = try Cholesky(a)
        let l = chol.l
        for j in 1..<max(n, 1) { for i in 0..<j { #expect(l[i, j] == 0) } }
        #expect(try TestSupport.distance(try l.multiplied(by: l, transposeOther: true), a) <= 1e-12 * a.frobeniusNorm)
    }

    @Test func illConditionedHilbertFactors() throws {
        let h = TestSupport.hilbert(8)  // cond ≈ 1.5e10, still SPD
        let l = try Cholesky(h).l
        #expect(try TestSupport.distance(try l.multiplied(by: l, transposeOther: true), h) <= 1e-14 * h.frobeniusNorm * 10)
    }

    @Test func solvesAndAgreesWithPosv() throws {
        let a = TestSupport.randomSPD(12, seed: 5)
        let b = TestSupport.randomMatrix(rows: 12, columns: 2, seed: 6)
        let x1 = try Cholesky(a).solve(b)
        let x2 = try a.solvePositiveDefinite(b)
        #expect(try TestSupport.distance(try a * x1, b) < 1e-12)
        #expect(try TestSupport.distance(x1, x2) < 1e-13)
        #expect(abs(try Cholesky(Matrix.diagonal([2, 3])).logDeterminant - (2.0 * 3.0).logValue) < 1e-15)
    }

    @Test func notPositiveDefiniteThrowsWithMinor() {
        let indefinite = Matrix([[4, 2, 0], [2, 1, 0], [0, 0, 1]])  // singular leading 2×2
        #expect(throws: LinearAlgebraError.notPositiveDefinite(routine: "LAPACKE_dpotrf", minor: 2)) {
            _ = try Cholesky(indefinite)
        }
        #expect(throws: LinearAlgebraError.notPositiveDefinite(routine: "LAPACKE_dposv", minor: 1)) {
            _ = try Matrix([[-1, 0], [0, 1]]).solvePositiveDefinite(Matrix(rows: 2, columns: 1))
        }
    }

    @Test func otherErrorPaths() {
        #expect(throws: LinearAlgebraError.notSymmetric(operation: "LAPACKE_dpotrf", maxAsymmetry: 1)) {
            _ = try Cholesky(Matrix([[2, 1], [0, 2]]))
        }
        #expect(throws: LinearAlgebraError.dimensionMismatch(operation: "LAPACKE_dpotrf", expected: "square matrix", got: "2×3")) {
            _ = try Cholesky(Matrix(rows: 2, columns: 3))
        }
        #expect(throws: LinearAlgebraError.nonFinite(operation: "LAPACKE_dpotrf")) {
            _ = try Cholesky(Matrix([[.nan, 0], [0, 1]]))
        }
        #expect(throws: LinearAlgebraError.self) { _ = try Cholesky(Matrix.identity(2)).solve(Matrix(rows: 3, columns: 1)) }
        // Without the symmetry pass, non-finite input is still caught (by dpotrf or the factor's diagonal).
        #expect(throws: LinearAlgebraError.nonFinite(operation: "LAPACKE_dpotrf")) {
            _ = try Cholesky(Matrix([[.infinity]]), symmetryTolerance: nil)
        }
        #expect(throws: LinearAlgebraError.nonFinite(operation: "LAPACKE_dpotrf")) {
            _ = try Cholesky(Matrix([[4, 0], [.nan, 4]]), symmetryTolerance: nil)
        }
        #expect(throws: LinearAlgebraError.nonFinite(operation: "LAPACKE_dpotrf")) {
            _ = try Cholesky(Matrix([[4, 0], [.infinity, 4]]), symmetryTolerance: nil)
        }
    }
}

extension Double {
    var logValue: Double { Foundation.log(self) }
}
