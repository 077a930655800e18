import Foundation

/// A similarity transform Sim(3): scale, rotation, translation.
///
/// `S_AB` maps `p_A = s · R_AB p_B + t_AB`. Composition `S_AC = S_AB * S_BC`. Used to align
/// monocular trajectories (scale unobservable) to ground truth.
public struct Sim3: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Scale `s > 0` (unitless).
    public var scale: Double
    /// Rotation part.
    public var rotation: SO3
    /// Translation part (m).
    public var translation: Vector3

    /// A similarity from its parts.
    public init(scale: Double = 1, rotation: SO3 = .identity, translation: Vector3 = .zero) {
        self.scale = scale
        self.rotation = rotation
        self.translation = translation
    }

    /// A similarity with unit scale.
    public init(_ se3: SE3) { self.init(scale: 1, rotation: se3.rotation, translation: se3.translation) }

    /// The identity.
    public static let identity = Sim3()

    /// The rigid part (scale dropped).
    public var se3: SE3 { SE3(rotation: rotation, translation: translation) }

    /// The inverse: `(1/s, Rᵀ, −Rᵀ t / s)`.
    public var inverse: Sim3 {
        let rInv = rotation.inverse
        return Sim3(scale: 1 / scale, rotation: rInv, translation: -(rInv * translation) / scale)
    }

    /// Composition `a * b`: apply `b`, then `a`.
    public static func * (a: Sim3, b: Sim3) -> Sim3 {
        Sim3(scale: a.scale * b.scale, rotation: a.rotation * b.rotation,
             translation: a.scale * (a.rotation * b.translation) + a.translation)
    }

    /// Transforms a point.
    public static func * (s: Sim3, p: Vector3) -> Vector3 { s.scale * (s.rotation * p) + s.translation }

    /// Transforms a pose `T_BX` into `A`: rotation composed, position mapped, scale applied to
    /// the position only (the pose stays rigid). This is how an aligned trajectory is formed.
    public func apply(to pose: SE3) -> SE3 {
        SE3(rotation: rotation * pose.rotation, translation: self * pose.translation)
    }

    /// Interpolation: scale geometric (`s₀^(1−t) s₁^t`), rotation geodesic, translation linear.
    public func interpolated(to other: Sim3, t: Double) -> Sim3 {
        Sim3(scale: scale * pow(other.scale / scale, t),
             rotation: rotation.interpolated(to: other.rotation, t: t),
             translation: translation + (other.translation - translation) * t)
    }

    public var description: String { "Sim3(s: \(scale), t: \(translation), r: \(rotation.log))" }
}
