import ParallaxMath

/// An accelerometer-only measurement (TUM RGB-D's Kinect accelerometer): specific force in the
/// sensor frame (m/s²).
public struct AccelerometerSample: Sendable, Equatable, Codable {
    /// Specific force (m/s²).
    public var acceleration: Vector3
    /// A sample.
    public init(acceleration: Vector3) { self.acceleration = acceleration }
}
