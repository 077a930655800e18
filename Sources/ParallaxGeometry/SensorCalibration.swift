import ParallaxMath

/// A calibrated camera: its model plus where it sits on the body.
public struct CameraCalibration: Sendable, Equatable {
    /// Projection model (image size, intrinsics, distortion).
    public var model: CameraModel
    /// Sensor-to-body transform `T_BS` (`p_B = T_BS * p_S`).
    public var bodyFromSensor: SE3
    /// Nominal frame rate (Hz), when the file states it.
    public var rateHz: Double?
    /// Free-text description from the file.
    public var comment: String?

    /// A calibration from its parts.
    public init(model: CameraModel, bodyFromSensor: SE3 = .identity, rateHz: Double? = nil, comment: String? = nil) {
        self.model = model
        self.bodyFromSensor = bodyFromSensor
        self.rateHz = rateHz
        self.comment = comment
    }
}

/// IMU noise model in continuous time (Kalibr / EuRoC convention).
public struct IMUNoiseModel: Sendable, Equatable, Codable {
    /// Gyroscope white noise density σ_g (rad/s/√Hz).
    public var gyroscopeNoiseDensity: Double
    /// Gyroscope bias random walk σ_bg (rad/s²/√Hz).
    public var gyroscopeRandomWalk: Double
    /// Accelerometer white noise density σ_a (m/s²/√Hz).
    public var accelerometerNoiseDensity: Double
    /// Accelerometer bias random walk σ_ba (m/s³/√Hz).
    public var accelerometerRandomWalk: Double

    /// A noise model from its four densities.
    public init(gyroscopeNoiseDensity: Double, gyroscopeRandomWalk: Double,
                accelerometerNoiseDensity: Double, accelerometerRandomWalk: Double) {
        self.gyroscopeNoiseDensity = gyroscopeNoiseDensity
        self.gyroscopeRandomWalk = gyroscopeRandomWalk
        self.accelerometerNoiseDensity = accelerometerNoiseDensity
        self.accelerometerRandomWalk = accelerometerRandomWalk
    }
}

/// A calibrated IMU.
public struct IMUCalibration: Sendable, Equatable {
    /// Sensor-to-body transform `T_BS`.
    public var bodyFromSensor: SE3
    /// Sample rate (Hz).
    public var rateHz: Double
    /// Noise densities.
    public var noise: IMUNoiseModel

    /// A calibration from its parts.
    public init(bodyFromSensor: SE3 = .identity, rateHz: Double, noise: IMUNoiseModel) {
        self.bodyFromSensor = bodyFromSensor
        self.rateHz = rateHz
        self.noise = noise
    }
}
