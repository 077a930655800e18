/// The estimator's algorithm settings (the `vio` analyzer's options, with the same names and
/// defaults). Units are in the names where they are not SI: `…Ms` milliseconds, `…Deg` or
/// `…Degrees` degrees, `…Px` pixels; times otherwise in seconds.
public struct VIOSettings: Sendable, Equatable {
    // MARK: Window and feature updates (MSCKF)

    /// Camera poses kept in the sliding window.
    public var window = 11
    /// Fewest frames a feature needs to update the filter.
    public var minObservations = 3
    /// Most features used in one update.
    public var maxFeaturesPerUpdate = 100
    /// Image noise σ (px): the tracker's error.
    public var pixelNoise = 0.7
    /// Largest RMS reprojection error of a triangulated feature (px).
    public var triangulationMaxErrorPx = 5.0
    /// χ² gate probability for a feature's residual.
    public var gateProbability = 0.95
    /// Smallest viewing-ray angle for a feature (deg).
    public var minParallaxDegrees = 0.3

    // MARK: Landmarks (SLAM features)

    /// Most features kept in the state while tracked beyond the window; 0: none.
    public var landmarks = 0
    /// Time after initialization before features join the state (s).
    public var landmarkDelay = 1.0
    /// Longest track (frames) a landmark keeps; 0: no limit.
    public var landmarkMaxAge = 40

    // MARK: Initialization

    /// IMU data still for this long initializes the filter (s).
    public var staticWindow = 1.0
    /// Largest median feature motion over the still window (px) for a still start.
    public var staticMaxDisparityPx = 2.0
    /// Initialize a moving platform from a window of frames and the IMU (closed form).
    public var dynamicInit = true
    /// Frames of this span initialize a moving platform (s).
    public var dynamicWindow = 1.0
    /// Largest relative error of gravity's length the moving initialization accepts.
    public var dynamicGravityTolerance = 0.15
    /// Largest RMS reprojection error of the refined moving initialization (px).
    public var dynamicMaxErrorPx = 2.0
    /// Largest σ of the moving start's velocity (m/s).
    public var dynamicMaxVelocitySigma = 0.5
    /// Largest σ of the moving start's tilt (deg, roll and pitch).
    public var dynamicMaxTiltSigmaDeg = 3.0
    /// Smallest RMS change of the specific force over the moving start's window (m/s²).
    public var dynamicMinExcitation = 0.1

    // MARK: Health

    /// Largest IMU gap bridged (ms); a longer one resets the filter.
    public var maxImuGapMs = 50.0
    /// A faster estimate is taken as divergence and resets the filter (m/s).
    public var maxSpeed = 15.0
    /// Fewest features that must update the filter over the last 10 frames (unless standing
    /// still) for the state to be normal.
    public var minFeaturesPer10Frames = 10
    /// Accelerometer full scale (m/s², per axis); readings within 0.5 % of it count as
    /// saturated; 0: never.
    public var accelerometerRange = 156.9

    // MARK: Calibration

    /// Evaluate Jacobians at first estimates (FEJ).
    public var firstEstimates = false
    /// Camera time offset `t_IMU − t_camera` at the start (ms).
    public var timeOffsetMs = 0.0
    /// Estimate the time offset online.
    public var estimateTimeOffset = false
    /// σ of the starting time offset (ms).
    public var timeOffsetSigmaMs = 5.0
    /// Estimate the camera–IMU extrinsics (`T_IC`) online.
    public var estimateExtrinsics = false
    /// σ of the starting extrinsic rotation (deg).
    public var extrinsicRotationSigmaDeg = 0.5
    /// σ of the starting extrinsic translation (m).
    public var extrinsicTranslationSigmaM = 0.01

    // MARK: Zero-velocity updates

    /// Zero-velocity updates when standing still.
    public var zupt = true
    /// IMU data still for this long counts as standing still (s).
    public var zuptWindow = 0.3
    /// Largest median feature motion over the zero-velocity window while standing still (px).
    public var zuptMaxDisparityPx = 1.0
    /// Largest σ of the specific force's norm while standing still (m/s²).
    public var zuptMaxAccelerationStd = 2.0
    /// Largest gyro deviation from its mean while standing still (rad/s).
    public var zuptMaxRotationRate = 0.5
    /// σ of the zero-velocity measurement (m/s).
    public var zuptVelocityNoise = 0.01

    // MARK: World map

    /// Build a world map (keyframes with descriptors; needs the camera's images).
    public var mapping = false
    /// A keyframe every this many metres moved (m).
    public var keyframeDistance = 0.2
    /// … or degrees turned (deg).
    public var keyframeAngle = 10.0
    /// Fewest PnP inliers that relocalize into a loaded map.
    public var relocalizationMinInliers = 20
    /// Smallest σ of a map point's position in the updates by map points (m).
    public var mapPointSigma = 0.01
    /// Largest σ of a triangulated point that goes into the map (m).
    public var mapPointMaxSigma = 0.05
    /// Frames between searches for more map points once relocalized.
    public var mapSearchInterval = 5

    /// The defaults (the `vio` analyzer's).
    public init() {}
}
