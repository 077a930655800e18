import ParallaxInertial
import ParallaxMath

extension MSCKF {
    /// Clones the current IMU pose for a camera frame at `stamp` (stochastic cloning). The
    /// filter stands at the frame's time on the IMU clock, `stamp + t_d`; an error of `t_d` moves
    /// the clone along the motion, so its error is `(δθ + ω δt_d, δp + v δt_d)` with `ω` the
    /// bias-corrected angular rate (rad/s, IMU frame) at that time; a frame's own stamp error
    /// (``stampJitterVariance``) adds the same motion times that error to its clone alone.
    mutating func clone(at stamp: Int64, angularRate omega: Vector3) {
        let n = dimension
        var grown = Matrix(rows: n + 6, columns: n + 6)
        grown.setBlock(row: 0, column: 0, covariance)
        // Rows of J·P, J = [I₆ on the IMU's (δθ, δp) | (ω, v) on δt_d].
        var rows = covariance.block(row: 0, column: 0, rows: 6, columns: n)
        let rate = [omega.x, omega.y, omega.z, state.velocity.x, state.velocity.y, state.velocity.z]
        if let td = timeOffsetIndex {
            for i in 0..<6 { for j in 0..<n { rows[i, j] += rate[i] * covariance[td, j] } }
        }
        grown.setBlock(row: n, column: 0, rows)
        grown.setBlock(row: 0, column: n, rows.transposed)
        // J P Jᵀ: the rows' IMU columns, plus their time-offset column times (ω, v).
        var corner = rows.block(row: 0, column: 0, rows: 6, columns: 6)
        if let td = timeOffsetIndex {
            for i in 0..<6 { for j in 0..<6 { corner[i, j] += rows[i, td] * rate[j] } }
        }
        // The frame's own stamp error (``stampJitterVariance``, independent frame to frame)
        // moves this clone alone along the motion: σ² (ω, v)(ω, v)ᵀ.
        if stampJitterVariance > 0 {
            for i in 0..<6 { for j in 0..<6 { corner[i, j] += stampJitterVariance * rate[i] * rate[j] } }
        }
        corner.symmetrize()
        grown.setBlock(row: n, column: n, corner)
        // The new clone goes after the others, before the landmarks.
        let landmarksStart = landmarkOffset(0)
        if landmarksStart < n {
            grown = grown.permuted(Array(0..<landmarksStart) + Array(n..<(n + 6)) + Array(landmarksStart..<n))
        }
        covariance = grown
        clones.append(Clone(time: stamp, rotation: state.rotation, position: state.position,
                            firstRotation: propagatedState.rotation, firstPosition: propagatedState.position))
    }

    /// Starts the window with `clones` (oldest first) before any clone or landmark is in the
    /// state: `covariance` is the joint one of the IMU state and the clones (15 + 6 per clone,
    /// a moving start's), `rates` each clone's `(ω, v)` (rad/s bias-corrected, IMU frame; m/s,
    /// world), through which its pose depends on the time offset as a clone taken now does
    /// (``clone(at:angularRate:)``). The calibration stays uncorrelated with the rest.
    mutating func startWindow(with clones: [Clone], covariance joint: Matrix, rates: [[Double]]) {
        let n = Self.imuDimension, m = clones.count
        guard m > 0, self.clones.isEmpty, landmarks.isEmpty, joint.rows == n + 6 * m, rates.count == m else { return }
        var p = Matrix(rows: cloneBase + 6 * m, columns: cloneBase + 6 * m)
        p.setBlock(row: 0, column: 0, covariance)
        // Joint index → filter index: the IMU block stays, the clones go after the calibration.
        func index(_ i: Int) -> Int { i < n ? i : cloneBase + (i - n) }
        for i in 0..<joint.rows { for j in 0..<joint.columns { p[index(i), index(j)] = joint[i, j] } }
        if let td = timeOffsetIndex {
            let variance = covariance[td, td]
            for k in 0..<m {
                for i in 0..<6 {
                    p[cloneOffset(k) + i, td] = rates[k][i] * variance
                    p[td, cloneOffset(k) + i] = rates[k][i] * variance
                    for l in 0..<m { for j in 0..<6 { p[cloneOffset(k) + i, cloneOffset(l) + j] += rates[k][i] * rates[l][j] * variance } }
                }
            }
        }
        p.symmetrize()
        covariance = p
        self.clones = clones
    }

    /// Removes clone `k` from the state (its information is gone from the filter).
    mutating func marginalize(clone k: Int) {
        let o = cloneOffset(k)
        covariance = covariance.removing(o..<(o + 6))
        clones.remove(at: k)
    }
}
