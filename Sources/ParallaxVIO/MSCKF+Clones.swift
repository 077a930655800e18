import ParallaxInertial
import ParallaxMath

extension MSCKF {
    /// Clones the current IMU pose for a camera frame at `stamp` (stochastic cloning). The
    /// filter stands at the frame's time on the IMU clock, `stamp + t_d`; an error of `t_d` moves
    /// the clone along the motion, so its error is `(δθ + ω δt_d, δp + v δt_d)` with `ω` the
    /// bias-corrected angular rate (rad/s, IMU frame) at that time.
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

    /// Removes clone `k` from the state (its information is gone from the filter).
    mutating func marginalize(clone k: Int) {
        let o = cloneOffset(k)
        covariance = covariance.removing(o..<(o + 6))
        clones.remove(at: k)
    }
}
