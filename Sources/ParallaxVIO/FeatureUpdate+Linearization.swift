import ParallaxMath

extension FeatureUpdate {
    /// A feature's residuals and Jacobians before the null-space projection.
    struct Linearization {
        /// 2M × dimension: with respect to the filter's error state.
        var hx: Matrix
        /// 2M × 3: with respect to the feature's world position.
        var hf: Matrix
        /// Observed minus predicted normalized coordinates (2M).
        var r: [Double]
    }

    /// Residuals at the current estimate, Jacobians at the linearization point (the clones'
    /// first estimates with FEJ) of `point` (world, m) seen in `observations`.
    static func linearize(_ observations: [Observation], point: Vector3, filter: MSCKF) -> Result<Linearization, Rejection> {
        let m = observations.count, n = filter.dimension
        var hx = Matrix(rows: 2 * m, columns: n)
        var hf = Matrix(rows: 2 * m, columns: 3)
        var r = [Double](repeating: 0, count: 2 * m)
        let rIC = filter.imuFromCamera.rotation.matrix, tIC = filter.imuFromCamera.translation
        let rCI = rIC.transposed
        for (j, o) in observations.enumerated() {
            let clone = filter.clones[o.clone]
            // The second camera of a stereo pair sees p_C1 = R_C1C0 p_C0 + t_C1C0.
            let partner = o.camera == 0 ? nil : filter.stereoFromCamera
            if o.camera != 0 && partner == nil { return .failure(.numerical) }
            func inCamera(_ pC0: Vector3) -> Vector3 { partner.map { $0 * pC0 } ?? pC0 }
            // Residual at the current estimate …
            let pCNow = inCamera(rCI * (clone.rotation.matrix.transposed * (point - clone.position) - tIC))
            guard pCNow.z > 1e-3 else { return .failure(.behindCamera) }
            r[2 * j] = o.normalized.x - pCNow.x / pCNow.z
            r[2 * j + 1] = o.normalized.y - pCNow.y / pCNow.z
            // … Jacobians at the linearization point (the first estimate with FEJ), first of
            // p_C0, then carried into the observing camera.
            let at = filter.linearizationPoint(o.clone)
            let rWI = at.rotation.matrix
            let pI = rWI.transposed * (point - at.position)
            let pC0 = rCI * (pI - tIC)
            let toCamera = partner?.rotation.matrix ?? .identity
            let pC = inCamera(pC0)
            guard pC.z > 1e-3 else { return .failure(.behindCamera) }
            let iz = 1 / pC.z
            // d(projection)/d(p_C)
            let jp0 = Vector3(iz, 0, -pC.x * iz * iz), jp1 = Vector3(0, iz, -pC.y * iz * iz)
            let dTheta = toCamera * (rCI * Matrix3.skew(pI))   // ∂p_C/∂δθ (right perturbation of R_WI)
            let dPoint = toCamera * (rCI * rWI.transposed)     // ∂p_C/∂p_W; ∂p_C/∂δp = −dPoint
            // Extrinsics: p_C0 = R_ICᵀ (p_I − p_IC) with R_IC = R̂_IC Exp(δφ): ∂p_C0/∂δφ = [p_C0]×, ∂p_C0/∂δp_IC = −R_CI.
            let dPhi = toCamera * Matrix3.skew(pC0)
            let dOffset = toCamera * rCI
            // Rows 2j, 2j+1 of d(projection)/d(p_C) · sign · m, into `target` at `column`.
            func put(_ m: Matrix3, sign: Double, into target: inout Matrix, at column: Int) {
                for c in 0..<3 {
                    let col = Vector3(m[0, c], m[1, c], m[2, c])
                    target[2 * j, column + c] = sign * jp0.dot(col)
                    target[2 * j + 1, column + c] = sign * jp1.dot(col)
                }
            }
            if let ce = filter.extrinsicsOffset {
                put(dPhi, sign: 1, into: &hx, at: ce)
                put(dOffset, sign: -1, into: &hx, at: ce + 3)
            }
            let o6 = filter.cloneOffset(o.clone)
            put(dTheta, sign: 1, into: &hx, at: o6)
            put(dPoint, sign: -1, into: &hx, at: o6 + 3)
            put(dPoint, sign: 1, into: &hf, at: 0)
        }
        return .success(Linearization(hx: hx, hf: hf, r: r))
    }
}
