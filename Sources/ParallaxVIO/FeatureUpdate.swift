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
}
