import Foundation
import ParallaxMath

extension EuRoCSensorFile {
    /// A camera `sensor.yaml` in EuRoC's layout (readable by ``loadCamera(path:)`` and by
    /// EuRoC tools), numbers written with full round-trip precision.
    public static func cameraYAML(_ calibration: CameraCalibration) -> String {
        let m = calibration.model, k = m.intrinsics
        var text = "%YAML:1.0\nsensor_type: camera\n"
        if let comment = calibration.comment { text += "comment: \"\(comment.replacingOccurrences(of: "\"", with: "'"))\"\n" }
        text += transformYAML(calibration.bodyFromSensor)
        if let rate = calibration.rateHz { text += "rate_hz: \(rate)\n" }
        text += "resolution: [\(m.width), \(m.height)]\n"
        text += "camera_model: pinhole\n"
        text += "intrinsics: [\(k.fx), \(k.fy), \(k.cx), \(k.cy)]\n"
        text += "distortion_model: \(m.distortion.name)\n"
        text += "distortion_coefficients: [\(m.distortion.coefficients.map { "\($0)" }.joined(separator: ", "))]\n"
        return text
    }

    /// An IMU `sensor.yaml` in EuRoC's layout (noise densities in Kalibr units).
    public static func imuYAML(_ imu: IMUCalibration) -> String {
        "%YAML:1.0\nsensor_type: imu\n" + transformYAML(imu.bodyFromSensor) + "rate_hz: \(imu.rateHz)\n"
            + "gyroscope_noise_density: \(imu.noise.gyroscopeNoiseDensity)\n"
            + "gyroscope_random_walk: \(imu.noise.gyroscopeRandomWalk)\n"
            + "accelerometer_noise_density: \(imu.noise.accelerometerNoiseDensity)\n"
            + "accelerometer_random_walk: \(imu.noise.accelerometerRandomWalk)\n"
    }

    /// `T_BS` as EuRoC writes it: `{cols: 4, rows: 4, data: [16 numbers row-major]}`.
    static func transformYAML(_ t: SE3) -> String {
        let m = t.matrix
        let rows = (0..<4).map { i in (0..<4).map { j in "\(m[i, j])" }.joined(separator: ", ") }
        return "T_BS:\n  cols: 4\n  rows: 4\n  data: [\(rows.joined(separator: ",\n         "))]\n"
    }
}
