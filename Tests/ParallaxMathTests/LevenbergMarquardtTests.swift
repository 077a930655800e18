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

    /// The same problem given as normal equations on a space with its own step: Rosenbrock from
    /// the classic start, steps applied by a retraction that records how often it ran.
    @Test func solvesFromNormalEquations() throws {
        func equations(_ p: [Double]) -> LevenbergMarquardt.NormalEquations {
            let r = [10 * (p[1] - p[0] * p[0]), 1 - p[0]]
            let j = [[-20 * p[0], 10.0], [-1, 0]]
            var h = [Double](repeating: 0, count: 4), g = [0.0, 0]
            for k in 0..<2 { for a in 0..<2 { g[a] += j[k][a] * r[k]; for b in 0..<2 { h[a * 2 + b] += j[k][a] * j[k][b] } } }
            return .init(cost: 0.5 * (r[0] * r[0] + r[1] * r[1]), hessian: h, gradient: g)
        }
        var steps = 0
        let result = try LevenbergMarquardt().minimize(initial: [-1.2, 1.0], dimension: 2, evaluate: equations) { p, d in
            steps += 1
            return [p[0] + d[0], p[1] + d[1]]
        }
        #expect(abs(result.state[0] - 1) < 1e-6 && abs(result.state[1] - 1) < 1e-6)
        #expect(steps >= result.iterations && result.termination != .maxIterations)
        #expect(throws: LevenbergMarquardt.SolverError.residualNotFinite(iteration: 0)) {
            _ = try LevenbergMarquardt().minimize(initial: [0.0], dimension: 1, evaluate: { _ in .init(cost: .infinity, hessian: [1], gradient: [0]) }) { p, _ in p }
        }
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
