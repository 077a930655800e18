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
        let resolution = try c.finiteNumbers(.resolution, count: 2, decoder: decoder)
        guard resolution.allSatisfy({ $0 >= 1 && $0 == $0.rounded() }) else {
            throw decoder.yamlProblem("resolution: expected two positive integers [width, height]", at: CodingKeys.resolution)
        }
        // As an image header's: a calibration declaring more pixels than any image may have is
        // refused before anything is allocated for it (ray tables, rectification maps).
        guard resolution[0] * resolution[1] <= Double(ImageSizeLimit.maxPixels) else {
            func text(_ v: Double) -> String { v < 1e15 ? String(Int(v)) : "\(v)" }
            throw decoder.yamlProblem("resolution: \(text(resolution[0]))×\(text(resolution[1])) exceeds the limit of \(Double(ImageSizeLimit.maxPixels) / 1e6) megapixels (--max-image-megapixels)", at: CodingKeys.resolution)
        }
        let k = try c.finiteNumbers(.intrinsics, count: 4, decoder: decoder)
        guard k[0] > 0, k[1] > 0 else {
            throw decoder.yamlProblem("intrinsics: focal lengths must be positive, got fu=\(k[0]) fv=\(k[1])", at: CodingKeys.intrinsics)
        }
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
        let camera = CameraModel(width: Int(resolution[0]), height: Int(resolution[1]),
                                 intrinsics: PinholeIntrinsics(fx: k[0], fy: k[1], cx: k[2], cy: k[3]), distortion: distortion)
        calibration = CameraCalibration(model: camera, bodyFromSensor: try c.decode(RigidTransformText.self, forKey: .bodyFromSensor).transform,
                                        rateHz: rate, comment: try c.decodeIfPresent(String.self, forKey: .comment))
    }
}

/// An IMU `sensor.yaml` as written.
struct IMUSensorFile: Decodable {
    let calibration: IMUCalibration

    enum CodingKeys: String, CodingKey {
        case sensorType = "sensor_type", comment, rateHz = "rate_hz", bodyFromSensor = "T_BS"
        case gyroscopeNoiseDensity = "gyroscope_noise_density", gyroscopeRandomWalk = "gyroscope_random_walk"
        case accelerometerNoiseDensity = "accelerometer_noise_density", accelerometerRandomWalk = "accelerometer_random_walk"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.requireSensorType("imu", key: .sensorType, decoder: decoder)
        func density(_ key: CodingKeys) throws -> Double {
            let v = try c.finiteNumber(key, decoder: decoder)
            guard v >= 0 else { throw decoder.yamlProblem("\(key.stringValue) must be non-negative, got \(v)", at: key) }
            return v
        }
        let rate = try c.finiteNumber(.rateHz, decoder: decoder)
        guard rate > 0 else { throw decoder.yamlProblem("rate_hz must be positive, got \(rate)", at: CodingKeys.rateHz) }
        let noise = IMUNoiseModel(gyroscopeNoiseDensity: try density(.gyroscopeNoiseDensity), gyroscopeRandomWalk: try density(.gyroscopeRandomWalk),
                                  accelerometerNoiseDensity: try density(.accelerometerNoiseDensity), accelerometerRandomWalk: try density(.accelerometerRandomWalk))
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
