import ParallaxGeometry
import ParallaxMath

/// What a stream's packets were sensed with, delivered once per stream instead of copied into
/// every packet (MediaPipe's side packets play this role).
///
/// Sources fill it for their streams (a reader from `sensor.yaml` or `parallax.yaml`, the
/// simulator from its configuration). An analyzer reads it for each input in
/// ``Analyzer/open(context:)`` (``AnalyzerContext/metadata(of:)``) and declares it for its
/// outputs there (``AnalyzerContext/describe(_:as:)``): `klt` forwards its camera's calibration
/// to `cam0/tracks`, a resampling stage declares rescaled intrinsics. Every field is optional:
/// a stream describes what applies to it.
public struct StreamMetadata: Sendable, Equatable {
    /// The camera that took the images (intrinsics, distortion, `T_BS`, rate), for camera
    /// streams and streams measured in a camera's pixels (tracks, matches, landmarks).
    public var camera: CameraCalibration?
    /// The IMU: `T_BS`, sample rate and noise densities.
    public var imu: IMUCalibration?
    /// What a depth stream's values mean and which camera they are registered to.
    public var depth: DepthSensor?
    /// The other camera of a stereo pair, when this camera has one.
    public var stereo: StereoPartner?

    /// Metadata with the given parts.
    public init(camera: CameraCalibration? = nil, imu: IMUCalibration? = nil, depth: DepthSensor? = nil,
                stereo: StereoPartner? = nil) {
        self.camera = camera
        self.imu = imu
        self.depth = depth
        self.stereo = stereo
    }

    /// Nothing known.
    public static let none = StreamMetadata()

    /// Whether nothing is known.
    public var isEmpty: Bool { self == .none }
}

/// A depth sensor's description (AVDepthData's calibration and type).
public struct DepthSensor: Sendable, Equatable {
    /// What the values measure.
    public var kind: DepthMap.Kind
    /// The camera model the depth pixels are registered to (intrinsics in depth-map pixels), when known.
    public var camera: CameraCalibration?
    /// Raw units per metre in the recording (5000 for TUM's 16-bit PNGs), when read from raw values.
    public var unitsPerMetre: Double?

    /// A description.
    public init(kind: DepthMap.Kind, camera: CameraCalibration? = nil, unitsPerMetre: Double? = nil) {
        self.kind = kind
        self.camera = camera
        self.unitsPerMetre = unitsPerMetre
    }
}

/// The second camera of a stereo pair, as seen from the first.
public struct StereoPartner: Sendable, Equatable {
    /// The partner camera's stream (`cam1` for `cam0`).
    public var stream: String
    /// `T_C1C0`: this camera's frame to the partner's (`p_C1 = T_C1C0 * p_C0`); from the two
    /// `T_BS`: `T_C1C0 = T_BC1⁻¹ · T_BC0`.
    public var partnerFromThis: SE3

    /// A partner.
    public init(stream: String, partnerFromThis: SE3) {
        self.stream = stream
        self.partnerFromThis = partnerFromThis
    }

    /// The partners of the first two calibrated cameras in `cameras` (by stream name, sorted), so
    /// that readers declare stereo pairs alike. Empty when fewer than two cameras are calibrated.
    public static func pairs(_ cameras: [String: CameraCalibration]) -> [String: StereoPartner] {
        let names = cameras.keys.sorted()
        guard names.count >= 2, let c0 = cameras[names[0]], let c1 = cameras[names[1]] else { return [:] }
        let oneFromZero = c1.bodyFromSensor.inverse * c0.bodyFromSensor
        return [names[0]: StereoPartner(stream: names[1], partnerFromThis: oneFromZero),
                names[1]: StereoPartner(stream: names[0], partnerFromThis: oneFromZero.inverse)]
    }
}
