import ParallaxOptions

/// The estimator's algorithm settings: the `vio` analyzer's options are these, under the same
/// names, each declared here once with its documentation, unit and range (the analyzer embeds
/// them whole). Units are in the names where they are not SI: `…Ms` milliseconds, `…Deg` or
/// `…Degrees` degrees, `…Px` pixels; times otherwise in seconds. The fields are in the order
/// their ranges are checked (the first one out of range is the one reported).
public struct VIOSettings: ParameterGroup, Equatable {
    // MARK: Window and feature updates (MSCKF)

    @Parameter("camera poses kept in the sliding window", range: 3...60) public var window = 11
    @Parameter("fewest frames a feature needs to update the filter", range: 2...60) public var minObservations = 3
    @Parameter("most features used in one update", range: 1...1000) public var maxFeaturesPerUpdate = 100

    // MARK: Landmarks (SLAM features)

    @Parameter("most features kept in the state while tracked beyond the window (SLAM features: they update every frame they are seen); 0: none (measured, chains/vio-mono.yaml, SE3 APE with 0 / 25 / 50: EuRoC MH_01 7.9 / 7.3 / 7.7 mm, simulated orbit 14.0 / 36.3 / 56.8 mm: they follow the drift of long smooth tracks)", range: 0...200)
    public var landmarks = 0
    @Parameter("time after initialization before features join the state (s)", range: 0...60) public var landmarkDelay = 1.0
    @Parameter("longest track (frames) a landmark keeps: frame-to-frame tracks drift (≈ 1.5 px after 100 frames, OpenCV's LK alike), so an older one leaves the state; 0: no limit", range: 0...100_000)
    public var landmarkMaxAge = 40

    // MARK: Feature measurements

    @Parameter("image noise σ (px): KLT's tracking error (measured: SE3 APE on EuRoC MH_01 / the simulated orbit mono / stereo, 1.0 px 5.9 / 15.4 / 4.8 mm, 0.7 px with 100 features per update 5.5 / 12.8 / 3.6 mm, 0.5 px 7.2 / 9.8 / 3.3 mm)", range: 0.01...100) public var pixelNoise = 0.7
    @Parameter("largest RMS reprojection error of a triangulated feature (px)", range: 0.1...100) public var triangulationMaxErrorPx = 5.0
    @Parameter("χ² gate probability for a feature's residual", range: 0.5...0.99999) public var gateProbability = 0.95
    @Parameter("smallest viewing-ray angle for a feature (deg)", range: 0...90) public var minParallaxDegrees = 0.3

    // MARK: Initialization and resets

    @Parameter("IMU data still for this long initializes the filter (s)", range: 0.1...10) public var staticWindow = 1.0
    @Parameter("largest median feature motion over the still window (px) for a still start: a slow turn passes the IMU's test, and its rate taken as gyro bias would start the filter wrong and overconfident", range: 0...1000)
    public var staticMaxDisparityPx = 2.0
    @Parameter("largest IMU gap bridged (ms); a longer one resets the filter", range: 1...10_000) public var maxImuGapMs = 50.0
    @Parameter("frames further apart than this (ms) are a gap: said, and every feature track ends there (what a tracker matched across it is not trusted); the IMU carries the state over it", range: 1...10_000)
    public var maxCameraGapMs = 250.0
    @Parameter("initialize a moving platform from a window of frames and the IMU (closed form)") public var dynamicInit = true
    @Parameter("frames of this span initialize a moving platform (s)", range: 0.2...10) public var dynamicWindow = 1.0
    @Parameter("largest relative error of gravity's length the moving initialization accepts", range: 0.001...1) public var dynamicGravityTolerance = 0.15
    @Parameter("largest RMS reprojection error of the refined moving initialization (px)", range: 0.01...100) public var dynamicMaxErrorPx = 2.0
    @Parameter("largest σ of the moving start's velocity (m/s); a vaguer start waits for more motion", range: 0.001...100) public var dynamicMaxVelocitySigma = 0.5
    @Parameter("largest σ of the moving start's tilt (deg, roll and pitch); a vaguer start waits for more motion", range: 0.01...90) public var dynamicMaxTiltSigmaDeg = 3.0
    @Parameter("smallest RMS change of the specific force over the moving start's window (m/s²): at constant velocity the scale is unobservable", range: 0...100) public var dynamicMinExcitation = 0.1
    @Parameter("start a moving platform with its window's frames as the first clones (window - 1 of them, spread over it), so the first feature updates span the whole window, as OpenVINS does")
    public var dynamicWindowClones = true
    @Parameter("a faster estimate is taken as divergence and resets the filter (m/s)", range: 0.1...1000) public var maxSpeed = 15.0
    @Parameter("fewest features that must update the filter over the last 10 frames (unless standing still) for the state to be normal", range: 0...10_000)
    public var minFeaturesPer10Frames = 10

    // MARK: Calibration

    @Parameter("evaluate Jacobians at first estimates (FEJ): keeps yaw and position unobservable; off by default (measured: helps a still start, hurts a moving one)")
    public var firstEstimates = false
    @Parameter("camera time offset t_IMU − t_camera at the start (ms)", range: -500...500) public var timeOffsetMs = 0.0
    @Parameter("estimate the time offset online (OpenVINS's default too; measured: a simulated camera stamping 10 ms late, SE3 APE 35.8 → 12.4 mm on the orbit and 82.7 → 8.6 mm on 30 s of V1_02, offsets found within 0.1 ms; synchronized data unchanged)")
    public var estimateTimeOffset = true
    @Parameter("σ of the starting time offset (ms)", range: 0.001...100) public var timeOffsetSigmaMs = 5.0
    @Parameter("before the start, look for the camera–IMU time offset within time_offset_ms ± this (ms) by matching the rotations the frames and the gyro see, and start from it; when the frames fit better toward an end of this range, the search widens to ±650 ms, so the IMU input reaches that far past each frame (in --realtime, that latency). 0: no search; needs estimate_time_offset",
               rule: "0 (off) or 5…500", validate: { $0 == 0 || (5...500).contains($0) ? nil : "must be 0 (off) or in 5…500" })
    public var timeOffsetSearchMs = 100.0
    @Parameter("estimate the camera–IMU extrinsics (T_IC) online, as OpenVINS does (measured, SE3 APE / rotation APE: EuRoC MH_01 5.42 mm / 1.14° → 4.89 mm / 0.58°; simulations, whose extrinsics are exact, pay 3–7 %: orbit 12.0 → 12.4 mm, V1_02 30 s 8.5 → 9.1 mm)")
    public var estimateExtrinsics = true
    @Parameter("σ of the starting extrinsic rotation (deg)", range: 0.001...30) public var extrinsicRotationSigmaDeg = 0.5
    @Parameter("σ of the starting extrinsic translation (m): a camera–IMU calibration (Kalibr) places the camera to a few mm; a wider prior lets the lever arm absorb other errors (EuRoC MH_01 10 mm → 3 mm: 5.06 → 4.89 mm SE3 APE; the orbit 13.6 → 12.4 mm)", range: 1e-5...1)
    public var extrinsicTranslationSigmaM = 0.003
    @Parameter("estimate the IMU's scale errors online (accelerometer and gyroscope, per axis; the diagonal of OpenVINS's IMU intrinsics): a scale error of the accelerometer scales the path the filter integrates, which its noise model cannot explain. Off by default: on the EuRoC MH_01 clip (chains/vio-mono.yaml) SE3 APE 4.8 → 4.6 mm and position NEES 66 → 50, but rotation APE 0.49° → 0.60°, and the scales found (accelerometer y 1.3 %, z 1.0 %) are more than this data set can pin down")
    public var estimateImuIntrinsics = false
    @Parameter("σ of the accelerometer's starting scale error (%)", range: 0.001...10) public var accelerometerScaleSigmaPercent = 0.5
    @Parameter("σ of the gyroscope's starting scale error (%)", range: 0.001...10) public var gyroscopeScaleSigmaPercent = 0.5
    @Parameter("accelerometer full scale (m/s², per axis); readings within 0.5 % of it count as saturated, readings beyond twice it are corrupt records and skipped; 0: never", range: 0...10_000)
    public var accelerometerRange = 156.9

    // MARK: Zero-velocity updates

    @Parameter("zero-velocity updates when still; false disables them") public var zupt = true
    @Parameter("IMU data still for this long counts as standing still (s)", range: 0.05...5) public var zuptWindow = 0.3
    @Parameter("largest median feature motion over the zero-velocity window while standing still (px): per frame, a slow walk (7 cm/s, 3 m away: 0.5 px) would pass", range: 0...50) public var zuptMaxDisparityPx = 1.0
    @Parameter("largest σ of the specific force's norm while standing still (m/s²; rotors vibrate)", range: 0...10) public var zuptMaxAccelerationStd = 2.0
    @Parameter("largest gyro deviation from its mean while standing still (rad/s)", range: 0...10) public var zuptMaxRotationRate = 0.5
    @Parameter("σ of the zero-velocity measurement (m/s)", range: 1e-5...1) public var zuptVelocityNoise = 0.01

    // MARK: World map

    /// Build a world map (keyframes with descriptors; needs the camera's images). Not an option:
    /// the `vio` analyzer sets it when given the camera's image stream (`images=`).
    public var mapping = false
    @Parameter("a keyframe every this many metres moved (m)", range: 0.01...100) public var keyframeDistance = 0.2
    @Parameter("… or degrees turned (deg)", range: 0.1...180) public var keyframeAngle = 10.0
    @Parameter("fewest PnP inliers that relocalize into the map (they must also agree with gravity)", range: 6...10_000) public var relocalizationMinInliers = 20
    @Parameter("smallest σ of a map point's position (m) in the updates by map points (each point's own σ from its triangulation counts when larger)", range: 0.0001...1) public var mapPointSigma = 0.01
    @Parameter("largest σ of a triangulated point that goes into the map (m): vaguer ones (short tracks, little parallax) would mislead relocalization", range: 0.001...10) public var mapPointMaxSigma = 0.05
    @Parameter("frames between searches for more map points once relocalized", range: 1...1000) public var mapSearchInterval = 5

    /// The defaults (the `vio` analyzer's).
    public init() {}
}
