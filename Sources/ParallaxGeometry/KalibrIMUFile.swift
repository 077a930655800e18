import ParallaxMath
import ParallaxFiles

/// A Kalibr IMU file, decoded through ``YAMLDecoding`` (errors at the file, line and column of
/// the value at fault; keys Parallax does not read are allowed). Two layouts:
///
/// ```yaml
/// # imu.yaml, Kalibr's input: one IMU at the top level
/// accelerometer_noise_density: 1.86e-03   # m/s²/√Hz
/// accelerometer_random_walk: 4.33e-04     # m/s³/√Hz
/// gyroscope_noise_density: 1.87e-04       # rad/s/√Hz
/// gyroscope_random_walk: 2.66e-05         # rad/s²/√Hz
/// rostopic: /imu0
/// update_rate: 200.0                      # Hz
///
/// # imu-camchain results (kalibr_calibrate_imu_camera): imu0, imu1, … entries with the same keys
/// imu0:
///   T_i_b: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]   # body → this IMU's frame
///   accelerometer_noise_density: 1.86e-03
///   …
/// ```
public struct KalibrIMUFile: Sendable, Equatable {
    /// One IMU of the file.
    public struct IMU: Sendable, Equatable {
        /// Its key (`imu0`); `nil` in the top-level layout.
        public var name: String?
        /// The ROS topic its samples were read from (`rostopic`), when given.
        public var topic: String?
        /// Rate (`update_rate`, Hz) and noise; `T_BS = T_i_b⁻¹`, identity when the file has no `T_i_b`.
        public var calibration: IMUCalibration
        /// Whether the file places the IMU on the body (`T_i_b`).
        public var statesBodyFromSensor: Bool
    }

    /// The IMUs: one unnamed in the top-level layout, else by number (`imu0`, `imu1`, …).
    public var imus: [IMU]

    /// Loads `path`.
    public static func load(path: String) throws -> KalibrIMUFile {
        try parse(yaml: EuRoCSensorFile.read(path), path: path)
    }

    /// Parses IMU text; `path` names the source in errors.
    public static func parse(yaml: String, path: String) throws -> KalibrIMUFile {
        let text = EuRoCSensorFile.withoutOpenCVDirective(yaml)
        let entries = try YAMLDecoding.decode(KalibrEntries<IMUText>.self, from: text, file: path).entries
        if !entries.isEmpty {
            return KalibrIMUFile(imus: entries.map { name, _, imu in IMU(name: name, topic: imu.topic, calibration: imu.calibration, statesBodyFromSensor: imu.statesBodyFromSensor) })
        }
        let one = try YAMLDecoding.decode(IMUText.self, from: text, file: path)
        return KalibrIMUFile(imus: [IMU(name: nil, topic: one.topic, calibration: one.calibration, statesBodyFromSensor: one.statesBodyFromSensor)])
    }

    /// One IMU as written.
    struct IMUText: KalibrNumberedEntry {
        static let prefix = "imu"
        let calibration: IMUCalibration
        let topic: String?
        let statesBodyFromSensor: Bool

        enum CodingKeys: String, CodingKey { case updateRate = "update_rate", rostopic, imuFromBody = "T_i_b" }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let noise = try IMUNoiseText(from: decoder).noise
            let rate = try c.finiteNumber(.updateRate, decoder: decoder)
            guard rate > 0 else { throw decoder.yamlProblem("update_rate must be positive (Hz), got \(rate)", at: CodingKeys.updateRate) }
            let imuFromBody = try c.decodeIfPresent(KalibrTransformText.self, forKey: .imuFromBody)?.transform
            statesBodyFromSensor = imuFromBody != nil
            calibration = IMUCalibration(bodyFromSensor: imuFromBody?.inverse ?? .identity, rateHz: rate, noise: noise)
            topic = try c.decodeIfPresent(String.self, forKey: .rostopic)
        }
    }
}
