import ParallaxInertial
import ParallaxMath

extension MSCKF {
    /// Propagates state and covariance to `to` with `measurements` (see ``IMUPropagation``).
    mutating func propagate(_ measurements: [IMUMeasurement], to: Double) throws {
        guard to > time else { return }
        let (next, interval) = try propagation.propagate(state, measurements, from: time, to: to)
        let n = Self.imuDimension, m = dimension - n
        let phi = usesFirstEstimates
            ? interval.firstEstimate(start: propagatedState, end: next, gravity: propagation.gravity).transition
            : interval.transition
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
        state = next
        propagatedState = next
        time = to
    }
}
