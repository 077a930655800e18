import Foundation
import ParallaxMath
import ParallaxFiles

/// A camera `sensor.yaml` as written.
struct CameraSensorFile: Decodable {
    let calibration: CameraCalibration

    enum CodingKeys: String, CodingKey {
        case sensorType = "sensor_type", comment, rateHz = "rate_hz", resolution, cameraModel = "camera_model", intrinsics
        case distortionModel = "distortion_model", distortionCoefficients = "distortion_coefficients", bodyFromSensor = "T_BS"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.requireSensorType("camera", key: .sensorType, decoder: decoder)
        let model = try c.decode(String.self, forKey: .cameraModel)
        guard model == "pinhole" else { throw decoder.yamlProblem("camera_model '\(model)' is not supported (expected 'pinhole')", at: CodingKeys.cameraModel) }
        let resolution = try c.imageResolution(.resolution, decoder: decoder)
        let intrinsics = try c.pinholeIntrinsics(.intrinsics, decoder: decoder)
        let distortion: LensDistortion
        switch try c.decodeIfPresent(String.self, forKey: .distortionModel) ?? "none" {
        case "none":
            distortion = .none
        case "radial-tangential", "radtan":
            let d = try c.finiteNumbers(.distortionCoefficients, count: 4, decoder: decoder)
            distortion = .radialTangential(k1: d[0], k2: d[1], p1: d[2], p2: d[3])
        case "equidistant":
            let d = try c.finiteNumbers(.distortionCoefficients, count: 4, decoder: decoder)
            distortion = .equidistant(k1: d[0], k2: d[1], k3: d[2], k4: d[3])
        case let other:
            throw decoder.yamlProblem("distortion_model '\(other)' is not supported (radial-tangential, equidistant or none)", at: CodingKeys.distortionModel)
        }
        let rate = try c.decodeIfPresent(Double.self, forKey: .rateHz)
        if let rate, !(rate.isFinite && rate > 0) { throw decoder.yamlProblem("rate_hz must be positive, got \(rate)", at: CodingKeys.rateHz) }
        let camera = CameraModel(width: resolution.width, height: resolution.height, intrinsics: intrinsics, distortion: distortion)
        calibration = CameraCalibration(model: camera, bodyFromSensor: try c.decode(RigidTransformText.self, forKey: .bodyFromSensor).transform,
                                        rateHz: rate, comment: try c.decodeIfPresent(String.self, forKey: .comment))
    }
}

/// An IMU `sensor.yaml` as written.
struct IMUSensorFile: Decodable {
    let calibration: IMUCalibration

    enum CodingKeys: String, CodingKey { case sensorType = "sensor_type", rateHz = "rate_hz", bodyFromSensor = "T_BS" }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.requireSensorType("imu", key: .sensorType, decoder: decoder)
        let rate = try c.finiteNumber(.rateHz, decoder: decoder)
        guard rate > 0 else { throw decoder.yamlProblem("rate_hz must be positive, got \(rate)", at: CodingKeys.rateHz) }
        let noise = try IMUNoiseText(from: decoder).noise
        calibration = IMUCalibration(bodyFromSensor: try c.decode(RigidTransformText.self, forKey: .bodyFromSensor).transform, rateHz: rate, noise: noise)
    }
}

/// A rigid transform written as OpenCV writes a matrix: `{rows: 4, cols: 4, data: [16 numbers,
/// row-major]}` (other keys, such as OpenCV's `dt`, are allowed).
struct RigidTransformText: Decodable {
    let transform: SE3

    enum CodingKeys: String, CodingKey { case rows, cols, data }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let rows = try c.decodeIfPresent(Int.self, forKey: .rows), cols = try c.decodeIfPresent(Int.self, forKey: .cols)
        guard rows == 4, cols == 4 else {
            throw decoder.yamlProblem("expected a 4×4 matrix, got rows=\(rows.map(String.init) ?? "?") cols=\(cols.map(String.init) ?? "?")")
        }
        let data = try c.finiteNumbers(.data, count: 16, decoder: decoder)
        var matrix = Matrix(rows: 4, columns: 4)
        for i in 0..<4 { for j in 0..<4 { matrix[i, j] = data[i * 4 + j] } }
        do { transform = try SE3(homogeneous: matrix) } catch { throw decoder.yamlProblem("\(error)", at: CodingKeys.data) }
    }
}

extension KeyedDecodingContainer {
    /// The finite number at `key`.
    func finiteNumber(_ key: Key, decoder: any Decoder) throws -> Double {
        let v = try decode(Double.self, forKey: key)
        guard v.isFinite else { throw decoder.yamlProblem("\(key.stringValue) must be a finite number, got \(v)", at: key) }
        return v
    }

    /// The list of `count` finite numbers at `key`.
    func finiteNumbers(_ key: Key, count: Int, decoder: any Decoder) throws -> [Double] {
        let values = try decode([Double].self, forKey: key)
        guard values.count == count else { throw decoder.yamlProblem("\(key.stringValue): expected \(count) numbers, got \(values.count)", at: key) }
        guard values.allSatisfy(\.isFinite) else { throw decoder.yamlProblem("\(key.stringValue): expected finite numbers, got \(values)", at: key) }
        return values
    }

    /// Refuses a file whose `sensor_type` names another kind of sensor (a missing one is fine).
    func requireSensorType(_ expected: String, key: Key, decoder: any Decoder) throws {
        guard let found = try decodeIfPresent(String.self, forKey: key), found != expected else { return }
        throw decoder.yamlProblem("sensor_type is '\(found)', expected '\(expected)'", at: key)
    }
}
