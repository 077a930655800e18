import Foundation
import ParallaxGeometry
import ParallaxInertial
import ParallaxMath

extension DynamicInitializer {
    /// How many parameters of the refinement come before the features: `v0`, `g`, `b_g`.
    static let refinedParameters = 9

    /// The state at frame `k` of the window from its solution, in a world with gravity along −z
    /// (accelerometer bias zero).
    static func state(v0: Vector3, g: Vector3, bg: Vector3, ba: Vector3 = .zero, poses: [Preintegrated], at k: Int) -> InertialState {
        let worldFromI0 = StaticInitializer.levelRotation(up: -g)
        let pose = poses[k]
        let position = v0 * pose.dt + g * (0.5 * pose.dt * pose.dt) + pose.alpha
        let velocity = v0 + g * pose.dt + pose.beta
        return InertialState(rotation: worldFromI0 * pose.r, position: worldFromI0 * position, velocity: worldFromI0 * velocity,
                             gyroscopeBias: bg, accelerometerBias: ba)
    }

    /// The state at every frame of the window from the refined parameters `x` (`v0`, `g`,
    /// `b_g`, …) and an accelerometer bias `ba` (m/s², zero in the solution): the window
    /// preintegrated again with those biases. The last is the start.
    func windowStates(_ x: [Double], accelerometerBias ba: Vector3 = .zero, frames: [Frame], imu: [IMUMeasurement], noise: IMUNoiseModel) -> [InertialState]? {
        let bg = Vector3(x[6], x[7], x[8])
        guard let ps = preintegrate(frames, imu: imu, noise: noise, gyroBias: bg, accelerometerBias: ba) else { return nil }
        let v0 = Vector3(x[0], x[1], x[2]), g = Vector3(x[3], x[4], x[5]).normalized * gravity
        return ps.indices.map { Self.state(v0: v0, g: g, bg: bg, ba: ba, poses: ps, at: $0) }
    }

    /// The start's covariance (15 + 6 per clone): `A · Σ · Aᵀ` with `Σ` the refinement's
    /// covariance of (`v0`, `g`, `b_g`) and `A` the derivatives, by central differences about
    /// `x` (whose window states are `states`), of the last state's error and of the `clones`
    /// frames' pose errors `(δθ, δp)`, each block's own variance inflated (the clones' as the
    /// attitude's); plus what the accelerometer bias, taken as zero, leaves open: its prior
    /// (``accelerometerBiasSigma``) through the derivatives of the same errors with respect to
    /// it (the window's velocities and positions, and the bias itself), so the start's state,
    /// its clones and its bias are correlated as the window's preintegration makes them. The
    /// unobservable gauge gets a small variance. `nil` when not finite.
    /// `velocitySigma` is the largest σ of the start's velocity (m/s, any axis) from the
    /// refinement alone, inflated: what judges a start too vague (the bias's share is the
    /// same for every window of a given span).
    func startCovariance(_ x: [Double], refined: Matrix, states: [InertialState], clones: [Int], frames: [Frame], imu: [IMUMeasurement],
                         noise: IMUNoiseModel) -> (covariance: Matrix, velocitySigma: Double)? {
        guard let start = states.last else { return nil }
        let columns = Self.refinedParameters + 3, n = InertialState.errorDimension
        var a = Matrix(rows: n + 6 * clones.count, columns: columns)
        for c in 0..<columns {
            let h = 1e-6 * max(1, c < Self.refinedParameters ? abs(x[c]) : 0)
            var plus = x, minus = x, bias = Vector3.zero
            if c < Self.refinedParameters {
                plus[c] += h
                minus[c] -= h
            } else {
                let axis = c - Self.refinedParameters
                bias = Vector3(axis == 0 ? h : 0, axis == 1 ? h : 0, axis == 2 ? h : 0)
            }
            guard let sp = windowStates(plus, accelerometerBias: bias, frames: frames, imu: imu, noise: noise), let lp = sp.last,
                  let sm = windowStates(minus, accelerometerBias: -bias, frames: frames, imu: imu, noise: noise), let lm = sm.last else { return nil }
            let dp = Self.error(of: lp, from: start), dm = Self.error(of: lm, from: start)
            for i in 0..<n { a[i, c] = (dp[i] - dm[i]) / (2 * h) }
            for (j, k) in clones.enumerated() {
                let ep = Self.error(of: sp[k], from: states[k]), em = Self.error(of: sm[k], from: states[k])
                for i in 0..<6 { a[n + 6 * j + i, c] = (ep[i] - em[i]) / (2 * h) }
            }
        }
        let refinedColumns = a.block(row: 0, column: 0, rows: a.rows, columns: Self.refinedParameters)
        let biasColumns = a.block(row: 0, column: Self.refinedParameters, rows: a.rows, columns: 3)
        guard var p = try? (try refinedColumns * refined).multiplied(by: refinedColumns, transposeOther: true),
              let fromBias = try? biasColumns.multiplied(by: biasColumns, transposeOther: true) else { return nil }
        // Inflate each block's own variance (as OpenVINS does), not the correlations between them.
        var blocks = [InertialState.Block.rotation, InertialState.Block.velocity, InertialState.Block.gyroscopeBias]
        for j in clones.indices { blocks += [n + 6 * j, n + 6 * j + 3] }
        for block in blocks {
            for i in 0..<3 { for j in 0..<3 { p[block + i, block + j] *= inflation } }
        }
        let v = InertialState.Block.velocity
        let velocitySigma = (0..<3).map { p[v + $0, v + $0].squareRoot() }.max() ?? 0
        let biasVariance = accelerometerBiasSigma * accelerometerBiasSigma
        for i in 0..<p.rows { for j in 0..<p.columns { p[i, j] += biasVariance * fromBias[i, j] } }
        // Position is not observable: the gauge is fixed at the start (the first pose the
        // filter reports, whose drift its covariance then measures), so every position error is
        // taken relative to the start's, and the window's uncertainty lies in the clones. A small
        // variance keeps the matrix positive definite.
        p = Self.positionsRelativeToStart(p, clones: clones.count)
        for i in 0..<p.rows { p[i, i] += 1e-9 }
        p.symmetrize()
        guard p.isFinite else { return nil }
        return (p, velocitySigma)
    }

    /// `T P Tᵀ` with `T` taking every position error (each clone's `δp`, then the state's own)
    /// to its difference from the state's `δp`: the covariance in a gauge that fixes the
    /// start's position (15 + 6 per clone, the state's error-state order, then the clones').
    static func positionsRelativeToStart(_ p: Matrix, clones: Int) -> Matrix {
        let s = InertialState.Block.position, n = InertialState.errorDimension
        let blocks = (0..<clones).map { n + 6 * $0 + 3 } + [s]
        var q = p
        // Rows (the state's last, so the others subtract its original rows), then columns.
        for b in blocks { for i in 0..<3 { for c in 0..<q.columns { q[b + i, c] -= q[s + i, c] } } }
        for b in blocks { for i in 0..<3 { for r in 0..<q.rows { q[r, b + i] -= q[r, s + i] } } }
        return q
    }

    /// The error state (``InertialState``'s order) taking `estimate` to `state`.
    static func error(of state: InertialState, from estimate: InertialState) -> [Double] {
        let parts = [(estimate.rotation.inverse * state.rotation).log, state.position - estimate.position, state.velocity - estimate.velocity,
                     state.gyroscopeBias - estimate.gyroscopeBias, state.accelerometerBias - estimate.accelerometerBias]
        return parts.flatMap { [$0.x, $0.y, $0.z] }
    }

    typealias Preintegrated = (r: SO3, alpha: Vector3, beta: Vector3, dt: Double)

    /// Gravity-free preintegration from the first frame with gyro bias `bg` and accelerometer
    /// bias `ba`.
    func preintegrate(_ frames: [Frame], imu: [IMUMeasurement], noise: IMUNoiseModel, gyroBias bg: Vector3,
                      accelerometerBias ba: Vector3 = .zero) -> [Preintegrated]? {
        let integrator = IMUPropagation(noise: noise, gravity: 0)
        var x = InertialState(gyroscopeBias: bg, accelerometerBias: ba)
        var out: [Preintegrated] = [(.identity, .zero, .zero, 0)]
        guard let first = frames.first else { return nil }
        var t = first.time
        for f in frames.dropFirst() {
            guard let (next, _) = try? integrator.propagate(x, imu, from: t, to: f.time) else { return nil }
            x = next
            t = f.time
            out.append((x.rotation, x.position, x.velocity, f.time - first.time))
        }
        return out
    }

    /// Levenberg–Marquardt on the reprojection errors (normalized units) of every observation,
    /// over `v0`, `g` (its length held by a stiff residual), the gyro bias (under its prior) and
    /// the features. Returns the parameters (`v0`, `g`, `b_g`, then the features), the covariance
    /// of the first ``refinedParameters``, and the RMS reprojection error.
    func refineSolution(frames: [Frame], imu: [IMUMeasurement], noise: IMUNoiseModel, imuFromCamera: SE3, observations: [[(k: Int, n: Vector2)]],
                        v0: Vector3, g: Vector3, features: [Vector3]) -> (parameters: [Double], covariance: Matrix, rms: Double)? {
        let rCI = imuFromCamera.rotation.matrix.transposed, tIC = imuFromCamera.translation
        var cacheKey: Vector3?
        var cache: [Preintegrated] = []
        func poses(_ bg: Vector3) -> [Preintegrated]? {
            if cacheKey == bg { return cache }
            guard let p = preintegrate(frames, imu: imu, noise: noise, gyroBias: bg) else { return nil }
            cacheKey = bg
            cache = p
            return p
        }
        let count = observations.reduce(0) { $0 + $1.count }
        let sigma = normalizedNoise
        func residuals(_ x: [Double]) throws -> [Double] {
            let v = Vector3(x[0], x[1], x[2]), gv = Vector3(x[3], x[4], x[5])
            let bg = Vector3(x[6], x[7], x[8])
            guard let ps = poses(bg) else { throw Refusal.numerical }
            var r: [Double] = []
            r.reserveCapacity(2 * count + 4)
            for (j, obs) in observations.enumerated() {
                let pf = Vector3(x[9 + 3 * j], x[10 + 3 * j], x[11 + 3 * j])
                for o in obs {
                    let p = ps[o.k]
                    let pk = v * p.dt + gv * (0.5 * p.dt * p.dt) + p.alpha
                    let pC = rCI * (p.r.inverse * (pf - pk) - tIC)
                    let z = abs(pC.z) < 1e-6 ? 1e-6 : pC.z
                    r.append(o.n.x - pC.x / z)
                    r.append(o.n.y - pC.y / z)
                }
            }
            // Gravity's length, held stiffly (normalized units per m/s²), and the gyro bias's prior
            // (weighted as σ-scaled reprojection errors).
            r.append(0.01 * (gv.norm - gravity))
            for b in [bg.x, bg.y, bg.z] { r.append(sigma * b / gyroscopeBiasSigma) }
            return r
        }
        func jacobian(_ x: [Double]) throws -> Matrix {
            let base = try residuals(x)
            var jac = Matrix(rows: base.count, columns: x.count)
            for c in 0..<x.count {
                var y = x
                let h = 1e-6 * max(1, abs(x[c]))
                y[c] += h
                let shifted = try residuals(y)
                for i in 0..<base.count { jac[i, c] = (shifted[i] - base[i]) / h }
            }
            return jac
        }
        var initial = [v0.x, v0.y, v0.z, g.x, g.y, g.z, 0, 0, 0]
        for f in features { initial += [f.x, f.y, f.z] }
        var solver = LevenbergMarquardt()
        solver.maxIterations = 15
        guard let result = try? solver.minimize(initial: initial, residuals: residuals, jacobian: jacobian) else { return nil }
        let x = result.parameters
        let rms = (2 * result.finalCost / Double(max(1, 2 * count))).squareRoot()
        guard let jac = try? jacobian(x), let covariance = Self.refinedCovariance(jacobian: jac, sigma: max(sigma, rms)) else { return nil }
        return (x, covariance, rms)
    }

    /// `Σ = σ² (JᵀJ)⁻¹` of the refinement at its solution (`jacobian` of the residuals there),
    /// its first ``refinedParameters`` rows and columns; `sigma` no smaller than what the
    /// residuals show. A feature far away leaves its depth barely determined: a tiny ridge
    /// (relative to the largest information) keeps the factorization defined without touching
    /// the 9 kept.
    static func refinedCovariance(jacobian jac: Matrix, sigma: Double) -> Matrix? {
        var gram = jac.gram()
        let ridge = 1e-12 * (0..<gram.rows).map { gram[$0, $0] }.reduce(0, max)
        for i in 0..<gram.rows { gram[i, i] += ridge }
        guard let information = try? Cholesky(gram, symmetryTolerance: nil) else { return nil }
        let free = Self.refinedParameters
        var unit = Matrix(rows: jac.columns, columns: free)
        for i in 0..<free { unit[i, i] = 1 }
        guard let columns = try? information.solve(unit) else { return nil }
        let scale = pow(sigma, 2)
        var covariance = Matrix(rows: free, columns: free)
        for i in 0..<free { for j in 0..<free { covariance[i, j] = scale * columns[i, j] } }
        return covariance
    }
}
