import Foundation
import ParallaxMath
import ParallaxVision

/// The MSCKF measurement model of one feature: its observations in the window's clones,
/// triangulated, linearized, and projected onto the left null space of its position Jacobian,
/// so the residual depends on the clones alone.
struct FeatureUpdate {
    /// One observation: the clone index, the camera (0, or 1 for the stereo partner) and the
    /// undistorted normalized image point in that camera.
    struct Observation {
        var clone: Int
        var camera: Int = 0
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

    /// The feature triangulated from the clones that saw it, its linearization there, and the
    /// σ of its position from the image noise alone (m, √trace of its covariance).
    func triangulated(_ observations: [Observation], filter: MSCKF) -> Result<(point: Vector3, linear: Linearization, sigma: Double), Rejection> {
        let views = observations.map { MultiViewTriangulation.Observation(worldFromCamera: filter.worldFromCamera($0.clone, camera: $0.camera), normalized: $0.normalized) }
        let point: Vector3, sigma: Double
        switch MultiViewTriangulation.triangulate(views, minParallaxDegrees: minParallaxDegrees, maxRMSNormalized: maxReprojectionNormalized) {
        case let .success(t): point = t.position; sigma = max(0, t.covariance.trace).squareRoot() * filter.normalizedNoise
        case let .failure(reason): return .failure(.triangulation(reason))
        }
        return Self.linearize(observations, point: point, filter: filter).map { (point, $0, sigma) }
    }

    /// The feature's rows, its triangulated position (world, m) and that position's σ (m), or why not.
    func rows(_ observations: [Observation], filter: MSCKF) -> Result<(rows: Rows, point: Vector3, sigma: Double), Rejection> {
        switch triangulated(observations, filter: filter) {
        case let .success(t):
            guard let split = try? Self.split(t.linear) else { return .failure(.numerical) }
            return gated(split.rest, filter: filter).map { ($0, t.point, t.sigma) }
        case let .failure(reason): return .failure(reason)
        }
    }

    /// The rows of a known map point `point` (world, m) seen in `observations`: the point is
    /// not estimated, so the residual is used whole, with the point's own uncertainty
    /// `pointSigma` (m) added to the image noise as `σ_point / depth` (normalized units) by
    /// scaling the rows (the update's noise is isotropic); χ²-gated.
    func mapPointRows(_ observations: [Observation], point: Vector3, pointSigma: Double, filter: MSCKF) -> Result<Rows, Rejection> {
        switch Self.linearize(observations, point: point, filter: filter) {
        case let .failure(reason): return .failure(reason)
        case var .success(linear):
            let sigma = filter.normalizedNoise
            for (j, o) in observations.enumerated() {
                let depth = (filter.worldFromCamera(o.clone, camera: o.camera).inverse * point).z
                let scale = sigma / (sigma * sigma + pow(pointSigma / max(depth, 1e-3), 2)).squareRoot()
                for row in [2 * j, 2 * j + 1] {
                    linear.r[row] *= scale
                    for c in 0..<linear.hx.columns where linear.hx[row, c] != 0 { linear.hx[row, c] *= scale }
                }
            }
            return gated(Rows(h: linear.hx, r: linear.r), filter: filter)
        }
    }

    /// A linearization separated by the QR of `H_f = Q [R₁; 0]`: the top 3 rows,
    /// `r₁ = H₁ δx + R₁ δp_f + n₁`, hold all that involves the feature; the rest (`Qᵀ` on the left
    /// null space of `H_f`) depend on the state alone.
    struct Split {
        var r1: Matrix3
        var h1: Matrix
        var top: Vector3
        var rest: Rows
    }

    static func split(_ linear: Linearization) throws -> Split {
        let n = linear.hx.columns
        let qr = try QR(linear.hf)
        let hx = try qr.applyQTransposed(to: linear.hx)
        let r = try qr.applyQTransposed(to: try Matrix(rows: linear.r.count, columns: 1, columnMajor: linear.r)).elements
        let restRows = hx.rows - 3
        return Split(r1: try Matrix3(qr.r().block(row: 0, column: 0, rows: 3, columns: 3)),
                     h1: hx.block(row: 0, column: 0, rows: 3, columns: n), top: Vector3(r[0], r[1], r[2]),
                     rest: Rows(h: hx.block(row: 3, column: 0, rows: restRows, columns: n), r: Array(r[3...])))
    }

    /// `rows` if they pass the χ² gate: `rᵀ (H P Hᵀ + σ² I)⁻¹ r` within the
    /// ``gateProbability`` quantile for their count.
    func gated(_ rows: Rows, filter: MSCKF) -> Result<Rows, Rejection> {
        let count = rows.r.count
        guard let hp = try? rows.h * filter.covariance, var s = try? hp.multiplied(by: rows.h, transposeOther: true) else { return .failure(.numerical) }
        let variance = filter.normalizedNoise * filter.normalizedNoise
        for i in 0..<count { s[i, i] += variance }
        s.symmetrize()
        guard let chol = try? Cholesky(s, symmetryTolerance: nil),
              let solved = try? chol.solve(Matrix(rows: count, columns: 1, columnMajor: rows.r)) else { return .failure(.numerical) }
        let gamma = zip(rows.r, solved.elements).reduce(0) { $0 + $1.0 * $1.1 }
        guard gamma <= ChiSquared.quantile(gateProbability, degrees: count) else { return .failure(.gate) }
        return .success(rows)
    }

    /// A landmark's rows for its observations in the newest clone: residual and Jacobian with
    /// its position (a state block) included, χ²-gated.
    func landmarkRows(_ j: Int, _ observations: [Observation], filter: MSCKF) -> Result<Rows, Rejection> {
        switch Self.linearize(observations, point: filter.landmarks[j].position, filter: filter) {
        case let .failure(reason): return .failure(reason)
        case var .success(linear):
            linear.hx.setBlock(row: 0, column: filter.landmarkOffset(j), linear.hf)
            return gated(Rows(h: linear.hx, r: linear.r), filter: filter)
        }
    }

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
