import ParallaxMath

/// Gyroscope rotation between two consecutive frames (`imu-integrator`'s output), shared in Core so
/// evaluations and other analyzers read it without importing the Diagnostics plugin.
public struct FrameRotation: Sendable, Codable, Equatable {
    /// A rotation between frames.
    public init(rotationVector: Vector3, angle: Double, samples: Int, interval: Double) {
        self.rotationVector = rotationVector
        self.angle = angle
        self.samples = samples
        self.interval = interval
    }

    /// Rotation vector of `R_{S(k−1) S(k)}` in the IMU frame (rad): axis × angle.
    public var rotationVector: Vector3
    /// Its angle (rad).
    public var angle: Double
    /// IMU samples inside the interval.
    public var samples: Int
    /// Interval length (s).
    public var interval: Double
}
