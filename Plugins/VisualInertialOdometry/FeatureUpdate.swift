import ParallaxMath
import ParallaxVision

/// The MSCKF measurement model of one feature: its observations in the window's clones,
/// triangulated, linearized, and projected onto the left null space of its position Jacobian,
/// so the residual depends on the clones alone.
struct FeatureUpdate {
    /// One observation: the clone index and the undistorted normalized image point.
    struct Observation {
        var clone: Int
        var normalized: Vector2
    }

    /// Why a feature was not used.
    enum Rejection: Error, Hashable, CustomStringConvertible {
        case triangulation(MultiViewTriangulation.Rejection)
        case behindCamera
        case gate
        case numerical

        var description: String {
            switch self {
            case let .triangulation(reason): return "triangulation: \(reason.rawValue)"
            case .behindCamera: return "behind a camera"
            case .gate: return "χ² gate"
            case .numerical: return "numerical failure"
            }
        }
    }

    /// Projected residual and Jacobian rows of one feature.
    struct Rows {
        var h: Matrix       // (2M − 3) × dimension
        var r: [Double]
    }

    var minParallaxDegrees: Double
    var maxReprojectionNormalized: Double
    /// χ² gate probability (0.95: reject the 5 % most unlikely residuals of a consistent filter).
    var gateProbability: Double

    /// The feature's rows, or why not.
    func rows(_ observations: [Observation], filter: MSCKF) -> Result<Rows, Rejection> {
        let views = observations.map { MultiViewTriangulation.Observation(worldFromCamera: filter.worldFromCamera($0.clone), normalized: $0.normalized) }
        let point: Vector3
        switch MultiViewTriangulation.triangulate(views, minParallaxDegrees: minParallaxDegrees, maxRMSNormalized: maxReprojectionNormalized) {
        case let .success(t): point = t.position
        case let .failure(reason): return .failure(.triangulation(reason))
        }
        let m = observations.count, n = filter.dimension
        var hx = Matrix(rows: 2 * m, columns: n)
        var hf = Matrix(rows: 2 * m, columns: 3)
        var r = [Double](repeating: 0, count: 2 * m)
        let rIC = filter.imuFromCamera.rotation.matrix, tIC = filter.imuFromCamera.translation
        let rCI = rIC.transposed
        for (j, o) in observations.enumerated() {
            let clone = filter.clones[o.clone]
            let rWI = clone.rotation.matrix
            let pI = rWI.transposed * (point - clone.position)
            let pC = rCI * (pI - tIC)
            guard pC.z > 1e-3 else { return .failure(.behindCamera) }
            let iz = 1 / pC.z
            let projected = Vector2(pC.x * iz, pC.y * iz)
            r[2 * j] = o.normalized.x - projected.x
            r[2 * j + 1] = o.normalized.y - projected.y
            // d(projection)/d(p_C)
            let jp0 = Vector3(iz, 0, -pC.x * iz * iz), jp1 = Vector3(0, iz, -pC.y * iz * iz)
            let dTheta = rCI * Matrix3.skew(pI)          // ∂p_C/∂δθ (right perturbation of R_WI)
            let dPoint = rCI * rWI.transposed            // ∂p_C/∂p_W; ∂p_C/∂δp = −dPoint
            let o6 = MSCKF.cloneOffset(o.clone)
            for c in 0..<3 {
                let colTheta = Vector3(dTheta[0, c], dTheta[1, c], dTheta[2, c])
                let colPoint = Vector3(dPoint[0, c], dPoint[1, c], dPoint[2, c])
                hx[2 * j, o6 + c] = jp0.dot(colTheta)
                hx[2 * j + 1, o6 + c] = jp1.dot(colTheta)
                hx[2 * j, o6 + 3 + c] = -jp0.dot(colPoint)
                hx[2 * j + 1, o6 + 3 + c] = -jp1.dot(colPoint)
                hf[2 * j, c] = jp0.dot(colPoint)
                hf[2 * j + 1, c] = jp1.dot(colPoint)
            }
        }
        // Left null space of H_f: Qᵀ from its QR, first 3 rows dropped.
        guard let qr = try? QR(hf),
              let projectedH = try? qr.applyQTransposed(to: hx),
              let projectedR = try? qr.applyQTransposed(to: Matrix(rows: 2 * m, columns: 1, columnMajor: r)) else { return .failure(.numerical) }
        let rows = 2 * m - 3
        let h = projectedH.block(row: 3, column: 0, rows: rows, columns: n)
        let rr = Array(projectedR.elements[3...])
        // χ² gate: rᵀ (H P Hᵀ + σ² I)⁻¹ r.
        guard let hp = try? h * filter.covariance, var s = try? hp.multiplied(by: h, transposeOther: true) else { return .failure(.numerical) }
        let variance = filter.normalizedNoise * filter.normalizedNoise
        for i in 0..<rows { s[i, i] += variance }
        s.symmetrize()
        guard let chol = try? Cholesky(s, symmetryTolerance: nil),
              let solved = try? chol.solve(Matrix(rows: rows, columns: 1, columnMajor: rr)) else { return .failure(.numerical) }
        let gamma = zip(rr, solved.elements).reduce(0) { $0 + $1.0 * $1.1 }
        guard gamma <= ChiSquared.quantile(gateProbability, degrees: rows) else { return .failure(.gate) }
        return .success(Rows(h: h, r: rr))
    }
}
