import ParallaxMath

/// The navigation state an inertial filter carries: the IMU frame `I` in a gravity-aligned world
/// `W` (z up, gravity `(0, 0, −g)`), its velocity and the sensor biases.
///
/// Error state (15, in this order): `δθ` (rotation error in `I`, right perturbation:
/// `R_WI = R̂_WI · Exp(δθ)`), `δp` (m, in `W`), `δv` (m/s, in `W`), `δb_g` (rad/s), `δb_a` (m/s²).
public struct InertialState: Sendable, Equatable {
    /// `R_WI`: IMU to world.
    public var rotation: SO3
    /// `p_WI`: the IMU's position in the world (m).
    public var position: Vector3
    /// `v_WI`: its velocity in the world (m/s).
    public var velocity: Vector3
    /// Gyroscope bias (rad/s) and accelerometer bias (m/s²), in `I`.
    public var gyroscopeBias: Vector3
    public var accelerometerBias: Vector3

    public init(rotation: SO3 = .identity, position: Vector3 = .zero, velocity: Vector3 = .zero,
                gyroscopeBias: Vector3 = .zero, accelerometerBias: Vector3 = .zero) {
        self.rotation = rotation
        self.position = position
        self.velocity = velocity
        self.gyroscopeBias = gyroscopeBias
        self.accelerometerBias = accelerometerBias
    }

    /// Dimension of the error state.
    public static let errorDimension = 15
    /// Offsets of the blocks in the error state.
    public enum Block { public static let rotation = 0, position = 3, velocity = 6, gyroscopeBias = 9, accelerometerBias = 12 }

    /// `T_WI`.
    public var pose: SE3 { SE3(rotation: rotation, translation: position) }

    /// Whether every value is finite.
    public var isFinite: Bool {
        let q = rotation.quaternion
        return [q.w, q.x, q.y, q.z].allSatisfy(\.isFinite)
            && [position, velocity, gyroscopeBias, accelerometerBias].allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
    }

    /// The state corrected by the error-state vector `dx` (15 values, see the type's doc).
    public func corrected(by dx: ArraySlice<Double>) -> InertialState {
        let i = dx.startIndex
        func v(_ k: Int) -> Vector3 { Vector3(dx[i + k], dx[i + k + 1], dx[i + k + 2]) }
        return InertialState(rotation: rotation * SO3.exp(v(Block.rotation)), position: position + v(Block.position),
                             velocity: velocity + v(Block.velocity), gyroscopeBias: gyroscopeBias + v(Block.gyroscopeBias),
                             accelerometerBias: accelerometerBias + v(Block.accelerometerBias))
    }
}
