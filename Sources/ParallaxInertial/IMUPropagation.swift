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

        /// An empty interval: `Φ = I`, `Q = 0`.
        public static var identity: Interval {
            Interval(transition: .identity(InertialState.errorDimension),
                     noise: Matrix(rows: InertialState.errorDimension, columns: InertialState.errorDimension), duration: 0)
        }
    }

    /// Propagates `state` through `measurements` (time order, spanning `from…to`; the first at
    /// or before `from`, the last at or after `to` — what `.between(through: .firstAfter)`
    /// delivers, with the last sample of the previous call first) from time `from` to `to`,
    /// interpolating the measurements at both ends. Where the measurements stop short of `to` (a
    /// camera whose time offset puts the frame past the newest sample) or start after `from`,
    /// the nearest measurement is held. Returns the state at `to` and the interval's `Φ` and `Q`.
    /// Gaps are integrated as they are; callers judge gap lengths.
    public func propagate(_ state: InertialState, _ input: [IMUMeasurement], from: Double, to: Double) throws -> (InertialState, Interval) {
        var x = state
        var interval = Interval.identity
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
            let (next, phi, q) = step(x, samples[k], samples[k + 1])
            x = next
            // Φ_total ← Φ_k Φ_total, Q_total ← Φ_k Q_total Φ_kᵀ + Q_k.
            interval.transition = try phi * interval.transition
            interval.noise = try (try phi * interval.noise).multiplied(by: phi, transposeOther: true) + q
            interval.duration += samples[k + 1].time - samples[k].time
        }
        return (x, interval)
    }

    /// One step from measurement `a` to `b`: the new state, its `Φ` and `Q`.
    func step(_ x: InertialState, _ a: IMUMeasurement, _ b: IMUMeasurement) -> (InertialState, Matrix, Matrix) {
        let dt = b.time - a.time
        let g = Vector3(0, 0, -gravity)
        let omega = (a.gyroscope + b.gyroscope) * 0.5 - x.gyroscopeBias
        let dR = SO3.exp(omega * dt)
        let r0 = x.rotation, r1 = x.rotation * dR
        let f0 = a.accelerometer - x.accelerometerBias, f1 = b.accelerometer - x.accelerometerBias
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
        set(B.rotation, B.rotation, dR.inverse.matrix)
        set(B.rotation, B.gyroscopeBias, -dt * jr)
        set(B.velocity, B.rotation, -dt * rf)
        set(B.velocity, B.accelerometerBias, -dt * R0)
        set(B.position, B.rotation, -0.5 * dt * dt * rf)
        set(B.position, B.velocity, dt * Matrix3.identity)
        set(B.position, B.accelerometerBias, -0.5 * dt * dt * R0)

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
