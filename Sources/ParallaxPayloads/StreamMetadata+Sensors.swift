import ParallaxBus
import ParallaxGeometry
import ParallaxMath

/// The sensor descriptions of the shared vocabulary: a camera's calibration, an IMU's, a depth
/// sensor's and a stereo partner, as parts of a stream's ``StreamMetadata``.
extension StreamMetadata {
    /// The key of ``camera``.
    public enum CameraKey: StreamMetadataKey { public typealias Value = CameraCalibration }
    /// The key of ``imu``.
    public enum IMUKey: StreamMetadataKey { public typealias Value = IMUCalibration }
    /// The key of ``depth``.
    public enum DepthKey: StreamMetadataKey { public typealias Value = DepthSensor }
    /// The key of ``stereo``.
    public enum StereoKey: StreamMetadataKey { public typealias Value = StereoPartner }

    /// The camera that took the images (intrinsics, distortion, `T_BS`, rate), for camera
    /// streams and streams measured in a camera's pixels (tracks, matches, landmarks).
    public var camera: CameraCalibration? {
        get { self[CameraKey.self] }
        set { self[CameraKey.self] = newValue }
    }
    /// The IMU: `T_BS`, sample rate and noise densities.
    public var imu: IMUCalibration? {
        get { self[IMUKey.self] }
        set { self[IMUKey.self] = newValue }
    }
    /// What a depth stream's values mean and which camera they are registered to.
    public var depth: DepthSensor? {
        get { self[DepthKey.self] }
        set { self[DepthKey.self] = newValue }
    }
    /// The other camera of a stereo pair, when this camera has one.
    public var stereo: StereoPartner? {
        get { self[StereoKey.self] }
        set { self[StereoKey.self] = newValue }
    }

    /// Metadata with the given parts.
    public init(camera: CameraCalibration? = nil, imu: IMUCalibration? = nil, depth: DepthSensor? = nil,
                stereo: StereoPartner? = nil) {
        self = .none
        self.camera = camera
        self.imu = imu
        self.depth = depth
        self.stereo = stereo
    }
}

/// A depth sensor's description (AVDepthData's calibration and type).
public struct DepthSensor: Sendable, Equatable {
    /// What the values measure.
    public var kind: DepthMap.Kind
    /// The camera model the depth pixels are registered to (intrinsics in depth-map pixels), when known.
    public var camera: CameraCalibration?
    /// Raw units per metre in the recording (5000 for TUM's 16-bit PNGs), when read from raw values.
    public var unitsPerMetre: Double?
    /// The depths the sensor measures (m), when known (a stereo matcher's from its disparities,
    /// a folder's `range:`): depth analyzers take their limits from it when not given.
    public var range: ClosedRange<Double>?

    /// A description.
    public init(kind: DepthMap.Kind, camera: CameraCalibration? = nil, unitsPerMetre: Double? = nil, range: ClosedRange<Double>? = nil) {
        self.kind = kind
        self.camera = camera
        self.unitsPerMetre = unitsPerMetre
        self.range = range
    }
}

/// The second camera of a stereo pair, as seen from the first.
public struct StereoPartner: Sendable, Equatable {
    /// The partner camera's stream (`cam1` for `cam0`).
    public var stream: String
    /// `T_C1C0`: this camera's frame to the partner's (`p_C1 = T_C1C0 * p_C0`); from the two
    /// `T_BS`: `T_C1C0 = T_BC1⁻¹ · T_BC0`.
    public var partnerFromThis: SE3
    /// The disparities this camera's pixels can have against the partner, when the dataset says
    /// (Middlebury's `ndisp`, KITTI's range); `nil`: not known (a matcher derives a search from
    /// the baseline).
    public var disparitySearch: DisparitySearch?

    /// A partner.
    public init(stream: String, partnerFromThis: SE3, disparitySearch: DisparitySearch? = nil) {
        self.stream = stream
        self.partnerFromThis = partnerFromThis
        self.disparitySearch = disparitySearch
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

/// How many disparities a rectified pair's matcher must search, as a dataset states it.
public struct DisparitySearch: Sendable, Equatable {
    /// Disparities `0 ..< levels` (px, of the left image against the right) hold every match.
    public var levels: Int
    /// Where the dataset says so, for the run's note ("calib.txt (ndisp)").
    public var origin: String

    /// A search of `levels` disparities, said by `origin`.
    public init(levels: Int, origin: String) {
        self.levels = levels
        self.origin = origin
    }
}
