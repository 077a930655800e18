import Foundation
import ParallaxMath
import ParallaxFiles

/// Reader for EuRoC/ASL `sensor.yaml` files (camera and IMU), decoded through ``YAMLDecoding``
/// (errors name the file, line and column of the value at fault).
///
/// The files begin with OpenCV's `%YAML:1.0` directive, which is not valid YAML; it is
/// blanked (line numbers are kept) before parsing. `T_BS` is a row-major 4×4
/// `{rows: 4, cols: 4, data: [...]}` and must be a rigid transform. Keys Parallax does not read
/// are allowed: these files come from other tools.
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
        try YAMLDecoding.decode(CameraSensorFile.self, from: withoutOpenCVDirective(yaml), file: path).calibration
    }

    /// Parses IMU calibration text; `path` names the source in errors.
    public static func parseIMU(yaml: String, path: String) throws -> IMUCalibration {
        try YAMLDecoding.decode(IMUSensorFile.self, from: withoutOpenCVDirective(yaml), file: path).calibration
    }

    /// OpenCV's "%YAML:1.0" directive is not YAML: blanked, keeping the line count (lines end
    /// in LF or CRLF; a byte-order mark before it is dropped). Every calibration file read here
    /// (Kalibr's, camera_info) goes through it: OpenCV-written copies of them begin so too.
    public static func withoutOpenCVDirective(_ yaml: String) -> String {
        let text = yaml.hasPrefix("\u{FEFF}") ? String(yaml.dropFirst()) : yaml
        // `whereSeparator: \.isNewline`: "\r\n" is one Character, which a split at "\n" would
        // not see (the whole file would be one line, blanked with the directive).
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { $0.hasPrefix("%YAML:") ? "" : String($0) }
            .joined(separator: "\n")
    }

    static func read(_ path: String) throws -> String {
        switch FileContents.description(atPath: path) {
        case let .success(text): return text
        case let .failure(problem):
            let reason = FileManager.default.fileExists(atPath: path) ? "\(problem)" : "no such file"
            throw CalibrationError.unreadable(path: path, reason: reason)
        }
    }
}
