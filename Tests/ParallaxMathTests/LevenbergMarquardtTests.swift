import Foundation
import Testing
@testable import ParallaxMath

@Suite struct LevenbergMarquardtTests {
    @Test func fitsAnExponentialDecay() throws {
        let xs = (0..<40).map { Double($0) * 0.1 }
        var rng = SeededGenerator(seed: 3)
        let ys = xs.map { 2.5 * exp(-1.3 * $0) + 1e-4 * rng.nextGaussian() }
        let result = try LevenbergMarquardt().minimize(
            initial: [1, -0.1],
            residuals: { p in xs.indices.map { p[0] * exp(p[1] * xs[$0]) - ys[$0] } },
            jacobian: { p in
                var j = Matrix(rows: xs.count, columns: 2)
                for (i, x) in xs.enumerated() {
                    j[i, 0] = exp(p[1] * x)
                    j[i, 1] = p[0] * x * exp(p[1] * x)
                }
                return j
            })
        #expect(abs(result.parameters[0] - 2.5) < 1e-3)
        #expect(abs(result.parameters[1] + 1.3) < 1e-3)
        #expect(result.finalCost < result.initialCost)
        #expect(result.termination != .maxIterations)
    }

    @Test func solvesRosenbrockFromTheClassicStart() throws {
        // r = (10(y − x²), 1 − x): minimum at (1, 1).
        let result = try LevenbergMarquardt().minimize(
            initial: [-1.2, 1],
            residuals: { p in [10 * (p[1] - p[0] * p[0]), 1 - p[0]] },
            jacobian: { p in Matrix([[-20 * p[0], 10], [-1, 0]]) })
        #expect(abs(result.parameters[0] - 1) < 1e-8 && abs(result.parameters[1] - 1) < 1e-8)
    }

    @Test func badProblemsThrow() {
        #expect(throws: LevenbergMarquardt.SolverError.residualNotFinite(iteration: 0)) {
            _ = try LevenbergMarquardt().minimize(initial: [0], residuals: { _ in [.nan] }, jacobian: { _ in Matrix(rows: 1, columns: 1) })
        }
        #expect(throws: LevenbergMarquardt.SolverError.self) {
            _ = try LevenbergMarquardt().minimize(initial: [0], residuals: { _ in [1] }, jacobian: { _ in Matrix(rows: 2, columns: 1) })
        }
    }
}
