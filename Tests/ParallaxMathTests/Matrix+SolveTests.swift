import Testing
@testable import ParallaxMath

@Suite struct SolveTests {
    @Test func solvesSquareSystems() throws {
        let a = TestSupport.randomMatrix(rows: 9, columns: 9, seed: 21)
        let xTrue = TestSupport.randomMatrix(rows: 9, columns: 3, seed: 22)
        let b = try a * xTrue
        #expect(try TestSupport.distance(try a.solve(b), xTrue) < 1e-12)
        #expect(try a.solve(b.column(0)).elementsClose(to: xTrue.column(0), 1e-12))
    }

    @Test func singularSystemsThrow() {
        #expect(throws: LinearAlgebraError.singular(routine: "LAPACKE_dgesv", pivot: 2, rcond: nil)) {
            _ = try Matrix([[1, 1], [1, 1]]).solve([1, 2])
        }
        let nearly = Matrix([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
        #expect {
            _ = try nearly.solve([1, 2, 3])
        } throws: { error in
            guard case let LinearAlgebraError.singular(_, _, rcond) = error else { return false }
            return (rcond ?? 1) < Double.ulpOfOne || rcond == nil
        }
    }

    @Test func shapeAndFinitenessErrors() {
        #expect(throws: LinearAlgebraError.dimensionMismatch(operation: "LAPACKE_dgesv", expected: "3 rows", got: "2")) {
            _ = try Matrix.identity(3).solve([1, 2])
        }
        #expect(throws: LinearAlgebraError.nonFinite(operation: "LAPACKE_dgesv")) {
            _ = try Matrix.identity(2).solve([.nan, 1])
        }
    }

    @Test func leastSquaresFitsALine() throws {
        // y = 2x + 1 sampled exactly plus symmetric perturbations that cancel in the fit.
        let xs: [Double] = [0, 1, 2, 3]
        var a = Matrix(rows: 4, columns: 2)
        for (i, x) in xs.enumerated() { a[i, 0] = x; a[i, 1] = 1 }
        let y = xs.map { 2 * $0 + 1 }
        let fit = try a.leastSquares(y.asColumn)
        #expect(abs(fit[0, 0] - 2) < 1e-14 && abs(fit[1, 0] - 1) < 1e-14)

        let big = TestSupport.randomMatrix(rows: 50, columns: 6, seed: 31)
        let rhs = TestSupport.randomMatrix(rows: 50, columns: 1, seed: 32)
        let x = try big.leastSquares(rhs)
        // Normal equations hold at the optimum: Aᵀ(Ax − b) = 0.
        let residual = try (try big * x) - rhs
        #expect(try big.multiplied(by: residual, transposeSelf: true).maxAbs < 1e-12)
    }

    @Test func leastSquaresRejectsRankDeficiency() {
        let a = Matrix([[1, 2], [2, 4], [3, 6]])
        #expect(throws: LinearAlgebraError.rankDeficient(routine: "LAPACKE_dgels", diagonalIndex: 2)) {
            _ = try a.leastSquares([1, 2, 3].asColumn)
        }
    }
}

extension Array where Element == Double {
    func elementsClose(to other: [Double], _ tol: Double) -> Bool {
        count == other.count && zip(self, other).allSatisfy { abs($0 - $1) <= tol }
    }
}
