import ParallaxMath
import ParallaxFiles

/// A Kalibr camera chain (`camchain.yaml` from `kalibr_calibrate_cameras`,
/// `camchain-imucam.yaml` from `kalibr_calibrate_imu_camera`), decoded through ``YAMLDecoding``
/// (errors at the file, line and column of the value at fault; keys Parallax does not read, such
/// as `cam_overlaps`, are allowed).
///
/// ```yaml
/// cam0:
///   camera_model: pinhole                              # the only model read
///   intrinsics: [458.654, 457.296, 367.215, 248.375]   # fu, fv, pu, pv (px)
///   distortion_model: radtan                           # radtan (k1 k2 r1 r2), equidistant (k1…k4) or none
///   distortion_coeffs: [-0.2834, 0.0740, 0.0002, 1.8e-05]
///   resolution: [752, 480]
///   rostopic: /cam0/image_raw
///   T_cam_imu:                                         # IMU frame → this camera's (imu-camera calibrations)
///   - [0.0149, 0.9996, -0.0258, 0.0652]
///   - [-0.9999, 0.0150, 0.0038, -0.0207]
///   - [0.0041, 0.0257, 0.9997, -0.0081]
///   - [0.0, 0.0, 0.0, 1.0]
///   timeshift_cam_imu: 0.0                             # s (t_imu = t_cam + shift)
///   # T_imu_cam: the inverse, as OpenVINS's configurations write it instead
/// cam1:
///   T_cn_cnm1: [...]                                   # cam0's frame → cam1's
///   ...
/// ```
public struct KalibrCamchain: Sendable, Equatable {
    /// One camera of the chain.
    public struct Camera: Sendable, Equatable {
        /// Its key (`cam0`).
        public var name: String
        /// The ROS topic its images were read from (`rostopic`), when given.
        public var topic: String?
        /// Image size, intrinsics and distortion.
        public var model: CameraModel
        /// `T_cam_imu`: the IMU's frame to this camera's (`p_C = T_cam_imu · p_I`), when given
        /// (or its inverse `T_imu_cam`, as OpenVINS writes it).
        public var cameraFromIMU: SE3?
        /// `T_cn_cnm1`: the previous camera's frame to this one's, when given.
        public var cameraFromPrevious: SE3?
        /// `timeshift_cam_imu` (s): `t_imu = t_cam + shift`, when given.
        public var timeshiftToIMU: Double?
    }

    /// The cameras, by number (`cam0`, `cam1`, …).
    public var cameras: [Camera]

    /// Loads `path`.
    public static func load(path: String) throws -> KalibrCamchain {
        try parse(yaml: EuRoCSensorFile.read(path), path: path)
    }

    /// Parses camchain text; `path` names the source in errors.
    public static func parse(yaml: String, path: String) throws -> KalibrCamchain {
        let file = try YAMLDecoding.decode(ChainText.self, from: EuRoCSensorFile.withoutOpenCVDirective(yaml), file: path)
        return KalibrCamchain(cameras: file.cameras.entries.map { name, _, text in
            Camera(name: name, topic: text.topic, model: text.model, cameraFromIMU: text.cameraFromIMU, cameraFromPrevious: text.cameraFromPrevious,
                   timeshiftToIMU: text.timeshift)
        })
    }

    /// The camera called `name`, if the chain has it.
    public func camera(named name: String) -> Camera? { cameras.first { $0.name == name } }

    /// Where camera `name` sits on the body, the body being the IMU's frame (EuRoC's convention):
    /// `T_BS = T_cam_imu⁻¹`; for a camera without `T_cam_imu`, through its `T_cn_cnm1` from the
    /// camera numbered one below (`T_cam_imu = T_cn_cnm1 · T_cnm1_imu`). `nil` when the chain
    /// does not relate the camera to an IMU (a camera-only calibration).
    public func bodyFromCamera(named name: String) -> SE3? {
        guard let k = cameras.firstIndex(where: { $0.name == name }) else { return nil }
        return cameraFromIMU(at: k)?.inverse
    }

    private func cameraFromIMU(at k: Int) -> SE3? {
        let camera = cameras[k]
        if let direct = camera.cameraFromIMU { return direct }
        guard k > 0, let fromPrevious = camera.cameraFromPrevious,
              Int(camera.name.dropFirst(3)) == Int(cameras[k - 1].name.dropFirst(3)).map({ $0 + 1 }),
              let previous = cameraFromIMU(at: k - 1) else { return nil }
        return fromPrevious * previous
    }

    /// The file as written: at least one camera.
    struct ChainText: Decodable {
        let cameras: KalibrEntries<CameraText>
        init(from decoder: any Decoder) throws {
            cameras = try KalibrEntries(from: decoder)
            guard !cameras.entries.isEmpty else { throw decoder.yamlProblem("no cameras: a Kalibr camchain holds cam0, cam1, … entries") }
        }
    }

    /// One `camN:` entry as written.
    struct CameraText: KalibrNumberedEntry {
        static let prefix = "cam"
        let model: CameraModel
        let topic: String?
        let cameraFromIMU: SE3?
        let cameraFromPrevious: SE3?
        let timeshift: Double?

        enum CodingKeys: String, CodingKey {
            case cameraModel = "camera_model", intrinsics, distortionModel = "distortion_model", distortionCoefficients = "distortion_coeffs"
            case resolution, rostopic, cameraFromIMU = "T_cam_imu", imuFromCamera = "T_imu_cam", cameraFromPrevious = "T_cn_cnm1", timeshift = "timeshift_cam_imu"
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let cameraModel = try c.decodeIfPresent(String.self, forKey: .cameraModel) ?? "pinhole"
            guard cameraModel == "pinhole" else {
                throw decoder.yamlProblem("camera_model '\(cameraModel)' is not supported (pinhole)", at: CodingKeys.cameraModel)
            }
            let resolution = try c.imageResolution(.resolution, decoder: decoder)
            let intrinsics = try c.pinholeIntrinsics(.intrinsics, decoder: decoder)
            let distortion: LensDistortion
            switch try c.decodeIfPresent(String.self, forKey: .distortionModel) ?? "none" {
            case "none":
                distortion = .none
            case "radtan":
                let d = try c.finiteNumbers(.distortionCoefficients, count: 4, decoder: decoder)
                distortion = .radialTangential(k1: d[0], k2: d[1], p1: d[2], p2: d[3])
            case "equidistant":
                let d = try c.finiteNumbers(.distortionCoefficients, count: 4, decoder: decoder)
                distortion = .equidistant(k1: d[0], k2: d[1], k3: d[2], k4: d[3])
            case let other:
                throw decoder.yamlProblem("distortion_model '\(other)' is not supported (radtan, equidistant or none)", at: CodingKeys.distortionModel)
            }
            model = CameraModel(width: resolution.width, height: resolution.height, intrinsics: intrinsics, distortion: distortion)
            topic = try c.decodeIfPresent(String.self, forKey: .rostopic)
            cameraFromIMU = try c.decodeIfPresent(KalibrTransformText.self, forKey: .cameraFromIMU)?.transform
                ?? c.decodeIfPresent(KalibrTransformText.self, forKey: .imuFromCamera)?.transform.inverse
            cameraFromPrevious = try c.decodeIfPresent(KalibrTransformText.self, forKey: .cameraFromPrevious)?.transform
            if c.contains(.timeshift) {
                let shift = try c.finiteNumber(.timeshift, decoder: decoder)
                timeshift = shift
            } else {
                timeshift = nil
            }
        }
    }
}
