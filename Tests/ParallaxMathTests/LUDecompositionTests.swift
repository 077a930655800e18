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
}
