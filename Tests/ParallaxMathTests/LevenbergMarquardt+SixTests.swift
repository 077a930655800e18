import Foundation
import Testing
@testable import ParallaxMath

@Suite struct LevenbergMarquardtSixTests {
    /// A six-parameter curve fit, `y = p₀ + p₁x + p₂ sin(p₃x) + p₄ exp(p₅x)`, seeded data.
    struct Curve {
        let xs: [Double], ys: [Double]
        init() {
            var rng = SeededGenerator(seed: 11)
            xs = (0..<40).map { Double($0) / 10 }
            let truth = [0.5, -0.3, 1.2, 2.1, 0.4, -0.7]
            ys = xs.map { Self.model(truth, $0) + 0.01 * rng.nextGaussian() }
        }
        static func model(_ p: [Double], _ x: Double) -> Double { p[0] + p[1] * x + p[2] * sin(p[3] * x) + p[4] * exp(p[5] * x) }
        func gradient(_ p: [Double], _ x: Double) -> SIMD8<Double> {
            SIMD8(1, x, sin(p[3] * x), p[2] * x * cos(p[3] * x), exp(p[5] * x), p[4] * x * exp(p[5] * x), 0, 0)
        }
        func equations(_ p: [Double]) -> LevenbergMarquardt.Equations6 {
            var normal = NormalEquations6(), cost = 0.0
            for (x, y) in zip(xs, ys) {
                let r = Self.model(p, x) - y
                cost += 0.5 * r * r
                normal.add(gradient(p, x), r, .zero, 0, weight: 1)
            }
            return LevenbergMarquardt.Equations6(cost: cost, normal: normal)
        }
    }

    /// The allocation-free six-parameter loop reaches the general one's minimum, in no more
    /// iterations (it skips the last evaluation when the model predicts a negligible decrease).
    @Test func matchesTheGeneralLoop() throws {
        let curve = Curve()
        let start = [0.4, -0.2, 1.0, 2.0, 0.5, -0.6]
        let solver = LevenbergMarquardt()
        let general = try solver.minimize(initial: start, dimension: 6, evaluate: { p in
            let e = curve.equations(p)
            return LevenbergMarquardt.NormalEquations(cost: e.cost, hessian: e.normal.matrix, gradient: e.normal.vector)
        }, retract: { p, d in zip(p, d).map(+) })
        let six = try solver.minimize6(initial: start, evaluate: curve.equations, retract: { p, d in (0..<6).map { p[$0] + d[$0] } })
        #expect(general.iterations < 50)  // a problem that converges, not one that runs out
        #expect(six.iterations <= general.iterations)
        #expect([.costTolerance, .stepTolerance, .gradientTolerance].contains(six.termination), "\(six.termination)")
        for i in 0..<6 { #expect(abs(six.state[i] - general.state[i]) <= 1e-6 * max(1, abs(general.state[i])), "p[\(i)]") }
        #expect(abs(six.finalCost - general.finalCost) <= 1e-9 * general.finalCost)
        #expect(six.finalCost < curve.equations(start).cost / 100)
    }

    @Test func abandonStopsAfterAnAcceptedStep() throws {
        let curve = Curve()
        var asked = 0
        let result = try LevenbergMarquardt().minimize6(initial: [0.0, 0, 1, 2, 0.5, -0.5], evaluate: curve.equations,
                                                        retract: { p, d in (0..<6).map { p[$0] + d[$0] } },
                                                        abandon: { _, _ in asked += 1; return asked == 2 })
        #expect(result.termination == .abandoned)
        #expect(asked == 2)
        #expect(result.iterations == 2)
    }

    @Test func anUnevaluableStartIsAnError() {
        #expect(throws: LevenbergMarquardt.SolverError.residualNotFinite(iteration: 0)) {
            _ = try LevenbergMarquardt().minimize6(initial: 0.0, evaluate: { _ in LevenbergMarquardt.Equations6(cost: .infinity, normal: NormalEquations6()) },
                                                   retract: { s, _ in s })
        }
    }
}
