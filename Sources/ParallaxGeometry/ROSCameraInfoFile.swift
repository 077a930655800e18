import ParallaxMath
import ParallaxFiles

/// A ROS `camera_info` YAML file as `camera_calibration` and `camera_info_manager` write it
/// (camera_calibration_parsers), decoded through ``YAMLDecoding`` (errors at the file, line and
/// column of the value at fault; keys Parallax does not read are allowed):
///
/// ```yaml
/// image_width: 752
/// image_height: 480
/// camera_name: cam0
/// camera_matrix: {rows: 3, cols: 3, data: [458.654, 0, 367.215, 0, 457.296, 248.375, 0, 0, 1]}
/// distortion_model: plumb_bob            # plumb_bob / rational_polynomial (k1 k2 p1 p2, further terms 0), equidistant (k1…k4), or none
/// distortion_coefficients: {rows: 1, cols: 5, data: [-0.2834, 0.0740, 0.0002, 1.8e-05, 0]}
/// rectification_matrix: {rows: 3, cols: 3, data: [1, 0, 0, 0, 1, 0, 0, 0, 1]}   # not read (stereo rectification)
/// projection_matrix: {rows: 3, cols: 4, data: [...]}                              # not read
/// ```
///
/// The distortion models are read as a `sensor_msgs/CameraInfo` message is (a bag's camera
/// info). The file has no extrinsics: it says nothing of where the camera sits on the body.
public struct ROSCameraInfoFile: Sendable, Equatable {
    /// `camera_name`, when given.
    public var cameraName: String?
    /// Image size, intrinsics and distortion.
    public var model: CameraModel

    /// Loads `path`.
    public static func load(path: String) throws -> ROSCameraInfoFile {
        try parse(yaml: EuRoCSensorFile.read(path), path: path)
    }

    /// Parses camera_info text; `path` names the source in errors.
    public static func parse(yaml: String, path: String) throws -> ROSCameraInfoFile {
        try YAMLDecoding.decode(ROSCameraInfoFile.self, from: EuRoCSensorFile.withoutOpenCVDirective(yaml), file: path)
    }

    public init(cameraName: String?, model: CameraModel) {
        self.cameraName = cameraName
        self.model = model
    }
}

extension ROSCameraInfoFile: Decodable {
    enum CodingKeys: String, CodingKey {
        case imageWidth = "image_width", imageHeight = "image_height", cameraName = "camera_name", cameraMatrix = "camera_matrix"
        case distortionModel = "distortion_model", distortionCoefficients = "distortion_coefficients"
    }

    /// A matrix as camera_calibration_parsers writes one: `{rows, cols, data: [rows × cols numbers, row-major]}`.
    struct MatrixText: Decodable {
        let rows: Int, cols: Int, data: [Double]
        enum CodingKeys: String, CodingKey { case rows, cols, data }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            rows = try c.decode(Int.self, forKey: .rows)
            cols = try c.decode(Int.self, forKey: .cols)
            data = try c.decode([Double].self, forKey: .data)
            let count = rows.multipliedReportingOverflow(by: cols)
            guard rows >= 0, cols >= 0, !count.overflow, count.partialValue == data.count else {
                throw decoder.yamlProblem("data: expected rows × cols = \(rows) × \(cols) numbers, got \(data.count)", at: CodingKeys.data)
            }
            guard data.allSatisfy(\.isFinite) else { throw decoder.yamlProblem("data: expected finite numbers, got \(data)", at: CodingKeys.data) }
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let size = try c.imageSize(width: .imageWidth, height: .imageHeight, decoder: decoder)
        let k = try c.decode(MatrixText.self, forKey: .cameraMatrix)
        let kDecoder = try c.superDecoder(forKey: .cameraMatrix)
        guard k.rows == 3, k.cols == 3 else { throw kDecoder.yamlProblem("expected a 3×3 matrix, got \(k.rows)×\(k.cols)") }
        let K = k.data
        guard K[0] > 0, K[4] > 0 else { throw kDecoder.yamlProblem("focal lengths must be positive, got fx=\(K[0]) fy=\(K[4])") }
        guard K[1] == 0 else { throw kDecoder.yamlProblem("skew \(K[1]) is not supported (Parallax's pinhole has none)") }
        guard K[3] == 0, K[6] == 0, K[7] == 0, K[8] == 1 else {
            throw kDecoder.yamlProblem("expected [fx, 0, cx, 0, fy, cy, 0, 0, 1], got \(K)")
        }
        let model = try c.decodeIfPresent(String.self, forKey: .distortionModel) ?? ""
        let d = try c.decodeIfPresent(MatrixText.self, forKey: .distortionCoefficients)?.data ?? []
        let distortion: LensDistortion
        let extra = d.count > 4 ? d[4...].filter { $0 != 0 } : []
        switch (model, d.count) {
        case (_, 0), ("none", _), ("", _):
            guard d.allSatisfy({ $0 == 0 }) else {
                throw decoder.yamlProblem("distortion coefficients \(d) without a distortion_model (plumb_bob, equidistant)", at: CodingKeys.distortionCoefficients)
            }
            distortion = .none
        case ("plumb_bob", 4...), ("rational_polynomial", 4...):
            guard extra.isEmpty else {
                throw decoder.yamlProblem("\(model) with non-zero coefficients past k1, k2, p1, p2 (\(d)): Parallax's radial-tangential model has four", at: CodingKeys.distortionCoefficients)
            }
            distortion = .radialTangential(k1: d[0], k2: d[1], p1: d[2], p2: d[3])
        case ("equidistant", 4...):
            guard extra.isEmpty else {
                throw decoder.yamlProblem("equidistant with more than four non-zero coefficients (\(d))", at: CodingKeys.distortionCoefficients)
            }
            distortion = .equidistant(k1: d[0], k2: d[1], k3: d[2], k4: d[3])
        default:
            throw decoder.yamlProblem("distortion_model '\(model)' with \(d.count) coefficient(s) is not one Parallax reads (plumb_bob or equidistant with 4 or more, none)",
                                      at: CodingKeys.distortionModel)
        }
        cameraName = try c.decodeIfPresent(String.self, forKey: .cameraName)
        self.model = CameraModel(width: size.width, height: size.height, intrinsics: PinholeIntrinsics(fx: K[0], fy: K[4], cx: K[2], cy: K[5]), distortion: distortion)
    }
}
