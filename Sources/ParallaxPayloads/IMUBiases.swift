import ParallaxMath

/// An estimator's IMU bias estimate at one time (in the IMU frame).
public struct IMUBiases: Sendable, Codable, Equatable {
    /// Gyroscope bias (rad/s).
    public var gyroscope: Vector3
    /// Accelerometer bias (m/s²).
    public var accelerometer: Vector3

    public init(gyroscope: Vector3, accelerometer: Vector3) {
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
    }
}
