import Testing
@testable import ParallaxMath

@Suite struct SVDTests {
    static let shapes: [(Int, Int)] = [(4, 4), (9, 9), (12, 5), (5, 12), (1, 1), (30, 30)]

    @Test(arguments: shapes)
    func reconstructsRandomMatrices(rows: Int, columns: Int) throws {
        let a = TestSupport.randomMatrix(rows: rows, columns: columns, seed: UInt64(rows * 100 + columns))
        for algorithm in [SVD.Algorithm.divideAndConquer, .qrIteration] {
            let svd = try SVD(a, algorithm: algorithm)
            #expect(try TestSupport.distance(try svd.reconstructed(), a) <= 1e-10 * a.frobeniusNorm)
            #expect(svd.singularValues == svd.singularValues.sorted(by: >))
            let k = min(rows, columns)
            #expect(try TestSupport.distance(svd.u.gram(), .identity(k)) < 1e-12)
            #expect(try TestSupport.distance(svd.vt.transposed.gram(), .identity(k)) < 1e-12)
        }
    }

    @Test func fullModeGivesSquareOrthogonalFactors() throws {
        let a = TestSupport.randomMatrix(rows: 8, columns: 3, seed: 9)
        let svd = try SVD(a, mode: .full)
        #expect(svd.u.rows == 8 && svd.u.columns == 8)
        #expect(svd.vt.rows == 3 && svd.vt.columns == 3)
        #expect(try TestSupport.distance(svd.u.gram(), .identity(8)) < 1e-12)
        #expect(try TestSupport.distance(try svd.reconstructed(), a) <= 1e-10 * a.frobeniusNorm)
    }

    @Test func illConditionedMatrixReconstructsAndKeepsTinySingularValues() throws {
        let sigma = [1, 1e-3, 1e-6, 1e-9, 1e-12]
        let a = try TestSupport.withSingularValues(sigma, rows: 5, columns: 5, seed: 4)
        let svd = try SVD(a)
        #expect(try TestSupport.distance(try svd.reconstructed(), a) <= 1e-10 * a.frobeniusNorm)
        for (got, want) in zip(svd.singularValues, sigma) { #expect(abs(got - want) <= 1e-14) }
        #expect(svd.rank() == 5)
        #expect(svd.rank(tolerance: 1e-8) == 3)

        let h = TestSupport.hilbert(8)
        #expect(try TestSupport.distance(try SVD(h).reconstructed(), h) <= 1e-10 * h.frobeniusNorm)
    }

    @Test func rankDeficientMatrixHasZeroSingularValue() throws {
        let a = Matrix([[1, 2, 3], [2, 4, 6], [1, 0, 1]])
        let svd = try SVD(a)
        #expect(svd.rank() == 2)
        #expect(svd.singularValues[2] < 1e-14)
    }

    @Test func nonFiniteInputThrows() {
        var a = Matrix.identity(3)
        a[1, 2] = .nan
        #expect(throws: LinearAlgebraError.nonFinite(operation: "LAPACKE_dgesdd")) { _ = try SVD(a) }
        a[1, 2] = .infinity
        #expect(throws: LinearAlgebraError.nonFinite(operation: "LAPACKE_dgesvd")) { _ = try SVD(a, algorithm: .qrIteration) }
    }
}
