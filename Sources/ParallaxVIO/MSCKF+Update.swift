import ParallaxInertial
import ParallaxMath

extension MSCKF {
    /// Applies the error-state correction `dx` to the IMU state and every clone.
    mutating func correct(_ dx: [Double]) {
        state = state.corrected(by: dx[0..<Self.imuDimension])
        if let c = extrinsicsOffset {
            calibration.imuFromCamera = SE3(rotation: calibration.imuFromCamera.rotation * SO3.exp(Vector3(dx[c], dx[c + 1], dx[c + 2])),
                                            translation: calibration.imuFromCamera.translation + Vector3(dx[c + 3], dx[c + 4], dx[c + 5]))
        }
        if let k = timeOffsetIndex { calibration.timeOffset += dx[k] }
        if let k = intrinsicsOffset {
            calibration.imuIntrinsics = calibration.imuIntrinsics.corrected(by: dx[k..<(k + IMUIntrinsics.errorDimension)])
        }
        for k in clones.indices {
            let o = cloneOffset(k)
            clones[k].rotation = clones[k].rotation * SO3.exp(Vector3(dx[o], dx[o + 1], dx[o + 2]))
            clones[k].position += Vector3(dx[o + 3], dx[o + 4], dx[o + 5])
        }
        for j in landmarks.indices {
            let o = landmarkOffset(j)
            landmarks[j].position += Vector3(dx[o], dx[o + 1], dx[o + 2])
        }
    }

    /// The EKF update with stacked residuals `r` (already free of feature errors), Jacobian `h`
    /// (rows × dimension) and isotropic noise `sigma²`: QR-compresses tall systems, solves the
    /// innovation through Cholesky, keeps the covariance symmetric.
    mutating func update(h hIn: Matrix, r rIn: [Double], variance: Double) throws {
        var h = hIn, r = rIn
        if h.rows > h.columns {
            // Measurement compression: H = Q·R, so Qᵀr and R carry the same information in n rows.
            let qr = try QR(h)
            let rr = qr.r()
            let qtr = try qr.applyQTransposed(to: try Matrix(rows: r.count, columns: 1, columnMajor: r))
            h = rr
            r = Array(qtr.elements.prefix(rr.rows))
        }
        let pht = try covariance.multiplied(by: h, transposeOther: true)          // n × m
        var s = try h * pht                                                        // m × m
        for i in 0..<s.rows { s[i, i] += variance }
        s.symmetrize()
        let chol = try Cholesky(s, symmetryTolerance: nil)
        let hp = pht.transposed                                                    // H P (P symmetric): m × n
        let kt = try chol.solve(hp)                                                // Kᵀ: m × n
        let dx = try kt.multiplied(by: try Matrix(rows: r.count, columns: 1, columnMajor: r), transposeSelf: true)
        // P ← P − K (H P)
        let kphT = try kt.multiplied(by: hp, transposeSelf: true)
        covariance = try covariance - kphT
        covariance.symmetrize()
        correct(dx.elements)
    }

    /// Stacks `blocks` (rows over the whole state, each feature's) into one update with the
    /// image noise (``normalizedNoise``²).
    mutating func update(stacking blocks: [FeatureUpdate.Rows]) throws {
        guard !blocks.isEmpty else { return }
        let total = blocks.reduce(0) { $0 + $1.r.count }
        var h = Matrix(rows: total, columns: dimension)
        var r: [Double] = []
        r.reserveCapacity(total)
        var row = 0
        for b in blocks {
            h.setBlock(row: row, column: 0, b.h)
            r += b.r
            row += b.r.count
        }
        try update(h: h, r: r, variance: normalizedNoise * normalizedNoise)
    }
}
