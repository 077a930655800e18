import ParallaxMath

/// One inertial measurement in the IMU's sensor frame `S`.
public struct IMUSample: Sendable, Equatable, Codable {
    /// Angular velocity ω_S (rad/s).
    public var gyroscope: Vector3
    /// Specific force (acceleration minus gravity, as an accelerometer measures it) (m/s²).
    public var accelerometer: Vector3

    /// A sample.
    public init(gyroscope: Vector3, accelerometer: Vector3) {
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
    }
}
