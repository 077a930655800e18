import Testing
@testable import ParallaxMath

@Suite struct LUDecompositionTests {
    @Test func determinantAndInverse() throws {
        let a = Matrix([[4, 3, 0], [3, 4, -1], [0, -1, 4]])
        #expect(abs(try a.determinant() - 24) < 1e-12)
        let inv = try a.inverse()
        #expect(try TestSupport.distance(try a * inv, .identity(3)) < 1e-14)
        // A row swap flips the sign.
        #expect(abs(try Matrix([[0, 1], [1, 0]]).determinant() + 1) < 1e-15)
    }

    @Test func randomInverseRoundTrip() throws {
        let a = TestSupport.randomMatrix(rows: 20, columns: 20, seed: 77)
        let lu = try LUDecomposition(a)
        #expect(lu.reciprocalCondition > 1e-6)
        #expect(try TestSupport.distance(try a * lu.inverse(), .identity(20)) < 1e-11)
    }

    @Test func singularMatricesThrow() throws {
        #expect(throws: LinearAlgebraError.singular(routine: "LAPACKE_dgetrf", pivot: 2, rcond: nil)) {
            _ = try LUDecomposition(Matrix([[1, 2], [0, 0]]))
        }
        // Numerically singular: rank 2 in exact arithmetic, rounding leaves a tiny pivot.
        let nearly = Matrix([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
        #expect(throws: LinearAlgebraError.self) { _ = try nearly.inverse() }
        #expect(try nearly.determinant().magnitude < 1e-12)
        #expect(throws: LinearAlgebraError.self) { _ = try Matrix(rows: 2, columns: 3).inverse() }
    }

    @Test func smallSolveMatchesLAPACKAndNeedsPivoting() throws {
        let a = TestSupport.randomMatrix(rows: 8, columns: 8, seed: 5)
        let b = (0..<8).map { Double($0) - 3.5 }
        var rowMajor = (0..<64).map { a[$0 / 8, $0 % 8] }, x = b
        #expect(LUDecomposition.solveSmall(&rowMajor, &x, n: 8))
        let lapack = try a.solve(b)
        #expect(zip(x, lapack).allSatisfy { abs($0 - $1) < 1e-10 })
        // A zero first pivot: only a row swap solves it.
        var swapped: [Double] = [0, 1, 1, 0], y: [Double] = [2, 3]
        #expect(LUDecomposition.solveSmall(&swapped, &y, n: 2) && y == [3, 2])
        var singular: [Double] = [1, 2, 2, 4], z: [Double] = [1, 1]
        #expect(!LUDecomposition.solveSmall(&singular, &z, n: 2))
    }
}
