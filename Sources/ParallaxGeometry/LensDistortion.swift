import Foundation
import ParallaxMath

/// A lens distortion model, acting on normalized image coordinates (`z = 1` plane).
///
/// - ``none``: ideal pinhole.
/// - ``radialTangential(k1:k2:p1:p2:)``: Brown–Conrady with two radial and two tangential
///   terms, EuRoC's `radial-tangential` (OpenCV's `k1 k2 p1 p2`).
/// - ``equidistant(k1:k2:k3:k4:)``: Kannala–Brandt fisheye, Kalibr's and TUM-VI's
///   `equidistant` (OpenCV's fisheye model): `θd = θ(1 + k1θ² + k2θ⁴ + k3θ⁶ + k4θ⁸)`.
public enum LensDistortion: Sendable, Equatable, Hashable {
    case none
    case radialTangential(k1: Double, k2: Double, p1: Double, p2: Double)
    case equidistant(k1: Double, k2: Double, k3: Double, k4: Double)

    /// The model's name as calibration files spell it.
    public var name: String {
        switch self {
        case .none: return "none"
        case .radialTangential: return "radial-tangential"
        case .equidistant: return "equidistant"
        }
    }

    /// Coefficients in file order.
    public var coefficients: [Double] {
        switch self {
        case .none: return []
        case let .radialTangential(k1, k2, p1, p2): return [k1, k2, p1, p2]
        case let .equidistant(k1, k2, k3, k4): return [k1, k2, k3, k4]
        }
    }

    /// Distorts an undistorted normalized point, returning the distorted point and the
    /// Jacobian ∂distorted/∂undistorted.
    public func distort(_ p: Vector2) -> (point: Vector2, jacobian: Matrix2) {
        switch self {
        case .none:
            return (p, .identity)
        case let .radialTangential(k1, k2, p1, p2):
            let x = p.x, y = p.y
            let r2 = x * x + y * y
            let radial = 1 + k1 * r2 + k2 * r2 * r2
            let dRadial = 2 * k1 + 4 * k2 * r2  // ∂radial/∂x = dRadial·x
            let xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
            let yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
            let dxdx = radial + x * dRadial * x + 2 * p1 * y + 6 * p2 * x
            let dxdy = x * dRadial * y + 2 * p1 * x + 2 * p2 * y
            let dydx = y * dRadial * x + 2 * p1 * x + 2 * p2 * y
            let dydy = radial + y * dRadial * y + 6 * p1 * y + 2 * p2 * x
            return (Vector2(xd, yd), Matrix2(columns: Vector2(dxdx, dydx), Vector2(dxdy, dydy)))
        case .equidistant:
            let r = p.norm
            if r < 1e-10 {
                return (p, .identity)
            }
            let theta = atan(r)
            let (thetaD, dThetaD) = equidistantThetaD(theta)
            let s = thetaD / r
            let dsdr = (dThetaD / (1 + r * r) * r - thetaD) / (r * r)
            let u = p / r
            // J = s·I + p · (ds/dr) · uᵀ
            let c0 = Vector2(s, 0) + p * (dsdr * u.x)
            let c1 = Vector2(0, s) + p * (dsdr * u.y)
            return (p * s, Matrix2(columns: c0, c1))
        }
    }

    /// For ``equidistant(k1:k2:k3:k4:)``: `θd(θ) = θ(1 + k1θ² + k2θ⁴ + k3θ⁶ + k4θ⁸)` and its
    /// derivative; for other models `(θ, 1)`.
    public func equidistantThetaD(_ theta: Double) -> (thetaD: Double, derivative: Double) {
        guard case let .equidistant(k1, k2, k3, k4) = self else { return (theta, 1) }
        let t2 = theta * theta
        let thetaD = theta * (1 + t2 * (k1 + t2 * (k2 + t2 * (k3 + t2 * k4))))
        let dThetaD = 1 + t2 * (3 * k1 + t2 * (5 * k2 + t2 * (7 * k3 + t2 * 9 * k4)))
        return (thetaD, dThetaD)
    }

    /// Solves `θd(θ) = thetaD` for the incidence angle θ ∈ [0, π) by Newton's method (the
    /// equidistant model); `nil` when it does not converge or leaves the monotonic branch.
    public func equidistantTheta(thetaD: Double, tolerance: Double = 1e-12) -> Double? {
        var theta = thetaD
        for _ in 0..<30 {
            let (f, df) = equidistantThetaD(theta)
            guard df > 0 else { return nil }
            let step = (f - thetaD) / df
            theta -= step
            if abs(step) < tolerance {
                return theta >= 0 && theta < .pi ? theta : nil
            }
        }
        return nil
    }

    /// Inverts ``distort(_:)`` by Gauss–Newton from the distorted point.
    ///
    /// Converges when the step is below `1e-14` and the residual below `tolerance`
    /// (normalized units; at f ≈ 460 px, 1e-10 is 5e-8 px). Returns `nil` when it does not
    /// converge in `maxIterations`, the Jacobian becomes singular, or the solution lies past a
    /// fold of the model (Jacobian determinant ≤ 0: the lens model is not invertible there, a
    /// pixel outside the region where it was calibrated).
    public func undistort(_ distorted: Vector2, tolerance: Double = 1e-10, maxIterations: Int = 30) -> Vector2? {
        if case .none = self { return distorted }
        var x = distorted
        for _ in 0..<maxIterations {
            let (d, j) = distort(x)
            let residual = d - distorted
            if residual.norm <= tolerance { return j.determinant > 0 ? x : nil }
            guard let step = j.solve(residual), step.x.isFinite, step.y.isFinite else { return nil }
            x -= step
            if step.norm < 1e-14 { break }
        }
        let (d, j) = distort(x)
        return (d - distorted).norm <= tolerance && j.determinant > 0 ? x : nil
    }
}
