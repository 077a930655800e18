import ParallaxInertial
import ParallaxMath

extension MSCKF {
    /// Propagates state and covariance to `to` with `measurements` (see ``IMUPropagation``), the
    /// readings corrected by the IMU's scale errors. When those are estimated, the IMU rows of the
    /// covariance follow `[Φ Ψ]` over the IMU and scale columns (``IMUPropagation/Interval``).
    mutating func propagate(_ measurements: [IMUMeasurement], to: Double) throws {
        guard to > time else { return }
        let (next, interval) = try propagation.propagate(state, measurements, from: time, to: to, intrinsics: calibration.imuIntrinsics,
                                                         intrinsicsJacobian: intrinsicsOffset != nil)
        let n = Self.imuDimension, m = dimension - n
        let phi = usesFirstEstimates
            ? interval.firstEstimate(start: propagatedState, end: next, gravity: propagation.gravity).transition
            : interval.transition
        if let s = intrinsicsOffset, let psi = interval.intrinsicsTransition {
            // Rows of [Φ Ψ] · P over the IMU and scale rows: the IMU rows' new values, every column.
            let k = IMUIntrinsics.errorDimension
            let rows = try phi * covariance.block(row: 0, column: 0, rows: n, columns: dimension)
                + (try psi * covariance.block(row: s, column: 0, rows: k, columns: dimension))
            var newII = try rows.block(row: 0, column: 0, rows: n, columns: n).multiplied(by: phi, transposeOther: true)
                + (try rows.block(row: 0, column: s, rows: n, columns: k).multiplied(by: psi, transposeOther: true)) + interval.noise
            newII.symmetrize()
            let newIX = rows.block(row: 0, column: n, rows: n, columns: m)
            covariance.setBlock(row: 0, column: n, newIX)
            covariance.setBlock(row: n, column: 0, newIX.transposed)
            covariance.setBlock(row: 0, column: 0, newII)
        } else {
            let pII = covariance.block(row: 0, column: 0, rows: n, columns: n)
            var newII = try (try phi * pII).multiplied(by: phi, transposeOther: true) + interval.noise
            newII.symmetrize()
            covariance.setBlock(row: 0, column: 0, newII)
            if m > 0 {
                let pIX = covariance.block(row: 0, column: n, rows: n, columns: m)
                let newIX = try phi * pIX
                covariance.setBlock(row: 0, column: n, newIX)
                covariance.setBlock(row: n, column: 0, newIX.transposed)
            }
        }
        state = next
        propagatedState = next
        time = to
    }
}
