import ParallaxGeometry
import ParallaxMath

/// One IMU measurement at a time (s since an epoch of the caller's choosing).
public struct IMUMeasurement: Sendable, Equatable {
    /// Time (s).
    public var time: Double
    /// Angular velocity (rad/s) and specific force (m/s²), in the IMU frame.
    public var gyroscope: Vector3
    public var accelerometer: Vector3

    public init(time: Double, gyroscope: Vector3, accelerometer: Vector3) {
        self.time = time
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
    }

    /// The measurement linearly interpolated between `a` and `b` at `time`.
    public static func interpolated(_ a: IMUMeasurement, _ b: IMUMeasurement, at time: Double) -> IMUMeasurement {
        let span = b.time - a.time
        let s = span > 0 ? (time - a.time) / span : 0
        return IMUMeasurement(time: time, gyroscope: a.gyroscope + (b.gyroscope - a.gyroscope) * s,
                              accelerometer: a.accelerometer + (b.accelerometer - a.accelerometer) * s)
    }
}

/// Strapdown propagation of an ``InertialState`` and of its error covariance between IMU
/// measurements (midpoint rule on SO(3) for the rotation, trapezoid in the world for the
/// acceleration), with the error-state transition `Φ` and discrete process noise `Q` of each
/// step accumulated over an interval, so a filter applies them to its covariance once per frame.
public struct IMUPropagation: Sendable {
    /// The IMU's noise densities (Kalibr convention).
    public var noise: IMUNoiseModel
    /// Gravity magnitude (m/s²); the world's gravity is `(0, 0, −gravity)`.
    public var gravity: Double

    public init(noise: IMUNoiseModel, gravity: Double = 9.81) {
        self.noise = noise
        self.gravity = gravity
    }

    /// The transition and noise of an interval: `P⁺ = Φ P Φᵀ + Q` for the 15-dimensional error.
    public struct Interval: Sendable {
        /// 15 × 15 error-state transition.
        public var transition: Matrix
        /// 15 × 15 discrete process noise.
        public var noise: Matrix
        /// Seconds covered.
        public var duration: Double
        /// 15 × 6 `Ψ = ∂δx_end / ∂δs` of the ``IMUIntrinsics`` error (accelerometer then gyroscope
        /// scale), when asked for: `δx_end = Φ δx_start + Ψ δs + noise`.
        public var intrinsicsTransition: Matrix?

        /// An empty interval: `Φ = I`, `Q = 0` (and `Ψ = 0` when `intrinsics`).
        public static func empty(intrinsics: Bool) -> Interval {
            Interval(transition: .identity(InertialState.errorDimension),
                     noise: Matrix(rows: InertialState.errorDimension, columns: InertialState.errorDimension), duration: 0,
                     intrinsicsTransition: intrinsics ? Matrix(rows: InertialState.errorDimension, columns: IMUIntrinsics.errorDimension) : nil)
        }

        /// An empty interval: `Φ = I`, `Q = 0`.
        public static var identity: Interval { empty(intrinsics: false) }
    }

    /// Propagates `state` through `measurements` (time order, spanning `from…to`; the first at
    /// or before `from`, the last at or after `to` — what `.between(through: .firstAfter)`
    /// delivers, with the last sample of the previous call first) from time `from` to `to`,
    /// interpolating the measurements at both ends. Where the measurements stop short of `to` (a
    /// camera whose time offset puts the frame past the newest sample) or start after `from`,
    /// the nearest measurement is held. Returns the state at `to` and the interval's `Φ` and `Q`.
    /// Gaps are integrated as they are; callers judge gap lengths. The readings are corrected by
    /// `intrinsics`; with `intrinsicsJacobian` the interval also carries `Ψ`, the error's
    /// dependence on theirs.
    public func propagate(_ state: InertialState, _ input: [IMUMeasurement], from: Double, to: Double,
                          intrinsics: IMUIntrinsics = .none, intrinsicsJacobian: Bool = false) throws -> (InertialState, Interval) {
        var x = state
        var interval = Interval.empty(intrinsics: intrinsicsJacobian)
        guard to > from, let firstSample = input.first, let lastSample = input.last else { return (x, interval) }
        var measurements = input
        if firstSample.time > from {
            var held = firstSample
            held.time = from
            measurements.insert(held, at: 0)
        }
        if lastSample.time < to {
            var held = lastSample
            held.time = to
            measurements.append(held)
        }
        // The measurement segments overlapping [from, to], clipped and interpolated at the ends.
        var samples: [IMUMeasurement] = []
        for k in 0..<(measurements.count - 1) {
            let a = measurements[k], b = measurements[k + 1]
            let lo = max(a.time, from), hi = min(b.time, to)
            guard hi > lo else { continue }
            if samples.isEmpty { samples.append(IMUMeasurement.interpolated(a, b, at: lo)) }
            samples.append(IMUMeasurement.interpolated(a, b, at: hi))
        }
        guard samples.count >= 2 else { return (x, interval) }
        for k in 0..<(samples.count - 1) {
            let (next, phi, q) = step(x, samples[k], samples[k + 1], intrinsics: intrinsics)
            // Ψ_total ← Φ_k Ψ_total + Ψ_k, Φ_total ← Φ_k Φ_total, Q_total ← Φ_k Q_total Φ_kᵀ + Q_k.
            if let psi = interval.intrinsicsTransition {
                interval.intrinsicsTransition = try phi * psi + intrinsicsStep(x, samples[k], samples[k + 1], intrinsics: intrinsics)
            }
            x = next
            interval.transition = try phi * interval.transition
            interval.noise = try (try phi * interval.noise).multiplied(by: phi, transposeOther: true) + q
            interval.duration += samples[k + 1].time - samples[k].time
        }
        return (x, interval)
    }

    /// `Ψ_k` of one step from measurement `a` to `b` (15 × 6): how the step's rotation,
    /// velocity and position errors follow the scale errors, at the step's start (as `Φ_k`'s
    /// bias blocks are): `∂δθ/∂δs_g = Δt J_r(ω Δt) diag(ω̃)`, `∂δv/∂δs_a = Δt R diag(f̃)`,
    /// `∂δp/∂δs_a = ½ Δt² R diag(f̃)`, with `ω̃`, `f̃` the bias-free readings.
    func intrinsicsStep(_ x: InertialState, _ a: IMUMeasurement, _ b: IMUMeasurement, intrinsics: IMUIntrinsics) -> Matrix {
        let dt = b.time - a.time
        let rawRate = (a.gyroscope + b.gyroscope) * 0.5 - x.gyroscopeBias
        let rawForce = (a.accelerometer + b.accelerometer) * 0.5 - x.accelerometerBias
        let jr = SO3.rightJacobian(intrinsics.angularRate(rawRate) * dt)
        let rf = x.rotation.matrix * Matrix3.diagonal(rawForce)
        var psi = Matrix(rows: InertialState.errorDimension, columns: IMUIntrinsics.errorDimension)
        typealias B = InertialState.Block
        typealias S = IMUIntrinsics.Block
        psi.setBlock(row: B.rotation, column: S.gyroscopeScale, dt * (jr * Matrix3.diagonal(rawRate)))
        psi.setBlock(row: B.velocity, column: S.accelerometerScale, dt * rf)
        psi.setBlock(row: B.position, column: S.accelerometerScale, 0.5 * dt * dt * rf)
        return psi
    }

    /// One step from measurement `a` to `b`: the new state, its `Φ` and `Q`.
    func step(_ x: InertialState, _ a: IMUMeasurement, _ b: IMUMeasurement, intrinsics: IMUIntrinsics = .none) -> (InertialState, Matrix, Matrix) {
        let dt = b.time - a.time
        let g = Vector3(0, 0, -gravity)
        let scaled = intrinsics != .none
        let rawRate = (a.gyroscope + b.gyroscope) * 0.5 - x.gyroscopeBias
        let omega = scaled ? intrinsics.angularRate(rawRate) : rawRate
        let dR = SO3.exp(omega * dt)
        let r0 = x.rotation, r1 = x.rotation * dR
        let raw0 = a.accelerometer - x.accelerometerBias, raw1 = b.accelerometer - x.accelerometerBias
        let f0 = scaled ? intrinsics.specificForce(raw0) : raw0, f1 = scaled ? intrinsics.specificForce(raw1) : raw1
        let accelerationW = (r0 * f0 + r1 * f1) * 0.5 + g
        var next = x
        next.rotation = r1
        next.position = x.position + x.velocity * dt + accelerationW * (0.5 * dt * dt)
        next.velocity = x.velocity + accelerationW * dt

        // Error-state Jacobians (right rotation perturbation), evaluated at the interval's midpoint.
        let R0 = r0.matrix
        let f = (f0 + f1) * 0.5
        let jr = SO3.rightJacobian(omega * dt)
        let rf = R0 * Matrix3.skew(f)
        let n = InertialState.errorDimension
        var phi = Matrix.identity(n)
        func set(_ row: Int, _ col: Int, _ m: Matrix3) { phi.setBlock(row: row, column: col, m) }
        typealias B = InertialState.Block
        // A bias error reaches the rate and the force scaled as the reading is.
        let gyroscopeGain = scaled ? jr * Matrix3.diagonal(Vector3(1, 1, 1) + intrinsics.gyroscopeScale) : jr
        let accelerometerGain = scaled ? R0 * Matrix3.diagonal(Vector3(1, 1, 1) + intrinsics.accelerometerScale) : R0
        set(B.rotation, B.rotation, dR.inverse.matrix)
        set(B.rotation, B.gyroscopeBias, -dt * gyroscopeGain)
        set(B.velocity, B.rotation, -dt * rf)
        set(B.velocity, B.accelerometerBias, -dt * accelerometerGain)
        set(B.position, B.rotation, -0.5 * dt * dt * rf)
        set(B.position, B.velocity, dt * Matrix3.identity)
        set(B.position, B.accelerometerBias, -0.5 * dt * dt * accelerometerGain)

        // Discrete noise: white noise σ²·dt on rotation and velocity, half-step on position, bias walks σ²·dt.
        var q = Matrix(rows: n, columns: n)
        let sg2 = noise.gyroscopeNoiseDensity * noise.gyroscopeNoiseDensity * dt
        let sa2 = noise.accelerometerNoiseDensity * noise.accelerometerNoiseDensity * dt
        let jrjr = jr * jr.transposed
        let rrt = R0 * R0.transposed
        for i in 0..<3 {
            for j in 0..<3 {
                q[B.rotation + i, B.rotation + j] = sg2 * jrjr[i, j]
                q[B.velocity + i, B.velocity + j] = sa2 * rrt[i, j]
                q[B.position + i, B.position + j] = 0.25 * dt * dt * sa2 * rrt[i, j]
                q[B.position + i, B.velocity + j] = 0.5 * dt * sa2 * rrt[i, j]
                q[B.velocity + i, B.position + j] = 0.5 * dt * sa2 * rrt[i, j]
            }
            q[B.gyroscopeBias + i, B.gyroscopeBias + i] = noise.gyroscopeRandomWalk * noise.gyroscopeRandomWalk * dt
            q[B.accelerometerBias + i, B.accelerometerBias + i] = noise.accelerometerRandomWalk * noise.accelerometerRandomWalk * dt
        }
        return (next, phi, q)
    }
}

extension IMUPropagation.Interval {
    /// The interval's transition with the blocks that depend on where it is linearized rebuilt
    /// from first estimates (FEJ, Huang et al.; OpenVINS's `do_fej`): `start` is the state at the
    /// interval's start as first propagated there (before any update moved it), `end` the state
    /// propagated to the interval's end. Then `Φ` maps the unobservable directions of one
    /// linearization point (yaw about gravity, global position) exactly onto the next, so the
    /// filter cannot gain information about them that the data do not hold:
    ///
    ///     Φ_θθ = R̂_endᵀ R̂_start
    ///     Φ_vθ = −[v̂_end − v̂_start − g Δt]× R̂_start
    ///     Φ_pθ = −[p̂_end − p̂_start − v̂_start Δt − ½ g Δt²]× R̂_start
    ///
    /// (`g = (0, 0, −gravity)`); the bias and velocity-to-position blocks stay as propagated.
    public func firstEstimate(start: InertialState, end: InertialState, gravity: Double) -> IMUPropagation.Interval {
        var out = self
        typealias B = InertialState.Block
        let dt = duration
        let g = Vector3(0, 0, -gravity)
        let rStart = start.rotation.matrix
        out.transition.setBlock(row: B.rotation, column: B.rotation, end.rotation.inverse.matrix * rStart)
        out.transition.setBlock(row: B.velocity, column: B.rotation, -1 * (Matrix3.skew(end.velocity - start.velocity - g * dt) * rStart))
        out.transition.setBlock(row: B.position, column: B.rotation,
                                -1 * (Matrix3.skew(end.position - start.position - start.velocity * dt - g * (0.5 * dt * dt)) * rStart))
        return out
    }
}
