import ParallaxMath

/// The scale errors of an IMU's axes, as a filter can estimate them online (the diagonal of
/// OpenVINS's `D_w`, `D_a` intrinsics): what the sensor reads is off its true rate and specific
/// force by a factor per axis, here `1 + s`. A scale error of the accelerometer scales the
/// trajectory a visual–inertial filter integrates (0.5 % on a 3 m path: 15 mm) while looking
/// like nothing the filter's noise model knows of, which makes the filter overconfident.
///
/// Error state (6, in this order): `δs_a` (3, unitless), `δs_g` (3, unitless).
public struct IMUIntrinsics: Sendable, Equatable {
    /// `s_a`: the true specific force is `(1 + s_a) ⊙ (reading − b_a)` (unitless, per axis of `I`).
    public var accelerometerScale: Vector3
    /// `s_g`: the true angular rate is `(1 + s_g) ⊙ (reading − b_g)` (unitless, per axis of `I`).
    public var gyroscopeScale: Vector3

    public init(accelerometerScale: Vector3 = .zero, gyroscopeScale: Vector3 = .zero) {
        self.accelerometerScale = accelerometerScale
        self.gyroscopeScale = gyroscopeScale
    }

    /// No scale error: readings taken as they are.
    public static let none = IMUIntrinsics()

    /// Dimension of the error state.
    public static let errorDimension = 6
    /// Offsets of the blocks in the error state.
    public enum Block { public static let accelerometerScale = 0, gyroscopeScale = 3 }

    /// The specific force (m/s², `I`) of a bias-free reading `f`.
    @inlinable public func specificForce(_ f: Vector3) -> Vector3 { f + accelerometerScale * f }
    /// The angular rate (rad/s, `I`) of a bias-free reading `w`.
    @inlinable public func angularRate(_ w: Vector3) -> Vector3 { w + gyroscopeScale * w }

    /// Corrected by the error `dx` (6 values, see the type's doc).
    public func corrected(by dx: ArraySlice<Double>) -> IMUIntrinsics {
        let i = dx.startIndex
        return IMUIntrinsics(accelerometerScale: accelerometerScale + Vector3(dx[i], dx[i + 1], dx[i + 2]),
                             gyroscopeScale: gyroscopeScale + Vector3(dx[i + 3], dx[i + 4], dx[i + 5]))
    }
}
