import Foundation
import ParallaxMath

/// Multi-view triangulation of one point: linear DLT (LAPACK SVD), then Gauss–Newton on
/// inverse depth anchored in the first camera, with cheirality and parallax checks.
public enum MultiViewTriangulation {
    /// One view of the point: camera pose `T_WC` and undistorted normalized coordinates.
    public struct Observation: Sendable {
        public var worldFromCamera: SE3
        public var normalized: Vector2
        public init(worldFromCamera: SE3, normalized: Vector2) {
            self.worldFromCamera = worldFromCamera
            self.normalized = normalized
        }
    }

    /// Why a point was not triangulated.
    public enum Rejection: String, Error, Sendable, Codable {
        case tooFewObservations, degenerate, behindCamera, lowParallax, highReprojectionError
    }

    /// The triangulated point.
    public struct Result: Sendable {
        public var position: Vector3
        /// RMS reprojection error in normalized units (multiply by f for px).
        public var rmsNormalized: Double
        public var parallaxDegrees: Double
        public var depthInFirst: Double
        /// 3×3 world covariance for unit normalized-image noise (scale by σ²).
        public var covariance: Matrix3
    }

    /// Triangulates; `minParallaxDegrees` and `maxRMSNormalized` gate the result.
    public static func triangulate(_ obs: [Observation], minParallaxDegrees: Double, maxRMSNormalized: Double) -> Swift.Result<Result, Rejection> {
        guard obs.count >= 2 else { return .failure(.tooFewObservations) }
        // Parallax: the widest angle between viewing rays in the world frame.
        let rays = obs.map { $0.worldFromCamera.rotation * Vector3($0.normalized.x, $0.normalized.y, 1).normalized }
        var widest = 0.0
        for i in 0..<rays.count { for j in (i + 1)..<rays.count { widest = max(widest, acos(max(-1, min(1, rays[i].dot(rays[j]))))) } }
        let parallax = widest * 180 / .pi
        guard parallax >= minParallaxDegrees else { return .failure(.lowParallax) }
        // DLT: x·P₃ − P₁ = 0, y·P₃ − P₂ = 0 with P = [R_CW | t_CW].
        var a = Matrix(rows: 2 * obs.count, columns: 4)
        for (k, o) in obs.enumerated() {
            let cw = o.worldFromCamera.inverse
            let r = cw.rotation.matrix, t = cw.translation
            let p1 = [r[0, 0], r[0, 1], r[0, 2], t.x], p2 = [r[1, 0], r[1, 1], r[1, 2], t.y], p3 = [r[2, 0], r[2, 1], r[2, 2], t.z]
            for j in 0..<4 {
                a[2 * k, j] = o.normalized.x * p3[j] - p1[j]
                a[2 * k + 1, j] = o.normalized.y * p3[j] - p2[j]
            }
        }
        guard let svd = try? SVD(a, mode: .full) else { return .failure(.degenerate) }
        let h = svd.vt.row(3)
        guard abs(h[3]) > 1e-12 else { return .failure(.degenerate) }
        var x = Vector3(h[0], h[1], h[2]) / h[3]
        // Gauss–Newton on inverse depth (α, β, ρ) in the first camera: p_C0 = (α, β, 1)/ρ.
        let anchor = obs[0].worldFromCamera
        var c0 = anchor.inverse * x
        guard c0.z > 0 else { return .failure(.behindCamera) }
        var theta = Vector3(c0.x / c0.z, c0.y / c0.z, 1 / c0.z)
        let toCamera = obs.map { anchor.inverse * $0.worldFromCamera }.map(\.inverse)  // T_Ck_C0
        var hessian = Matrix3.zero
        for _ in 0..<10 {
            var jtj = Matrix3.zero, jtr = Vector3.zero
            for (k, o) in obs.enumerated() {
                let t = toCamera[k]
                // p_Ck = R (α, β, 1)/ρ + t  ∝  R (α, β, 1) + ρ t  (projective: same image point).
                let h = t.rotation * Vector3(theta.x, theta.y, 1) + theta.z * t.translation
                guard h.z > 1e-9 else { return .failure(.behindCamera) }
                let u = Vector2(h.x / h.z, h.y / h.z)
                let r = u - o.normalized
                // ∂h/∂θ = [R e₁, R e₂, t]; ∂u/∂h = [[1/z, 0, −x/z²], [0, 1/z, −y/z²]].
                let dh = Matrix3(columns: t.rotation * Vector3(1, 0, 0), t.rotation * Vector3(0, 1, 0), t.translation)
                let row0 = (dh.transposed * Vector3(1 / h.z, 0, -h.x / (h.z * h.z)))
                let row1 = (dh.transposed * Vector3(0, 1 / h.z, -h.y / (h.z * h.z)))
                jtj = jtj + Matrix3.outer(row0, row0) + Matrix3.outer(row1, row1)
                jtr += row0 * r.x + row1 * r.y
            }
            hessian = jtj
            guard let inv = jtj.inverse else { return .failure(.degenerate) }
            let step = inv * jtr
            theta -= step
            if step.norm < 1e-12 * max(1, theta.norm) { break }
        }
        guard theta.z > 0 else { return .failure(.behindCamera) }
        c0 = Vector3(theta.x, theta.y, 1) / theta.z
        x = anchor * c0
        var sse = 0.0
        for o in obs {
            let p = o.worldFromCamera.inverse * x
            guard p.z > 0 else { return .failure(.behindCamera) }
            sse += (Vector2(p.x / p.z, p.y / p.z) - o.normalized).norm * (Vector2(p.x / p.z, p.y / p.z) - o.normalized).norm
        }
        let rms = (sse / Double(obs.count)).squareRoot()
        guard rms <= maxRMSNormalized else { return .failure(.highReprojectionError) }
        // Covariance: Σ_θ = (JᵀJ)⁻¹ (unit noise), mapped to the world by ∂p_W/∂θ.
        guard let sigmaTheta = hessian.inverse else { return .failure(.degenerate) }
        let rho = theta.z
        let dp = Matrix3(columns: Vector3(1 / rho, 0, 0), Vector3(0, 1 / rho, 0), Vector3(-theta.x / (rho * rho), -theta.y / (rho * rho), -1 / (rho * rho)))
        let jw = anchor.rotation.matrix * dp
        let covariance = jw * sigmaTheta * jw.transposed
        return .success(Result(position: x, rmsNormalized: rms, parallaxDegrees: parallax, depthInFirst: c0.z, covariance: covariance))
    }
}
