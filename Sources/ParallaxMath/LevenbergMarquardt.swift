/// Levenberg–Marquardt minimization of `½‖r(x)‖²` for a residual function `r: ℝⁿ → ℝᵐ`.
///
/// Each iteration solves the damped normal equations
/// `(JᵀJ + λ·diag(JᵀJ)) δ = −Jᵀr` through LAPACK (`dsyrk` for `JᵀJ`, `dposv` for the
/// solve), accepts the step when the cost drops (λ ← λ/10) and rejects it otherwise
/// (λ ← λ·10). Deterministic: no randomness, no threads.
///
/// ```swift
/// let fit = try LevenbergMarquardt().minimize(
///     initial: [1, 0],
///     residuals: { p in xs.indices.map { p[0] * exp(p[1] * xs[$0]) - ys[$0] } },
///     jacobian: { p in /* m × n Matrix of ∂rᵢ/∂pⱼ */ })
/// ```
public struct LevenbergMarquardt: Sendable {
    /// Iteration cap; default 100.
    public var maxIterations = 100
    /// Stop when `‖Jᵀr‖∞` falls below this; default 1e-10.
    public var gradientTolerance = 1e-10
    /// Stop when `‖δ‖ ≤ stepTolerance · (‖x‖ + stepTolerance)`; default 1e-12.
    public var stepTolerance = 1e-12
    /// Stop when the relative cost decrease of an accepted step is below this; default 1e-14.
    public var costTolerance = 1e-14
    /// Initial damping λ; default 1e-3.
    public var initialDamping = 1e-3

    /// A solver with default settings.
    public init() {}

    /// Why the iteration stopped.
    public enum Termination: Sendable, Equatable {
        case gradientTolerance, stepTolerance, costTolerance, maxIterations
        /// λ grew past 1e16 without a cost decrease: at a minimum to working precision.
        case dampingOverflow
        /// The caller's `abandon` test held after an accepted step (``minimize6(initial:evaluate:retract:abandon:)``).
        case abandoned
    }

    /// The minimizer and how it was reached.
    public struct Result: Sendable {
        public let parameters: [Double]
        /// `½‖r‖²` at the start.
        public let initialCost: Double
        /// `½‖r‖²` at `parameters`.
        public let finalCost: Double
        public let iterations: Int
        public let termination: Termination
    }

    /// Why the problem could not be solved.
    public enum SolverError: Error, Equatable, Sendable, CustomStringConvertible {
        case residualNotFinite(iteration: Int)
        case jacobianShape(expected: String, got: String)

        public var description: String {
            switch self {
            case let .residualNotFinite(it): return "Levenberg–Marquardt: residuals are NaN or infinite at iteration \(it)"
            case let .jacobianShape(e, g): return "Levenberg–Marquardt: Jacobian is \(g), expected \(e)"
            }
        }
    }

    /// Minimizes from `initial`.
    public func minimize(initial: [Double],
                         residuals: ([Double]) throws -> [Double],
                         jacobian: ([Double]) throws -> Matrix) throws -> Result {
        var x = initial
        var r = try residuals(x)
        guard r.allSatisfy(\.isFinite) else { throw SolverError.residualNotFinite(iteration: 0) }
        var cost = 0.5 * r.reduce(0) { $0 + $1 * $1 }
        let initialCost = cost
        var lambda = initialDamping
        var iteration = 0
        let n = x.count
        while iteration < maxIterations {
            iteration += 1
            let j = try jacobian(x)
            guard j.rows == r.count, j.columns == n else {
                throw SolverError.jacobianShape(expected: "\(r.count)×\(n)", got: "\(j.rows)×\(j.columns)")
            }
            let jtj = j.gram()
            let g = try j.transposed.multiplied(by: r)  // Jᵀr
            if g.reduce(0, { max($0, abs($1)) }) <= gradientTolerance {
                return Result(parameters: x, initialCost: initialCost, finalCost: cost, iterations: iteration, termination: .gradientTolerance)
            }
            while true {
                var a = jtj
                for i in 0..<n { a[i, i] += lambda * max(jtj[i, i], 1e-12) }
                let delta: [Double]
                do {
                    // JᵀJ from dsyrk is exactly symmetric: skip the symmetry check.
                    delta = try a.solvePositiveDefinite(Matrix(rows: n, columns: 1, columnMajor: g.map { -$0 }),
                                                        symmetryTolerance: nil).elements
                } catch LinearAlgebraError.notPositiveDefinite {
                    lambda *= 10
                    if lambda > 1e16 { return Result(parameters: x, initialCost: initialCost, finalCost: cost, iterations: iteration, termination: .dampingOverflow) }
                    continue
                }
                let stepNorm = delta.reduce(0) { $0 + $1 * $1 }.squareRoot()
                let xNorm = x.reduce(0) { $0 + $1 * $1 }.squareRoot()
                if stepNorm <= stepTolerance * (xNorm + stepTolerance) {
                    return Result(parameters: x, initialCost: initialCost, finalCost: cost, iterations: iteration, termination: .stepTolerance)
                }
                let candidate = zip(x, delta).map(+)
                let rc = try residuals(candidate)
                let candidateCost = rc.allSatisfy(\.isFinite) ? 0.5 * rc.reduce(0) { $0 + $1 * $1 } : .infinity
                if candidateCost < cost {
                    let relativeDecrease = (cost - candidateCost) / max(cost, 1e-300)
                    x = candidate
                    r = rc
                    cost = candidateCost
                    lambda = max(lambda / 10, 1e-12)
                    if relativeDecrease < costTolerance {
                        return Result(parameters: x, initialCost: initialCost, finalCost: cost, iterations: iteration, termination: .costTolerance)
                    }
                    break
                }
                lambda *= 10
                if lambda > 1e16 {
                    return Result(parameters: x, initialCost: initialCost, finalCost: cost, iterations: iteration, termination: .dampingOverflow)
                }
            }
        }
        return Result(parameters: x, initialCost: initialCost, finalCost: cost, iterations: iteration, termination: .maxIterations)
    }
}

extension LevenbergMarquardt {
    /// What a problem gives at one point of its parameter space: the cost `½‖r‖²` (weighted as
    /// the problem likes; infinite where it cannot be evaluated) and its normal equations,
    /// `JᵀJ` (`n × n`, row-major, symmetric) and the gradient `Jᵀr`.
    public struct NormalEquations: Sendable {
        public var cost: Double
        public var hessian: [Double]
        public var gradient: [Double]
        public init(cost: Double, hessian: [Double], gradient: [Double]) {
            self.cost = cost
            self.hessian = hessian
            self.gradient = gradient
        }
    }

    /// The minimizer on any parameter space and how it was reached.
    public struct StateResult<State> {
        public let state: State
        public let finalCost: Double
        public let iterations: Int
        public let termination: Termination

        @usableFromInline init(state: State, finalCost: Double, iterations: Int, termination: Termination) {
            self.state = state
            self.finalCost = finalCost
            self.iterations = iterations
            self.termination = termination
        }
    }

    /// Minimizes from `initial` a problem that builds its own normal equations (per-point
    /// solvers accumulate `JᵀJ` directly instead of a tall Jacobian) on a space where a step
    /// `δ ∈ ℝⁿ` is applied by `retract` (a pose: `exp(δθ)·R`, `t + δt`). The same damping and
    /// acceptance as ``minimize(initial:residuals:jacobian:)``; here ``stepTolerance`` bounds
    /// `‖δ‖` itself (the space has no norm to be relative to). Small systems (n ≤ 16) are solved
    /// in place (``Cholesky/solveSmall(_:_:n:)``), larger ones through LAPACK.
    public func minimize<State>(initial: State, dimension n: Int,
                                evaluate: (State) throws -> NormalEquations,
                                retract: (State, [Double]) -> State) throws -> StateResult<State> {
        var state = initial
        var current = try evaluate(state)
        guard current.cost.isFinite else { throw SolverError.residualNotFinite(iteration: 0) }
        guard current.hessian.count == n * n, current.gradient.count == n else {
            throw SolverError.jacobianShape(expected: "\(n)×\(n)", got: "\(current.hessian.count) entries, \(current.gradient.count) gradient")
        }
        var lambda = initialDamping
        var iteration = 0
        while iteration < maxIterations {
            iteration += 1
            if current.gradient.reduce(0, { max($0, abs($1)) }) <= gradientTolerance {
                return StateResult(state: state, finalCost: current.cost, iterations: iteration, termination: .gradientTolerance)
            }
            while true {
                var a = current.hessian, delta = current.gradient.map { -$0 }
                for i in 0..<n { a[i * n + i] += lambda * max(current.hessian[i * n + i], 1e-12) }
                let solved: Bool
                if n <= 16 {
                    solved = Cholesky.solveSmall(&a, &delta, n: n)
                } else if let x = try? Matrix(rows: n, columns: n, columnMajor: a).solvePositiveDefinite(Matrix(rows: n, columns: 1, columnMajor: delta), symmetryTolerance: nil) {
                    delta = x.elements
                    solved = true
                } else {
                    solved = false
                }
                guard solved else {
                    lambda *= 10
                    if lambda > 1e16 { return StateResult(state: state, finalCost: current.cost, iterations: iteration, termination: .dampingOverflow) }
                    continue
                }
                if delta.reduce(0, { $0 + $1 * $1 }).squareRoot() <= stepTolerance {
                    return StateResult(state: state, finalCost: current.cost, iterations: iteration, termination: .stepTolerance)
                }
                let candidate = retract(state, delta)
                let next = try evaluate(candidate)
                if next.cost < current.cost {
                    let relativeDecrease = (current.cost - next.cost) / max(current.cost, 1e-300)
                    state = candidate
                    current = next
                    lambda = max(lambda / 10, 1e-12)
                    if relativeDecrease < costTolerance {
                        return StateResult(state: state, finalCost: current.cost, iterations: iteration, termination: .costTolerance)
                    }
                    break
                }
                lambda *= 10
                if lambda > 1e16 { return StateResult(state: state, finalCost: current.cost, iterations: iteration, termination: .dampingOverflow) }
            }
        }
        return StateResult(state: state, finalCost: current.cost, iterations: iteration, termination: .maxIterations)
    }
}
