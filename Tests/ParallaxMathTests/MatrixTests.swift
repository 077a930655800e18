import Testing
@testable import ParallaxMath

@Suite struct MatrixTests {
    @Test func storageIsColumnMajor() throws {
        let m = Matrix([[1, 2, 3], [4, 5, 6]])
        #expect(m.elements == [1, 4, 2, 5, 3, 6])
        #expect(m[1, 2] == 6)
        #expect(m.transposed == Matrix([[1, 4], [2, 5], [3, 6]]))
        #expect(m.row(1) == [4, 5, 6])
        #expect(m.column(2) == [3, 6])
    }

    @Test func copiesAreIndependent() {
        let a = Matrix.identity(3)
        var b = a
        b[0, 1] = 7
        #expect(a[0, 1] == 0)
        #expect(b[0, 1] == 7)
    }

    @Test func gemmMatchesNaiveProductIncludingTransposes() throws {
        let a = TestSupport.randomMatrix(rows: 7, columns: 5, seed: 1)
        let b = TestSupport.randomMatrix(rows: 5, columns: 4, seed: 2)
        var naive = Matrix(rows: 7, columns: 4)
        for i in 0..<7 { for j in 0..<4 { for k in 0..<5 { naive[i, j] += a[i, k] * b[k, j] } } }
        #expect(try TestSupport.distance(try a * b, naive) < 1e-14)
        let at = a.transposed, bt = b.transposed
        #expect(try TestSupport.distance(try at.multiplied(by: bt, transposeSelf: true, transposeOther: true), naive) < 1e-14)
        #expect(try TestSupport.distance(a.multiplied(by: [1, 0, 0, 0, 0]).asColumn, a.block(row: 0, column: 0, rows: 7, columns: 1)) == 0)
    }

    @Test func gramIsExactlySymmetricAndEqualsAtA() throws {
        let a = TestSupport.randomMatrix(rows: 30, columns: 6, seed: 3)
        let g = a.gram()
        #expect(g == g.transposed)
        #expect(try TestSupport.distance(g, try a.multiplied(by: a, transposeSelf: true)) < 1e-13)
    }

    @Test func mismatchedShapesThrow() {
        let a = Matrix(rows: 3, columns: 4)
        #expect(throws: LinearAlgebraError.dimensionMismatch(operation: "cblas_dgemm", expected: "inner dimension 4", got: "3")) {
            _ = try a * a
        }
        #expect(throws: LinearAlgebraError.self) { _ = try a + Matrix(rows: 4, columns: 3) }
        #expect(throws: LinearAlgebraError.self) { _ = try Matrix(rows: 2, columns: 2, columnMajor: [1, 2, 3]) }
        #expect(throws: LinearAlgebraError.self) { _ = try a.multiplied(by: [1, 2]) }
    }

    @Test func errorMessagesNameTheRoutine() {
        let e = LinearAlgebraError.notPositiveDefinite(routine: "LAPACKE_dpotrf", minor: 2)
        #expect(e.description.contains("LAPACKE_dpotrf"))
        #expect(e.description.contains("order 2"))
    }
}

extension Array where Element == Double {
    /// This vector as an n×1 matrix.
    var asColumn: Matrix { try! Matrix(rows: count, columns: 1, columnMajor: self) }
}
