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
        let atStamp = inertialState(of: f, at: f.time - f.calibration.timeOffset)
        let worldFromBody = atStamp.pose * imuFromBody
        // Covariance of (δp, δθ) in the world frame (the IMU-to-body lever arm is neglected).
        let r = f.state.rotation.matrix
        var c = Matrix(rows: 6, columns: 6)
        let p = f.covariance
        for i in 0..<3 {
            for j in 0..<3 {
                c[i, j] = p[3 + i, 3 + j]
                var tt = 0.0, pt = 0.0
                for a in 0..<3 {
                    for b in 0..<3 { tt += r[i, a] * p[a, b] * r[j, b] }
                    pt += p[3 + i, a] * r[j, a]
                }
                c[3 + i, 3 + j] = tt
                c[i, 3 + j] = pt
                c[3 + j, i] = pt
            }
        }
        return VIOEstimate(time: stamp, worldFromBody: worldFromBody, velocity: atStamp.velocity, covariance: c, biases: biases,
                           trackingState: state, mappingStatus: status)
    }

    /// The filter's IMU state carried from its time to `t` (s, IMU clock) through the readings
    /// between (a camera–IMU offset of tens of milliseconds is tens of milliseconds of motion,
    /// 0.5 s of offset was 12 cm at first order on EuRoC MH_01): forward by propagation, backward
    /// by inverting the readings' preintegration over `[t, f.time]` (`R_t = R R_Δᵀ`,
    /// `v_t = v − g τ − R_t Δv`, `p_t = p − v_t τ − ½ g τ² − R_t Δp`, `τ = f.time − t`). Where the
    /// readings do not cover the span, to first order in the angular rate and the velocity.
    func inertialState(of f: MSCKF, at t: Double) -> InertialState {
        let x = f.state
        let tau = f.time - t
        guard abs(tau) > 1e-9 else { return x }
        let readings = propagator.measurements
        let covered = (readings.first?.time ?? .infinity) <= min(t, f.time) && (readings.last?.time ?? -.infinity) >= max(t, f.time)
        let propagation = IMUPropagation(noise: sensors.imu.noise)
        if covered, tau < 0, let (forward, _) = try? propagation.propagate(x, readings, from: f.time, to: t) {
            return forward
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
            return back
        }
        let omega = propagator.angularRate(at: f.time) - x.gyroscopeBias
        var first = x
        first.rotation = x.rotation * SO3.exp(omega * -tau)
        first.position = x.position - x.velocity * tau
        return first
    }
}
