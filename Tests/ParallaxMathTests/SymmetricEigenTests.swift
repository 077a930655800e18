import Testing
@testable import ParallaxMath

@Suite struct SymmetricEigenTests {
    @Test(arguments: [3, 9, 50])
    func decomposesSymmetricMatrices(n: Int) throws {
        var a = TestSupport.randomMatrix(rows: n, columns: n, seed: UInt64(n))
        a = try a + a.transposed
        let eig = try SymmetricEigen(a)
        #expect(eig.values == eig.values.sorted())
        #expect(try TestSupport.distance(eig.vectors.gram(), .identity(n)) < 1e-12)
        let av = try a * eig.vectors
        let vl = try eig.vectors * Matrix.diagonal(eig.values)
        #expect(try TestSupport.distance(av, vl) <= 1e-12 * a.frobeniusNorm)
    }

    @Test func knownSpectrum() throws {
        let eig = try SymmetricEigen(Matrix([[2, 1], [1, 2]]))
        #expect(abs(eig.values[0] - 1) < 1e-15 && abs(eig.values[1] - 3) < 1e-15)
    }

    @Test func errorPaths() {
        #expect(throws: LinearAlgebraError.self) { _ = try SymmetricEigen(Matrix([[1, 2], [3, 4]])) }
        #expect(throws: LinearAlgebraError.self) { _ = try SymmetricEigen(Matrix(rows: 2, columns: 3)) }
        #expect(throws: LinearAlgebraError.nonFinite(operation: "LAPACKE_dsyevd")) {
            _ = try SymmetricEigen(Matrix([[1, .infinity], [.infinity, 1]]))
        }
    }
}
