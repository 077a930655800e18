import Foundation
import ParallaxMath
import Yams
import ParallaxFiles

/// Reader for EuRoC/ASL `sensor.yaml` files (camera and IMU).
///
/// The files begin with OpenCV's `%YAML:1.0` directive, which is not valid YAML; it is
/// blanked (line numbers are kept) before parsing with Yams. `T_BS` is a row-major 4×4
/// `{rows: 4, cols: 4, data: [...]}` and must be a rigid transform.
///
/// ```swift
/// let cam0 = try EuRoCSensorFile.loadCamera(path: "mav0/cam0/sensor.yaml")
/// let pixel = cam0.model.project(p_C)
/// ```
public enum EuRoCSensorFile {
    /// Loads a camera `sensor.yaml` (`camera_model: pinhole`, distortion
    /// `radial-tangential`, `equidistant` or `none`).
    public static func loadCamera(path: String) throws -> CameraCalibration {
        try parseCamera(yaml: read(path), path: path)
    }

    /// Loads an IMU `sensor.yaml`.
    public static func loadIMU(path: String) throws -> IMUCalibration {
        try parseIMU(yaml: read(path), path: path)
    }

    /// Parses camera calibration text; `path` names the source in errors.
    public static func parseCamera(yaml: String, path: String) throws -> CameraCalibration {
        let doc = try Document(yaml: yaml, path: path)
        try doc.requireSensorType("camera")
        let model = try doc.string("camera_model")
        guard model.value == "pinhole" else {
            throw CalibrationError.invalidValue(path: path, key: "camera_model", line: model.line,
                                                reason: "'\(model.value)' is not supported (expected 'pinhole')")
        }
        let resolution = try doc.numbers("resolution", count: 2)
        let intr = try doc.numbers("intrinsics", count: 4)
        guard resolution.value.allSatisfy({ $0 >= 1 && $0 == $0.rounded() }) else {
            throw CalibrationError.invalidValue(path: path, key: "resolution", line: resolution.line,
                                                reason: "expected two positive integers [width, height]")
        }
        // As an image header's: a calibration declaring more pixels than any image may have is
        // refused before anything is allocated for it (ray tables, rectification maps).
        guard resolution.value[0] * resolution.value[1] <= Double(ImageSizeLimit.maxPixels) else {
            func text(_ v: Double) -> String { v < 1e15 ? String(Int(v)) : "\(v)" }
            throw CalibrationError.invalidValue(path: path, key: "resolution", line: resolution.line,
                                                reason: "\(text(resolution.value[0]))×\(text(resolution.value[1])) exceeds the limit of \(Double(ImageSizeLimit.maxPixels) / 1e6) megapixels (--max-image-megapixels)")
        }
        guard intr.value[0] > 0, intr.value[1] > 0 else {
            throw CalibrationError.invalidValue(path: path, key: "intrinsics", line: intr.line,
                                                reason: "focal lengths must be positive, got fu=\(intr.value[0]) fv=\(intr.value[1])")
        }
        let distortionName = try doc.optionalString("distortion_model")?.value ?? "none"
        let distortion: LensDistortion
        switch distortionName {
        case "none":
            distortion = .none
        case "radial-tangential", "radtan":
            let k = try doc.numbers("distortion_coefficients", count: 4).value
            distortion = .radialTangential(k1: k[0], k2: k[1], p1: k[2], p2: k[3])
        case "equidistant":
            let k = try doc.numbers("distortion_coefficients", count: 4).value
            distortion = .equidistant(k1: k[0], k2: k[1], k3: k[2], k4: k[3])
        default:
            throw CalibrationError.invalidValue(path: path, key: "distortion_model", line: doc.line(of: "distortion_model"),
                                                reason: "'\(distortionName)' is not supported (radial-tangential, equidistant or none)")
        }
        let rate = try doc.optionalNumber("rate_hz")
        guard rate.map({ $0.isFinite && $0 > 0 }) ?? true else {
            throw CalibrationError.invalidValue(path: path, key: "rate_hz", line: doc.line(of: "rate_hz"), reason: "must be positive, got \(rate ?? 0)")
        }
        let camera = CameraModel(width: Int(resolution.value[0]), height: Int(resolution.value[1]),
                                 intrinsics: PinholeIntrinsics(fx: intr.value[0], fy: intr.value[1], cx: intr.value[2], cy: intr.value[3]),
                                 distortion: distortion)
        return CameraCalibration(model: camera, bodyFromSensor: try doc.transform("T_BS"),
                                 rateHz: rate, comment: try doc.optionalString("comment")?.value)
    }

    /// Parses IMU calibration text; `path` names the source in errors.
    public static func parseIMU(yaml: String, path: String) throws -> IMUCalibration {
        let doc = try Document(yaml: yaml, path: path)
        try doc.requireSensorType("imu")
        func density(_ key: String) throws -> Double {
            let v = try doc.number(key)
            guard v.value >= 0 else {
                throw CalibrationError.invalidValue(path: path, key: key, line: v.line, reason: "must be non-negative, got \(v.value)")
            }
            return v.value
        }
        let rate = try doc.number("rate_hz")
        guard rate.value > 0 else {
            throw CalibrationError.invalidValue(path: path, key: "rate_hz", line: rate.line, reason: "must be positive, got \(rate.value)")
        }
        let noise = IMUNoiseModel(gyroscopeNoiseDensity: try density("gyroscope_noise_density"),
                                  gyroscopeRandomWalk: try density("gyroscope_random_walk"),
                                  accelerometerNoiseDensity: try density("accelerometer_noise_density"),
                                  accelerometerRandomWalk: try density("accelerometer_random_walk"))
        return IMUCalibration(bodyFromSensor: try doc.transform("T_BS"), rateHz: rate.value, noise: noise)
    }

    static func read(_ path: String) throws -> String {
        guard let text = FileContents.string(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "not UTF-8 text or not readable" : "no such file"
            throw CalibrationError.unreadable(path: path, reason: reason)
        }
        return text
    }
}

/// A parsed YAML mapping with typed, line-aware accessors.
struct Document {
    let path: String
    let root: Node.Mapping

    init(yaml: String, path: String) throws {
        self.path = path
        // OpenCV's "%YAML:1.0" directive is not YAML; blank it but keep the line count.
        let cleaned = yaml.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("%YAML:") ? "" : String($0) }
            .joined(separator: "\n")
        let node: Node?
        do { node = try YAMLText.compose(cleaned) } catch {
            throw CalibrationError.syntax(path: path, line: error.line, message: error.message)
        }
        guard let mapping = node?.mapping else {
            throw CalibrationError.syntax(path: path, line: node?.mark?.line, message: "expected a mapping of keys at the top level")
        }
        root = mapping
    }

    func line(of key: String) -> Int? { root[key]?.mark?.line }

    func node(_ key: String) throws -> Node {
        guard let n = root[key] else { throw CalibrationError.missingKey(path: path, key: key, line: nil) }
        return n
    }

    func string(_ key: String) throws -> (value: String, line: Int?) {
        let n = try node(key)
        guard let s = n.scalar?.string else {
            throw CalibrationError.invalidValue(path: path, key: key, line: n.mark?.line, reason: "expected a text value")
        }
        return (s, n.mark?.line)
    }

    func optionalString(_ key: String) throws -> (value: String, line: Int?)? {
        root[key] == nil ? nil : try string(key)
    }

    func number(_ key: String) throws -> (value: Double, line: Int?) {
        let n = try node(key)
        return (try number(n, key: key), n.mark?.line)
    }

    func optionalNumber(_ key: String) throws -> Double? {
        root[key] == nil ? nil : try number(key).value
    }

    func number(_ n: Node, key: String) throws -> Double {
        guard let text = n.scalar?.string, let v = Double(text.trimmingCharacters(in: .whitespaces)), v.isFinite else {
            throw CalibrationError.invalidValue(path: path, key: key, line: n.mark?.line,
                                                reason: "expected a finite number, got '\(n.scalar?.string ?? "a non-scalar")'")
        }
        return v
    }

    func numbers(_ key: String, count: Int?, in parent: Node.Mapping? = nil) throws -> (value: [Double], line: Int?) {
        guard let n = (parent ?? root)[key] else {
            throw CalibrationError.missingKey(path: path, key: key, line: nil)
        }
        guard let seq = n.sequence else {
            throw CalibrationError.invalidValue(path: path, key: key, line: n.mark?.line, reason: "expected a list of numbers")
        }
        let values = try seq.map { try number($0, key: key) }
        if let count, values.count != count {
            throw CalibrationError.invalidValue(path: path, key: key, line: n.mark?.line,
                                                reason: "expected \(count) numbers, got \(values.count)")
        }
        return (values, n.mark?.line)
    }

    func requireSensorType(_ expected: String) throws {
        guard let found = try optionalString("sensor_type") else { return }
        guard found.value == expected else {
            throw CalibrationError.wrongSensorType(path: path, expected: expected, found: found.value)
        }
    }

    /// A `{rows: 4, cols: 4, data: [16 numbers, row-major]}` rigid transform.
    func transform(_ key: String) throws -> SE3 {
        let n = try node(key)
        guard let m = n.mapping else {
            throw CalibrationError.invalidValue(path: path, key: key, line: n.mark?.line, reason: "expected {rows, cols, data}")
        }
        let rows = m["rows"].flatMap { $0.int }, cols = m["cols"].flatMap { $0.int }
        guard rows == 4, cols == 4 else {
            throw CalibrationError.invalidValue(path: path, key: key, line: n.mark?.line,
                                                reason: "expected a 4×4 matrix, got rows=\(rows.map(String.init) ?? "?") cols=\(cols.map(String.init) ?? "?")")
        }
        let data = try numbers("data", count: 16, in: m)
        do {
            var matrix = Matrix(rows: 4, columns: 4)
            for i in 0..<4 { for j in 0..<4 { matrix[i, j] = data.value[i * 4 + j] } }
            return try SE3(homogeneous: matrix)
        } catch {
            throw CalibrationError.invalidValue(path: path, key: key, line: data.line ?? n.mark?.line, reason: "\(error)")
        }
    }
}
