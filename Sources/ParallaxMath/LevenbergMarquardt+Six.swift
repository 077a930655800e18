extension LevenbergMarquardt {
    /// What a six-parameter problem gives at one point: the cost (infinite where it cannot be
    /// evaluated) and its normal equations, accumulated in registers (``NormalEquations6``).
    public struct Equations6: Sendable {
        public var cost: Double
        public var normal: NormalEquations6
        @inlinable public init(cost: Double, normal: NormalEquations6) {
            self.cost = cost
            self.normal = normal
        }
    }

    /// ``minimize(initial:dimension:evaluate:retract:)`` for six parameters (a pose) without a
    /// heap allocation per iteration: the same damping, acceptance and stopping rules, the
    /// damped 6 × 6 system solved on the stack (``NormalEquations6/dampedStep(damping:)``), and
    /// one more stop that saves the last evaluation: while the damping is small (λ < 10⁻²,
    /// Gauss–Newton in all but name), a step whose decrease as the quadratic model predicts it
    /// (``NormalEquations6/predictedDecrease(_:)``) is below ``costTolerance`` of the cost is
    /// not taken (``Termination/costTolerance``), and one predicted below 10 × ``costTolerance``
    /// is taken unevaluated as the last (its cost as predicted): near a minimum the model is
    /// exact to that order, so evaluating it would only confirm what the model says.
    /// `retract` applies a step (lanes 0–5 of its vector). `abandon` is asked after every
    /// accepted step with the new state and cost: `true` stops there (``Termination/abandoned``;
    /// a caller that races two starts drops one that has joined the other's minimum). Per-point
    /// pose solvers (PnP) spend their time here and in `evaluate`.
    @inlinable public func minimize6<State>(initial: State, evaluate: (State) -> Equations6,
                                            retract: (State, SIMD8<Double>) -> State,
                                            abandon: (State, Double) -> Bool = { _, _ in false }) throws -> StateResult<State> {
        var state = initial
        var current = evaluate(state)
        guard current.cost.isFinite else { throw SolverError.residualNotFinite(iteration: 0) }
        var lambda = initialDamping
        var iteration = 0
        while iteration < maxIterations {
            iteration += 1
            if current.normal.gradientNorm <= gradientTolerance {
                return StateResult(state: state, finalCost: current.cost, iterations: iteration, termination: .gradientTolerance)
            }
            while true {
                guard let delta = current.normal.dampedStep(damping: lambda) else {
                    lambda *= 10
                    if lambda > 1e16 { return StateResult(state: state, finalCost: current.cost, iterations: iteration, termination: .dampingOverflow) }
                    continue
                }
                if (delta * delta).sum().squareRoot() <= stepTolerance {
                    return StateResult(state: state, finalCost: current.cost, iterations: iteration, termination: .stepTolerance)
                }
                if lambda < 1e-2 {
                    let predicted = current.normal.predictedDecrease(delta)
                    let scale = max(current.cost, 1e-300)
                    if predicted < costTolerance * scale {
                        return StateResult(state: state, finalCost: current.cost, iterations: iteration, termination: .costTolerance)
                    }
                    // A last step the model predicts to gain less than 10 × the tolerance is taken
                    // without evaluating it: the general loop would evaluate it, accept it and then
                    // stop on the next prediction (linear convergence gains ~100× less again).
                    if predicted < 10 * costTolerance * scale {
                        return StateResult(state: retract(state, delta), finalCost: current.cost - predicted, iterations: iteration, termination: .costTolerance)
                    }
                }
                let candidate = retract(state, delta)
                let next = evaluate(candidate)
                if next.cost < current.cost {
                    let relativeDecrease = (current.cost - next.cost) / max(current.cost, 1e-300)
                    state = candidate
                    current = next
                    lambda = max(lambda / 10, 1e-12)
                    if relativeDecrease < costTolerance {
                        return StateResult(state: state, finalCost: current.cost, iterations: iteration, termination: .costTolerance)
                    }
                    if abandon(state, current.cost) {
                        return StateResult(state: state, finalCost: current.cost, iterations: iteration, termination: .abandoned)
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
