import ParallaxFiles

/// An IMU's four noise figures as EuRoC's `sensor.yaml` and Kalibr's `imu.yaml` both write them
/// (same keys, Kalibr's continuous-time units), read from the mapping that holds them: each a
/// finite number ≥ 0, an error at its line otherwise.
struct IMUNoiseText: Decodable {
    let noise: IMUNoiseModel

    enum CodingKeys: String, CodingKey {
        case gyroscopeNoiseDensity = "gyroscope_noise_density", gyroscopeRandomWalk = "gyroscope_random_walk"
        case accelerometerNoiseDensity = "accelerometer_noise_density", accelerometerRandomWalk = "accelerometer_random_walk"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func density(_ key: CodingKeys) throws -> Double {
            let v = try c.finiteNumber(key, decoder: decoder)
            guard v >= 0 else { throw decoder.yamlProblem("\(key.stringValue) must be non-negative, got \(v)", at: key) }
            return v
        }
        noise = IMUNoiseModel(gyroscopeNoiseDensity: try density(.gyroscopeNoiseDensity), gyroscopeRandomWalk: try density(.gyroscopeRandomWalk),
                              accelerometerNoiseDensity: try density(.accelerometerNoiseDensity), accelerometerRandomWalk: try density(.accelerometerRandomWalk))
    }
}
