import Foundation
import ParallaxGeometry
import ParallaxInertial
import ParallaxMath

extension DynamicInitializer {
    /// How many parameters of the refinement come before the features: `v0`, `g`, `b_g`.
    static let refinedParameters = 9

    /// The state at the last frame from the window's solution, in a world with gravity along −z
    /// (accelerometer bias zero).
    static func state(v0: Vector3, g: Vector3, bg: Vector3, poses: [Preintegrated]) -> InertialState {
        let worldFromI0 = StaticInitializer.levelRotation(up: -g)
        let last = poses[poses.count - 1]
        let position = v0 * last.dt + g * (0.5 * last.dt * last.dt) + last.alpha
        let velocity = v0 + g * last.dt + last.beta
        return InertialState(rotation: worldFromI0 * last.r, position: worldFromI0 * position, velocity: worldFromI0 * velocity,
                             gyroscopeBias: bg)
    }

    /// The state at the last frame from the refined parameters `x` (`v0`, `g`, `b_g`, …): the
    /// window preintegrated again with that gyro bias.
    func startState(_ x: [Double], frames: [Frame], imu: [IMUMeasurement], noise: IMUNoiseModel) -> InertialState? {
        let bg = Vector3(x[6], x[7], x[8])
        guard let ps = preintegrate(frames, imu: imu, noise: noise, gyroBias: bg) else { return nil }
        return Self.state(v0: Vector3(x[0], x[1], x[2]), g: Vector3(x[3], x[4], x[5]).normalized * gravity, bg: bg, poses: ps)
    }

    /// The start's covariance (15 × 15): `A · Σ · Aᵀ` with `Σ` the refinement's covariance of
    /// (`v0`, `g`, `b_g`) and `A = ∂(error state)/∂(v0, g, b_g)` by central differences about
    /// `x` (whose state is `start`); each block's own variance inflated, the accelerometer bias
    /// given its prior, the unobservable gauge a small variance. `nil` when not finite.
    func startCovariance(_ x: [Double], refined: Matrix, start: InertialState, frames: [Frame], imu: [IMUMeasurement], noise: IMUNoiseModel) -> Matrix? {
        let columns = Self.refinedParameters
        var a = Matrix(rows: InertialState.errorDimension, columns: columns)
        for c in 0..<columns {
            let h = 1e-6 * max(1, abs(x[c]))
            var plus = x, minus = x
            plus[c] += h
            minus[c] -= h
            guard let sp = startState(plus, frames: frames, imu: imu, noise: noise),
                  let sm = startState(minus, frames: frames, imu: imu, noise: noise) else { return nil }
            let dp = Self.error(of: sp, from: start), dm = Self.error(of: sm, from: start)
            for i in 0..<InertialState.errorDimension { a[i, c] = (dp[i] - dm[i]) / (2 * h) }
        }
        guard var p = try? (try a * refined).multiplied(by: a, transposeOther: true) else { return nil }
        // Inflate each block's own variance (as OpenVINS does), not the correlations between them.
        for block in [InertialState.Block.rotation, InertialState.Block.velocity, InertialState.Block.gyroscopeBias] {
            for i in 0..<3 { for j in 0..<3 { p[block + i, block + j] *= inflation } }
        }
        for i in 0..<3 { p[InertialState.Block.accelerometerBias + i, InertialState.Block.accelerometerBias + i] = accelerometerBiasSigma * accelerometerBiasSigma }
        // Position and yaw are not observable: the gauge is fixed at the start, with a small
        // variance so that the matrix stays positive definite.
        for i in 0..<15 { p[i, i] += 1e-9 }
        p.symmetrize()
        guard p.isFinite else { return nil }
        return p
    }

    /// The error state (``InertialState``'s order) taking `estimate` to `state`.
    static func error(of state: InertialState, from estimate: InertialState) -> [Double] {
        let parts = [(estimate.rotation.inverse * state.rotation).log, state.position - estimate.position, state.velocity - estimate.velocity,
                     state.gyroscopeBias - estimate.gyroscopeBias, state.accelerometerBias - estimate.accelerometerBias]
        return parts.flatMap { [$0.x, $0.y, $0.z] }
    }

    typealias Preintegrated = (r: SO3, alpha: Vector3, beta: Vector3, dt: Double)

    /// Gravity-free preintegration from the first frame with gyro bias `bg`.
    func preintegrate(_ frames: [Frame], imu: [IMUMeasurement], noise: IMUNoiseModel, gyroBias bg: Vector3) -> [Preintegrated]? {
        let integrator = IMUPropagation(noise: noise, gravity: 0)
        var x = InertialState(gyroscopeBias: bg)
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
