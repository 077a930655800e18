import ParallaxGeometry
import ParallaxInertial
import ParallaxMath

extension VIOEstimator {
    /// The estimate of the frame at `stamp` (`t` on the IMU clock, s) whose updates left `f` in
    /// tracking `state`: the body at `stamp` on the IMU clock (the dataset's and ground
    /// truth's), extrapolated to first order from the filter's state at the exposure time
    /// `stamp + t_d` through the IMU's readings between the two (to first order where they do
    /// not reach); no pose while relocalizing into a loaded map.
    func estimate(of f: MSCKF, state: VIOTrackingState, at stamp: Int64, time t: Double) -> VIOEstimate {
        let biases = VIOEstimate.Biases(gyroscope: f.state.gyroscopeBias, accelerometer: f.state.accelerometerBias)
        let status = mapping.status(of: f, time: t, tracking: state)
        if mapping.isRelocalizing {
            return VIOEstimate(time: stamp, biases: biases, trackingState: .limited(.relocalizing), mappingStatus: status)
        }
        let target = f.time - f.calibration.timeOffset
        // A stamp before the exposure (a camera stamping early) lies among the clones, which the
        // updates since have refined: read there, not carried back from the state (0.45 s back
        // through the IMU turned a tilt of a few tenths of a degree into 8 mm).
        let between = target < f.time ? betweenClones(of: f, at: target) : nil
        let carried = between == nil ? inertialState(of: f, at: target) : nil
        let atStamp = between?.state ?? carried?.state ?? f.state
        let worldFromBody = atStamp.pose * imuFromBody
        // Covariance of (δp, δθ) in the world frame (the IMU-to-body lever arm is neglected): the
        // nearer clone's, the state's carried on to a later stamp (a camera stamping late: the
        // IMU's noise over the time carried counts), or the state's.
        var p = f.covariance, block = 0, rotation = f.state.rotation
        if let between {
            block = f.cloneOffset(between.nearest)
            rotation = f.clones[between.nearest].rotation
        } else if let interval = carried?.interval, let onward = Self.carried(f.covariance, through: interval) {
            p = onward
            rotation = atStamp.rotation
        }
        let r = rotation.matrix
        var c = Matrix(rows: 6, columns: 6)
        for i in 0..<3 {
            for j in 0..<3 {
                c[i, j] = p[block + 3 + i, block + 3 + j]
                var tt = 0.0, pt = 0.0
                for a in 0..<3 {
                    for b in 0..<3 { tt += r[i, a] * p[block + a, block + b] * r[j, b] }
                    pt += p[block + 3 + i, block + a] * r[j, a]
                }
                c[3 + i, 3 + j] = tt
                c[i, 3 + j] = pt
                c[3 + j, i] = pt
            }
        }
        return VIOEstimate(time: stamp, worldFromBody: worldFromBody, velocity: atStamp.velocity, covariance: c, biases: biases,
                           trackingState: state, mappingStatus: status)
    }

    /// The covariance of the IMU's state (15 × 15, the top-left block of `p`) carried through
    /// `interval`: `Φ P Φᵀ + Q`.
    static func carried(_ p: Matrix, through interval: IMUPropagation.Interval) -> Matrix? {
        let n = InertialState.errorDimension
        guard var q = try? (try interval.transition * p.block(row: 0, column: 0, rows: n, columns: n))
            .multiplied(by: interval.transition, transposeOther: true) else { return nil }
        for i in 0..<n { for j in 0..<n { q[i, j] += interval.noise[i, j] } }
        return q
    }

    /// The IMU's pose and velocity at `t` (s, IMU clock) between the two clones whose exposures
    /// bracket it, and the nearer one's index: the motion between them as the IMU measured it
    /// (gravity-free preintegration from the earlier clone, biases as estimated), fitted to both
    /// clones' poses (the velocity at the earlier one solved from them, the rotation's misfit at
    /// the later one spread in proportion). `nil` without such clones or readings over them.
    func betweenClones(of f: MSCKF, at t: Double) -> (state: InertialState, nearest: Int)? {
        let td = f.calibration.timeOffset
        let exposures = f.clones.map { propagator.seconds($0.time) + td }
        guard let k = exposures.indices.dropLast().last(where: { exposures[$0] <= t && t <= exposures[$0 + 1] }),
              // Nearer the state than an earlier clone: carried back from the state, as accurate
              // over under half a frame (and the start's first update can leave its window's
              // clones far off the IMU's motion between them: 0.5 m in 50 ms on a smooth orbit).
              k + 1 < exposures.count - 1 || t - exposures[k] < 0.5 * (exposures[k + 1] - exposures[k])
        else { return nil }
        let (a, b) = (f.clones[k], f.clones[k + 1])
        let (ta, tb) = (exposures[k], exposures[k + 1])
        let readings = propagator.measurements
        guard tb - ta > 1e-6, let first = readings.first?.time, let last = readings.last?.time, first <= ta, last >= tb else { return nil }
        var gravityFree = IMUPropagation(noise: sensors.imu.noise)
        gravityFree.gravity = 0
        let biases = InertialState(gyroscopeBias: f.state.gyroscopeBias, accelerometerBias: f.state.accelerometerBias)
        guard let (whole, _) = try? gravityFree.propagate(biases, readings, from: ta, to: tb),
              let (part, _) = try? gravityFree.propagate(biases, readings, from: ta, to: t) else { return nil }
        let g = Vector3(0, 0, -IMUPropagation(noise: sensors.imu.noise).gravity)
        let span = tb - ta, tau = t - ta
        // p_b = p_a + v_a Δt + ½ g Δt² + R_a Δp  →  v_a.
        let va = (b.position - a.position - g * (0.5 * span * span) - a.rotation * whole.position) * (1 / span)
        let misfit = ((a.rotation * whole.rotation).inverse * b.rotation).log
        var x = f.state
        x.rotation = a.rotation * part.rotation * SO3.exp(misfit * (tau / span))
        x.position = a.position + va * tau + g * (0.5 * tau * tau) + a.rotation * part.position
        x.velocity = va + g * tau + a.rotation * part.velocity
        return (x, tau / span < 0.5 ? k : k + 1)
    }

    /// The filter's IMU state carried from its time to `t` (s, IMU clock) through the readings
    /// between (a camera–IMU offset of tens of milliseconds is tens of milliseconds of motion,
    /// 0.5 s of offset was 12 cm at first order on EuRoC MH_01): forward by propagation, backward
    /// by inverting the readings' preintegration over `[t, f.time]` (`R_t = R R_Δᵀ`,
    /// `v_t = v − g τ − R_t Δv`, `p_t = p − v_t τ − ½ g τ² − R_t Δp`, `τ = f.time − t`). Where the
    /// readings do not cover the span, to first order in the angular rate and the velocity. Carried
    /// forward, also the propagation's interval (its `Φ` and `Q` carry the covariance on).
    func inertialState(of f: MSCKF, at t: Double) -> (state: InertialState, interval: IMUPropagation.Interval?) {
        let x = f.state
        let tau = f.time - t
        guard abs(tau) > 1e-9 else { return (x, nil) }
        let readings = propagator.measurements
        let covered = (readings.first?.time ?? .infinity) <= min(t, f.time) && (readings.last?.time ?? -.infinity) >= max(t, f.time)
        let propagation = IMUPropagation(noise: sensors.imu.noise)
        if covered, tau < 0, let (forward, interval) = try? propagation.propagate(x, readings, from: f.time, to: t) {
            return (forward, interval)
        }
        var gravityFree = propagation
        gravityFree.gravity = 0
        if covered, tau > 0,
           let (delta, _) = try? gravityFree.propagate(InertialState(gyroscopeBias: x.gyroscopeBias, accelerometerBias: x.accelerometerBias), readings, from: t, to: f.time) {
            let g = Vector3(0, 0, -propagation.gravity)
            var back = x
            back.rotation = x.rotation * delta.rotation.inverse
            back.velocity = x.velocity - g * tau - back.rotation * delta.velocity
            back.position = x.position - back.velocity * tau - g * (0.5 * tau * tau) - back.rotation * delta.position
            return (back, nil)
        }
        let omega = propagator.angularRate(at: f.time) - x.gyroscopeBias
        var first = x
        first.rotation = x.rotation * SO3.exp(omega * -tau)
        first.position = x.position - x.velocity * tau
        return (first, nil)
    }
}
