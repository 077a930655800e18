import ParallaxInertial
import ParallaxMath

extension VIOEstimator {
    /// The estimate of the frame at `stamp` (`t` on the IMU clock, s) whose updates left `f` in
    /// tracking `state`: the body at `stamp` on the IMU clock (the dataset's and ground
    /// truth's), extrapolated to first order from the filter's state at the exposure time
    /// `stamp + t_d`; no pose while relocalizing into a loaded map.
    func estimate(of f: MSCKF, state: VIOTrackingState, at stamp: Int64, time t: Double) -> VIOEstimate {
        let biases = VIOEstimate.Biases(gyroscope: f.state.gyroscopeBias, accelerometer: f.state.accelerometerBias)
        let status = mapping.status(of: f, time: t, tracking: state)
        if mapping.isRelocalizing {
            return VIOEstimate(time: stamp, biases: biases, trackingState: .limited(.relocalizing), mappingStatus: status)
        }
        let td = f.calibration.timeOffset
        let omega = propagator.angularRate(at: f.time) - f.state.gyroscopeBias
        let atStamp = SE3(rotation: f.state.rotation * SO3.exp(omega * -td), translation: f.state.position - f.state.velocity * td)
        let worldFromBody = atStamp * imuFromBody
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
        return VIOEstimate(time: stamp, worldFromBody: worldFromBody, velocity: f.state.velocity, covariance: c, biases: biases,
                           trackingState: state, mappingStatus: status)
    }
}
