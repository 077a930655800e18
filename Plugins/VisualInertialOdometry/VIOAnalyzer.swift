import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxInertial
import ParallaxMath
import ParallaxVision

/// Visual-inertial odometry: a sliding-window MSCKF over camera feature tracks and the IMU,
/// giving metric poses `T_WB` (world gravity-aligned, z up), velocity, a 6×6 covariance and
/// ARKit's tracking state every frame, plus the estimated IMU biases.
///
/// Per frame: the IMU state is propagated to the frame time (the IMU input looks ahead to the
/// first sample after the frame, so the end is interpolated), the pose is cloned into the
/// window, features whose tracks ended — and, when the window is full, those seen in the oldest
/// clone — update the filter, and the oldest clone is marginalized.
/// Initialization: from a still window (the IMU still and the features moving at most
/// ``Options/staticMaxDisparityPx`` over it; gravity levels the attitude, the mean gyro is its
/// bias) or, for a platform already moving, by the closed-form visual-inertial alignment of the
/// last ``Options/dynamicWindow`` seconds (``DynamicInitializer``); until then the state is
/// `limited(initializing)`. While the platform stands still (the IMU still over
/// ``Options/zuptWindow`` and the features moving at most ``Options/zuptMaxDisparityPx`` over
/// it), a zero-velocity update holds it in place: a still camera gives no parallax, so vision
/// alone cannot stop the drift. Both stillness tests need the images: a slow steady turn or a
/// slow walk looks still to the IMU.
///
/// World maps (ARKit's `ARWorldMap`, docs/world-maps.md): given the camera's `images`, keyframes
/// keep ORB descriptors of the tracked features and the filter's triangulations of them
/// (``MapBuilder``); the map goes out on `<output>-map` when the run ends (`parallax run
/// --save-map FILE` writes it) and the mapping status on `<output>-mapping` every frame. With
/// `map=FILE` the filter runs in its own frame until one view is found in the map
/// (``MapLocalizer``: descriptor matching, gravity-aware PnP + RANSAC); until then each pose is
/// `limited(relocalizing)`. Then the filter is moved into the map's frame and the tracked
/// features matched to map points update it as known points, so every later pose is in the
/// map's frame and held to it.
///
/// Example chain: `klt camera=cam0 ! vio` (`chains/vio-mono.yaml`).
public struct VIOAnalyzer: Analyzer {
    public static let name = "vio"
    public static let summary = "Visual-inertial odometry (MSCKF): metric poses T_WB with covariance and tracking state from feature tracks + IMU"

    public struct Options: AnalyzerOptions {
        @Parameter("FeatureTracks stream of the camera (from klt)") public var tracks = "cam0/tracks"
        @Parameter("IMU stream") public var imu = "imu0"
        @Parameter("pose stream written (T_WB); biases go to <output>-biases") public var output = "vio/pose"
        @Parameter("camera poses kept in the sliding window", range: 3...60) public var window = 11
        @Parameter("use the tracks' stereo matches (klt stereo_camera=cam1) when their stream declares a calibrated pair") public var stereo = true
        @Parameter("fewest frames a feature needs to update the filter", range: 2...60) public var minObservations = 3
        @Parameter("most features used in one update", range: 1...1000) public var maxFeaturesPerUpdate = 100
        @Parameter("most features kept in the state while tracked beyond the window (SLAM features: they update every frame they are seen); 0: none (measured, chains/vio-mono.yaml, SE3 APE with 0 / 25 / 50: EuRoC MH_01 7.9 / 7.3 / 7.7 mm, simulated orbit 14.0 / 36.3 / 56.8 mm: they follow the drift of long smooth tracks)", range: 0...200)
        public var landmarks = 0
        @Parameter("time after initialization before features join the state (s)", range: 0...60) public var landmarkDelay = 1.0
        @Parameter("longest track (frames) a landmark keeps: frame-to-frame tracks drift (≈ 1.5 px after 100 frames, OpenCV's LK alike), so an older one leaves the state; 0: no limit", range: 0...100_000)
        public var landmarkMaxAge = 40
        @Parameter("image noise σ (px): KLT's tracking error (measured: SE3 APE on EuRoC MH_01 / the simulated orbit mono / stereo, 1.0 px 5.9 / 15.4 / 4.8 mm, 0.7 px with 100 features per update 5.5 / 12.8 / 3.6 mm, 0.5 px 7.2 / 9.8 / 3.3 mm)", range: 0.01...100) public var pixelNoise = 0.7
        @Parameter("largest RMS reprojection error of a triangulated feature (px)", range: 0.1...100) public var triangulationMaxErrorPx = 5.0
        @Parameter("χ² gate probability for a feature's residual", range: 0.5...0.99999) public var gateProbability = 0.95
        @Parameter("smallest viewing-ray angle for a feature (deg)", range: 0...90) public var minParallaxDegrees = 0.3
        @Parameter("IMU data still for this long initializes the filter (s)", range: 0.1...10) public var staticWindow = 1.0
        @Parameter("largest median feature motion over the still window (px) for a still start: a slow turn passes the IMU's test, and its rate taken as gyro bias would start the filter wrong and overconfident", range: 0...1000)
        public var staticMaxDisparityPx = 2.0
        @Parameter("largest IMU gap bridged (ms); a longer one resets the filter", range: 1...10_000) public var maxImuGapMs = 50.0
        @Parameter("initialize a moving platform from a window of frames and the IMU (closed form)") public var dynamicInit = true
        @Parameter("frames of this span initialize a moving platform (s)", range: 0.2...10) public var dynamicWindow = 1.0
        @Parameter("largest relative error of gravity's length the moving initialization accepts", range: 0.001...1) public var dynamicGravityTolerance = 0.15
        @Parameter("largest RMS reprojection error of the refined moving initialization (px)", range: 0.01...100) public var dynamicMaxErrorPx = 2.0
        @Parameter("largest σ of the moving start's velocity (m/s); a vaguer start waits for more motion", range: 0.001...100) public var dynamicMaxVelocitySigma = 0.5
        @Parameter("largest σ of the moving start's tilt (deg, roll and pitch); a vaguer start waits for more motion", range: 0.01...90) public var dynamicMaxTiltSigmaDeg = 3.0
        @Parameter("smallest RMS change of the specific force over the moving start's window (m/s²): at constant velocity the scale is unobservable", range: 0...100) public var dynamicMinExcitation = 0.1
        @Parameter("a faster estimate is taken as divergence and resets the filter (m/s)", range: 0.1...1000) public var maxSpeed = 15.0
        @Parameter("fewest features that must update the filter over the last 10 frames (unless standing still) for the state to be normal", range: 0...10_000)
        public var minFeaturesPer10Frames = 10
        @Parameter("evaluate Jacobians at first estimates (FEJ): keeps yaw and position unobservable; off by default (measured: helps a still start, hurts a moving one)")
        public var firstEstimates = false
        @Parameter("camera time offset t_IMU − t_camera at the start (ms)", range: -500...500) public var timeOffsetMs = 0.0
        @Parameter("estimate the time offset online") public var estimateTimeOffset = false
        @Parameter("σ of the starting time offset (ms)", range: 0.001...100) public var timeOffsetSigmaMs = 5.0
        @Parameter("estimate the camera–IMU extrinsics (T_IC) online") public var estimateExtrinsics = false
        @Parameter("σ of the starting extrinsic rotation (deg)", range: 0.001...30) public var extrinsicRotationSigmaDeg = 0.5
        @Parameter("σ of the starting extrinsic translation (m)", range: 1e-5...1) public var extrinsicTranslationSigmaM = 0.01
        @Parameter("accelerometer full scale (m/s², per axis); readings within 0.5 % of it count as saturated; 0: never", range: 0...10_000)
        public var accelerometerRange = 156.9
        @Parameter("zero-velocity updates when still; false disables them") public var zupt = true
        @Parameter("IMU data still for this long counts as standing still (s)", range: 0.05...5) public var zuptWindow = 0.3
        @Parameter("largest median feature motion over the zero-velocity window while standing still (px): per frame, a slow walk (7 cm/s, 3 m away: 0.5 px) would pass", range: 0...50) public var zuptMaxDisparityPx = 1.0
        @Parameter("largest σ of the specific force's norm while standing still (m/s²; rotors vibrate)", range: 0...10) public var zuptMaxAccelerationStd = 2.0
        @Parameter("largest gyro deviation from its mean while standing still (rad/s)", range: 0...10) public var zuptMaxRotationRate = 0.5
        @Parameter("σ of the zero-velocity measurement (m/s)", range: 1e-5...1) public var zuptVelocityNoise = 0.01
        @Parameter("the camera's image stream, for the world map (keyframe descriptors; needed by map= and by parallax run --save-map); empty: no map") public var images = ""
        @Parameter("world map file (.pxmap, from parallax run --save-map) to relocalize into: poses are in its frame once relocalized; needs images=") public var map = ""
        @Parameter("a keyframe every this many metres moved (m)", range: 0.01...100) public var keyframeDistance = 0.2
        @Parameter("… or degrees turned (deg)", range: 0.1...180) public var keyframeAngle = 10.0
        @Parameter("fewest PnP inliers that relocalize into the map (they must also agree with gravity)", range: 6...10_000) public var relocalizationMinInliers = 20
        @Parameter("smallest σ of a map point's position (m) in the updates by map points (each point's own σ from its triangulation counts when larger)", range: 0.0001...1) public var mapPointSigma = 0.01
        @Parameter("largest σ of a triangulated point that goes into the map (m): vaguer ones (short tracks, little parallax) would mislead relocalization", range: 0.001...10) public var mapPointMaxSigma = 0.05
        @Parameter("frames between searches for more map points once relocalized", range: 1...1000) public var mapSearchInterval = 5
        public init() {}
    }

    private let tracksPort: InputPort<FeatureTracks>
    private let imuPort: InputPort<IMUSample>
    private let posePort: OutputPort<Pose>
    private let biasPort: OutputPort<IMUBiases>
    private let imagesPort: InputPort<CameraFrame>?
    private let mapPort: OutputPort<WorldMap>?
    private let mappingPort: OutputPort<WorldMappingStatus>?
    let options: Options

    var camera: CameraCalibration?
    private var imuCalibration: IMUCalibration?
    /// `T_IB`: body to IMU.
    private var imuFromBody = SE3.identity
    private var filter: MSCKF?
    var update: FeatureUpdate
    /// IMU measurements (time in s since `epoch`), oldest first, trimmed to what is still needed.
    private var measurements: [IMUMeasurement] = []
    private var epoch: Timestamp?
    /// Feature observations: id → (clone time, normalized point, and in the stereo partner).
    var features: [UInt64: [(time: Timestamp, normalized: Vector2, stereo: Vector2?)]] = [:]
    /// Ids of the features in the filter's state (``MSCKF/landmarks``).
    var landmarkIDs: Set<UInt64> = []
    /// When the filter started (s).
    private var initializedAt = 0.0
    /// `T_C1C0` of the tracked camera's stereo partner, when stereo matches are used.
    private var stereoFromCamera: SE3?
    private var warnedNaN = false
    /// Times (s) of accelerometer readings at full scale, not yet propagated through.
    private var saturated: [Double] = []
    private var saturatedCount = 0
    /// Frames a saturated reading keeps the state `limited(excessiveMotion)` (0.5 s at 20 Hz:
    /// long enough for the features to pull the widened velocity back).
    private static let framesLimitedAfterSaturation = 10
    /// Frames left in `limited(excessiveMotion)` after saturated readings.
    private var excessiveMotionFrames = 0
    private var resets = 0
    var used: [FeatureUpdate.Rejection?: Int] = [:]
    private var zeroVelocityUpdates = 0
    /// The frames of the last ``Options/staticWindow`` or ``Options/zuptWindow`` seconds
    /// (whichever is longer), for the images' word on standing still.
    private var recentViews: [DynamicInitializer.Frame] = []
    /// Frames after this time (s, IMU clock) may start a moving platform: the frame that reset
    /// the filter and those before it belong to the lost track.
    private var movingStartFrom = -Double.infinity
    /// Span of frames the next moving start uses (s): `dynamic_window`, longer after a start
    /// refused as too uncertain; and the earliest time of that attempt.
    private var dynamicSpan = 0.0
    private var nextDynamicAttempt = -Double.infinity
    /// The longest span a moving start waits for, in `dynamic_window`s.
    static let longestDynamicSpan = 3.0
    private var initializedBy = ""
    /// Features used by the updates of the last 10 frames (standing still counts as enough).
    private var recentUpdates: [Int] = []
    /// The calibration the filter started from, to report what it estimated.
    private var initialCalibration: MSCKF.Calibration?

    // World map (when `images` is given).
    var builder: MapBuilder?
    /// The loaded map's matcher (`map=`).
    var localizer: MapLocalizer?
    /// Whether the filter runs in the loaded map's frame.
    var relocalized = false
    /// Tracked features matched to map points: feature id → point index.
    var anchors: [UInt64: Int] = [:]
    var framesSinceMapSearch = 0
    /// A reset without a loaded map starts a new frame the map so far is not in: it stops growing.
    var mapFrozen = false
    var relocalizationCount = 0
    var mapUpdates = 0
    private var lastStamp: Timestamp?
    static let extractor = ORBExtractor()

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        self.options = options
        dynamicSpan = options.dynamicWindow
        tracksPort = .each(options.tracks)
        imuPort = .between(options.imu, through: .firstAfter)
        posePort = OutputPort(options.output)
        biasPort = OutputPort(options.output + "-biases")
        if !options.map.isEmpty && options.images.isEmpty {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "map", reason: "relocalizing needs the camera's images: give images= (e.g. images=cam0)")
        }
        imagesPort = options.images.isEmpty ? nil : .latest(options.images, tolerance: 1_000_000)
        mapPort = options.images.isEmpty ? nil : OutputPort(options.output + "-map")
        mappingPort = options.images.isEmpty ? nil : OutputPort(options.output + "-mapping")
        update = FeatureUpdate(minParallaxDegrees: options.minParallaxDegrees, maxReprojectionNormalized: 0, gateProbability: options.gateProbability)
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        let camera = try context.cameraCalibration(of: tracksPort)
        let imu = try context.imuCalibration(of: imuPort)
        self.camera = camera
        imuCalibration = imu
        imuFromBody = imu.bodyFromSensor.inverse
        if options.stereo { stereoFromCamera = context.metadata(of: tracksPort).stereo?.partnerFromThis }
        // Triangulated points may miss their observations by a few σ before the update.
        update.maxReprojectionNormalized = options.triangulationMaxErrorPx / camera.model.intrinsics.fx
        guard imagesPort != nil else { return }
        var base: WorldMap?
        if !options.map.isEmpty {
            let loaded: WorldMap
            do { loaded = try WorldMapFile.read(options.map) } catch {
                throw AnalyzerError.invalidOption(analyzer: Self.name, option: "map", reason: "\(error)")
            }
            if let why = loaded.mismatch(camera: camera.model, bodyFromCamera: camera.bodyFromSensor) {
                throw AnalyzerError.invalidOption(analyzer: Self.name, option: "map", reason: "\(options.map) was made with another camera calibration: \(why)")
            }
            guard !loaded.points.isEmpty else {
                throw AnalyzerError.invalidOption(analyzer: Self.name, option: "map", reason: "\(options.map) holds no points to relocalize with")
            }
            var l = MapLocalizer(map: loaded)
            l.minInliers = options.relocalizationMinInliers
            localizer = l
            base = loaded
        }
        builder = MapBuilder(minDistance: options.keyframeDistance, minAngleDegrees: options.keyframeAngle, maxPointSigma: options.mapPointMaxSigma, base: base)
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        let packet = try input.trigger(tracksPort)
        let stamp = packet.timestamp
        lastStamp = stamp
        append(input.between(imuPort), context: &context)
        // The frame's time on the IMU clock.
        let t = seconds(stamp) + (filter?.calibration.timeOffset ?? options.timeOffsetMs / 1000)

        var seen: [UInt64: Vector2] = [:]
        for f in packet.payload.features { if let n = f.normalized { seen[f.id] = n } }
        recentViews.append(DynamicInitializer.Frame(time: t, features: seen))
        // Until the filter runs, also the frames a moving start may need.
        let viewSpan = max(options.staticWindow, options.zuptWindow, filter == nil ? Self.longestDynamicSpan * options.dynamicWindow : 0)
        recentViews.removeAll { $0.time < t - viewSpan - 0.1 }
        if filter == nil {
            let keepFrom = t - max(options.staticWindow, Self.longestDynamicSpan * options.dynamicWindow) - 0.5
            if let cut = measurements.firstIndex(where: { $0.time >= keepFrom }), cut > 1 { measurements.removeFirst(cut - 1) }
            initialize(at: t, context: &context)
        }
        guard var f = filter else {
            context.emit(Pose(worldFromBody: .identity, trackingState: .limited(.initializing)), on: posePort, at: stamp)
            if let mappingPort { context.emit(WorldMappingStatus.notAvailable, on: mappingPort, at: stamp) }
            return
        }
        // A gap in the IMU that the filter cannot bridge: start again.
        if let gap = largestGap(from: f.time, to: t), gap > options.maxImuGapMs / 1000 {
            context.warn(String(format: "IMU gap of %.0f ms before %lld ns: filter reset", gap * 1000, stamp.nanoseconds))
            reset(&context, at: stamp, time: t)
            return
        }
        do {
            let from = f.time
            try f.propagate(measurements, to: t)
            // Saturated readings understate the specific force by an unknown amount (up to the
            // full scale): widen velocity and position by that much, and say so.
            let clipped = saturated.filter { $0 > from - 1e-9 && $0 <= t }.count
            saturated.removeAll { $0 <= t }
            if clipped > 0 {
                let span = Double(clipped) * (imuCalibration.map { $0.rateHz > 0 ? 1 / $0.rateHz : 0.005 } ?? 0.005)
                let dv = options.accelerometerRange * span, dp = dv * span
                for i in 0..<3 {
                    f.covariance[InertialState.Block.velocity + i, InertialState.Block.velocity + i] += dv * dv
                    f.covariance[InertialState.Block.position + i, InertialState.Block.position + i] += dp * dp
                }
                excessiveMotionFrames = Self.framesLimitedAfterSaturation
            }
            let still = options.zupt && isStandingStill(at: t)
            if still {
                // Zero-velocity pseudo-measurement: v = 0.
                var h = Matrix(rows: 3, columns: f.dimension)
                for i in 0..<3 { h[i, InertialState.Block.velocity + i] = 1 }
                let v = f.state.velocity
                try f.update(h: h, r: [-v.x, -v.y, -v.z], variance: options.zuptVelocityNoise * options.zuptVelocityNoise)
                zeroVelocityUpdates += 1
            }
            f.clone(at: stamp, angularRate: angularRate(at: t) - f.state.gyroscopeBias)
            record(packet.payload, at: stamp)
            var usedFeatures = try updateLandmarks(packet.payload, &f)
            usedFeatures += try updateWithEndedTracks(packet.payload.ended.map(\.id), &f)
            usedFeatures += try updateWithMapPoints(packet.payload, &f)
            if f.clones.count > options.window {
                usedFeatures += try updateWithOldestClone(&f)
                let oldest = f.clones[0].time
                for id in Array(features.keys) {
                    features[id]?.removeAll { $0.time == oldest }
                    if features[id]?.isEmpty == true { features[id] = nil }
                }
                f.marginalize(clone: 0)
            }
            guard f.state.isFinite, f.covariance.isFinite else { throw VIOError.diverged }
            guard f.state.velocity.norm <= options.maxSpeed else { throw VIOError.tooFast(f.state.velocity.norm) }
            if let frame = imagesPort.flatMap({ input.latest($0)?.payload }) {
                try mapWork(&f, tracks: packet.payload, frame: frame, stamp: stamp, time: t, context: &context)
            }
            filter = f
            trimMeasurements(before: f.time)
            recentUpdates.append(still ? options.minFeaturesPer10Frames : usedFeatures)
            if recentUpdates.count > 10 { recentUpdates.removeFirst() }
            let constrained = recentUpdates.count < 10 || recentUpdates.reduce(0, +) >= options.minFeaturesPer10Frames
            let state: TrackingState
            if excessiveMotionFrames > 0 {
                excessiveMotionFrames -= 1
                state = .limited(.excessiveMotion)
            } else {
                state = constrained ? .normal : .limited(.insufficientFeatures)
            }
            if isRelocalizing {
                context.emit(Pose(worldFromBody: .identity, trackingState: .limited(.relocalizing)), on: posePort, at: stamp)
                context.emit(IMUBiases(gyroscope: f.state.gyroscopeBias, accelerometer: f.state.accelerometerBias), on: biasPort, at: stamp)
            } else {
                emit(f, state: state, at: stamp, context: &context)
            }
            if let mappingPort, let builder {
                let status = isRelocalizing
                    ? WorldMappingStatus.limited
                    : builder.status(at: f.worldFromCamera(f.clones.count - 1), time: t, tracking: state)
                context.emit(status, on: mappingPort, at: stamp)
            }
        } catch {
            context.warn("filter failed at \(stamp.nanoseconds) ns (\(error)): reset")
            reset(&context, at: stamp, time: t)
        }
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        if resets > 0 { context.warn("\(resets) reset(s) of the filter") }
        if let builder, let camera, let mapPort, let lastStamp {
            let map = builder.worldMap(camera: camera.model, bodyFromCamera: camera.bodyFromSensor)
            context.emit(map, on: mapPort, at: lastStamp)
            context.warn("world map: \(map.keyframes.count) keyframe(s), \(map.points.count) point(s)"
                + (localizer == nil ? "" : relocalizationCount > 0 ? ", \(mapUpdates) map-point update(s) after relocalizing" : "; never relocalized into \(options.map)"))
        }
        if saturatedCount > 0 {
            context.warn(String(format: "%d accelerometer reading(s) at full scale (accelerometer_range %.1f m/s²): uncertainty widened, state limited(excessiveMotion)",
                                saturatedCount, options.accelerometerRange))
        }
        if let f = filter, let start = initialCalibration {
            let turn = (start.imuFromCamera.rotation.inverse * f.calibration.imuFromCamera.rotation).log.norm * 180 / .pi
            let shift = (f.calibration.imuFromCamera.translation - start.imuFromCamera.translation).norm * 1000
            // The filter's own σ of the offset (ms), when it estimates it.
            let sigma = f.timeOffsetIndex.map { String(format: " ± %.2f", f.covariance[$0, $0].squareRoot() * 1000) } ?? ""
            context.warn(String(format: "calibration estimated: time offset %.2f", f.calibration.timeOffset * 1000) + sigma
                + String(format: " ms (started at %.2f), T_IC moved by %.3f° and %.1f mm", start.timeOffset * 1000, turn, shift))
        }
        if zeroVelocityUpdates > 0 { context.warn("\(zeroVelocityUpdates) zero-velocity update(s) while standing still") }
        let rejected = used.compactMap { reason, count in reason.map { "\(count) \($0)" } }.sorted()
        if !rejected.isEmpty { context.warn("features not used: " + rejected.joined(separator: ", ")) }
    }

    // MARK: Steps

    private mutating func append(_ packets: [Packet<IMUSample>], context: inout AnalyzerContext) {
        for p in packets {
            let s = p.payload
            guard [s.gyroscope, s.accelerometer].allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else {
                if !warnedNaN { context.warn("IMU sample at \(p.timestamp.nanoseconds) ns is not finite: skipped (and all such samples)"); warnedNaN = true }
                continue
            }
            if epoch == nil { epoch = p.timestamp }
            let m = IMUMeasurement(time: seconds(p.timestamp), gyroscope: s.gyroscope, accelerometer: s.accelerometer)
            // The first sample after the previous frame arrives twice (look-ahead): keep one.
            if let last = measurements.last, m.time <= last.time { continue }
            measurements.append(m)
            let a = s.accelerometer
            if options.accelerometerRange > 0, max(abs(a.x), abs(a.y), abs(a.z)) >= 0.995 * options.accelerometerRange {
                saturated.append(m.time)
                saturatedCount += 1
            }
        }
    }

    private func seconds(_ t: Timestamp) -> Double {
        guard let epoch else { return 0 }
        return Double(t.nanoseconds - epoch.nanoseconds) / 1e9
    }

    /// The longest stretch (s) between `from` and `to` without IMU data, the ends included (a
    /// frame time past the newest sample is a gap as long).
    private func largestGap(from: Double, to: Double) -> Double? {
        let inside = measurements.filter { $0.time >= from - 0.1 && $0.time <= to + 0.1 }
        guard let first = inside.first, let last = inside.last else { return to - from }
        let between = zip(inside, inside.dropFirst()).map { $1.time - $0.time }.max() ?? 0
        return max(between, first.time - from, to - last.time)
    }

    private mutating func initialize(at t: Double, context: inout AnalyzerContext) {
        guard let imu = imuCalibration, let camera, !measurements.isEmpty else { return }
        var initializer = StaticInitializer()
        initializer.window = options.staticWindow
        let upTo = measurements.filter { $0.time <= t }
        let imuFromCamera = imu.bodyFromSensor.inverse * camera.bodyFromSensor
        let state: InertialState
        var p = Matrix(rows: 15, columns: 15)
        // The images must agree that the platform is still; where they cannot say (fewer than 10
        // features seen over the window: a blank or dark view), the IMU's word stands.
        if case let .success(still) = initializer.initialize(upTo), (imageMotion(over: options.staticWindow, at: t) ?? 0) <= options.staticMaxDisparityPx {
            state = still
            p = StaticInitializer.covariance(of: still)
            initializedBy = "still IMU"
        } else if options.dynamicInit, let first = recentViews.first(where: { $0.time > movingStartFrom && $0.time >= t - Self.longestDynamicSpan * options.dynamicWindow - 1e-6 }),
                  t - first.time >= options.dynamicWindow * 0.95, t >= nextDynamicAttempt {
            let frames = recentViews.filter { $0.time > movingStartFrom && $0.time >= t - dynamicSpan - 1e-6 }
            switch dynamicInitializer(camera).initialize(frames, imu: measurements, noise: imu.noise, imuFromCamera: imuFromCamera) {
            case let .success(moving):
                state = moving.state
                p = moving.covariance
                initializedBy = String(format: "moving (visual-inertial alignment over %.2f s)", frames.last.map { $0.time - frames[0].time } ?? 0)
            case .failure(.uncertain), .failure(.lowExcitation):
                // The motion so far leaves the start too vague (or too smooth to fix the scale): try
                // again a quarter window later, over a window that much longer (at most
                // longestDynamicSpan windows).
                dynamicSpan = min(Self.longestDynamicSpan * options.dynamicWindow, dynamicSpan + 0.25 * options.dynamicWindow)
                nextDynamicAttempt = t + 0.25 * options.dynamicWindow - 1e-6
                return
            case .failure:
                return
            }
        } else {
            return
        }
        context.warn(String(format: "initialized at %.2f s after the first IMU sample: %@", t, initializedBy))
        dynamicSpan = options.dynamicWindow
        nextDynamicAttempt = -.infinity
        filter = MSCKF(state: state, time: t, covariance: p,
                       calibration: MSCKF.Calibration(imuFromCamera: imuFromCamera, timeOffset: options.timeOffsetMs / 1000),
                       extrinsicVariance: options.estimateExtrinsics
                           ? (pow(options.extrinsicRotationSigmaDeg * .pi / 180, 2), pow(options.extrinsicTranslationSigmaM, 2)) : nil,
                       timeOffsetVariance: options.estimateTimeOffset ? pow(options.timeOffsetSigmaMs / 1000, 2) : nil,
                       propagation: IMUPropagation(noise: imu.noise), normalizedNoise: options.pixelNoise / camera.model.intrinsics.fx)
        filter?.usesFirstEstimates = options.firstEstimates
        filter?.stereoFromCamera = stereoFromCamera
        initialCalibration = filter?.calibration
        features = [:]
        landmarkIDs = []
        initializedAt = t
    }

    /// The moving start as the options configure it.
    private func dynamicInitializer(_ camera: CameraCalibration) -> DynamicInitializer {
        var initializer = DynamicInitializer(gravityTolerance: options.dynamicGravityTolerance,
                                             maxRefinedErrorNormalized: options.dynamicMaxErrorPx / camera.model.intrinsics.fx)
        initializer.normalizedNoise = options.pixelNoise / camera.model.intrinsics.fx
        initializer.maxVelocitySigma = options.dynamicMaxVelocitySigma
        initializer.maxTiltSigmaDegrees = options.dynamicMaxTiltSigmaDeg
        initializer.minExcitation = options.dynamicMinExcitation
        return initializer
    }

    /// Drops the filter after the frame at `stamp` (`t` on the IMU clock); it starts again from
    /// the frames after it.
    private mutating func reset(_ context: inout AnalyzerContext, at stamp: Timestamp, time t: Double) {
        resets += 1
        filter = nil
        movingStartFrom = t
        dynamicSpan = options.dynamicWindow
        nextDynamicAttempt = -.infinity
        recentUpdates = []
        features = [:]
        landmarkIDs = []
        anchors = [:]
        if localizer != nil {
            relocalized = false
        } else if let builder, builder.keyframeCount > 0, !mapFrozen {
            mapFrozen = true
            context.warn("the filter reset at \(stamp.nanoseconds) ns: the world map keeps what was mapped before (a new start is a new frame)")
        }
        context.emit(Pose(worldFromBody: .identity, trackingState: .notAvailable), on: posePort, at: stamp)
        if let mappingPort { context.emit(WorldMappingStatus.notAvailable, on: mappingPort, at: stamp) }
    }

    private mutating func record(_ tracks: FeatureTracks, at stamp: Timestamp) {
        for f in tracks.features {
            guard let n = f.normalized, !landmarkIDs.contains(f.id), anchors[f.id] == nil else { continue }
            features[f.id, default: []].append((stamp, n, stereoFromCamera == nil ? nil : f.stereoNormalized))
        }
    }

    /// Updates with the features whose tracks ended; returns how many were used.
    private mutating func updateWithEndedTracks(_ ids: [UInt64], _ f: inout MSCKF) throws -> Int {
        var chosen: [UInt64] = []
        for id in ids.sorted() {
            guard let obs = features[id] else { continue }
            if obs.count >= options.minObservations { chosen.append(id) } else { features[id] = nil }
        }
        return try apply(Array(chosen.prefix(options.maxFeaturesPerUpdate)), &f)
    }

    /// Updates with the features seen in the oldest clone, before it is marginalized. Those
    /// tracked through the whole window and still seen join the state as landmarks while there is
    /// room (after ``Options/landmarkDelay``); the others update it once.
    private mutating func updateWithOldestClone(_ f: inout MSCKF) throws -> Int {
        let oldest = f.clones[0].time
        let newest = f.clones[f.clones.count - 1].time
        let chosen = features.keys.sorted().filter { id in
            guard let obs = features[id] else { return false }
            return obs.count >= options.minObservations && obs.contains { $0.time == oldest }
        }
        var room = f.time - initializedAt >= options.landmarkDelay ? options.landmarks - f.landmarks.count : 0
        var joining: [UInt64] = [], once: [UInt64] = []
        for id in chosen {
            if room > 0, let obs = features[id], obs.count == f.clones.count, obs.last?.time == newest {
                joining.append(id)
                room -= 1
            } else {
                once.append(id)
            }
        }
        var count = try apply(Array(once.prefix(options.maxFeaturesPerUpdate)), &f)
        let index = f.cloneIndex   // landmarks joining grow the state, not the clones
        for id in joining { if try addLandmark(id, index: index, &f) { count += 1 } }
        return count
    }

    /// Adds feature `id` to the state from its observations in the window; false when it could
    /// not be triangulated or its rows free of it fail the gate (it is then dropped).
    private mutating func addLandmark(_ id: UInt64, index: [Timestamp: Int], _ f: inout MSCKF) throws -> Bool {
        let obs = observations(of: id, index: index)
        features[id] = nil
        let triangulated: (point: Vector3, linear: FeatureUpdate.Linearization, sigma: Double)
        switch update.triangulated(obs, filter: f) {
        case let .success(t): triangulated = t
        case let .failure(reason): used[reason, default: 0] += 1; return false
        }
        let split = try FeatureUpdate.split(triangulated.linear)
        if case let .failure(reason) = update.gated(split.rest, filter: f) { used[reason, default: 0] += 1; return false }
        guard try f.addLandmark(id: id, at: triangulated.point, split) else { used[.numerical, default: 0] += 1; return false }
        if mapFrameIsValid { builder?.record(point: triangulated.point, sigma: triangulated.sigma, of: id) }
        used[nil, default: 0] += 1
        landmarkIDs.insert(id)
        return true
    }

    /// Updates with the landmarks seen in this frame; those no longer tracked, or whose
    /// observation fails the gate, leave the state. Returns how many updated it.
    private mutating func updateLandmarks(_ tracks: FeatureTracks, _ f: inout MSCKF) throws -> Int {
        guard !f.landmarks.isEmpty else { return 0 }
        var seen: [UInt64: TrackedFeature] = [:]
        for t in tracks.features where landmarkIDs.contains(t.id) { seen[t.id] = t }
        let newest = f.clones.count - 1
        var blocks: [FeatureUpdate.Rows] = []
        var leaving: [Int] = []
        for (j, landmark) in f.landmarks.enumerated() {
            guard let track = seen[landmark.id], let n = track.normalized,
                  options.landmarkMaxAge == 0 || track.age <= options.landmarkMaxAge else { leaving.append(j); continue }
            var obs = [FeatureUpdate.Observation(clone: newest, normalized: n)]
            if stereoFromCamera != nil, let n1 = track.stereoNormalized { obs.append(.init(clone: newest, camera: 1, normalized: n1)) }
            switch update.landmarkRows(j, obs, filter: f) {
            case let .success(rows): blocks.append(rows)
            case .failure: leaving.append(j)
            }
        }
        try apply(blocks, &f)
        for j in leaving.reversed() {
            landmarkIDs.remove(f.landmarks[j].id)
            f.marginalize(landmark: j)
        }
        return blocks.count
    }

    /// The recorded observations of feature `id` in the window's clones (`index`: clone time →
    /// clone, ``MSCKF/cloneIndex``).
    private func observations(of id: UInt64, index: [Timestamp: Int]) -> [FeatureUpdate.Observation] {
        var obs: [FeatureUpdate.Observation] = []
        for o in features[id] ?? [] {
            guard let k = index[o.time] else { continue }
            obs.append(FeatureUpdate.Observation(clone: k, normalized: o.normalized))
            if let n1 = o.stereo { obs.append(FeatureUpdate.Observation(clone: k, camera: 1, normalized: n1)) }
        }
        return obs
    }

    /// Builds the stacked update from `ids` (removing them from the database) and applies it.
    private mutating func apply(_ ids: [UInt64], _ f: inout MSCKF) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        var blocks: [FeatureUpdate.Rows] = []
        let index = f.cloneIndex
        for id in ids {
            let obs = observations(of: id, index: index)
            features[id] = nil
            guard Set(obs.map(\.clone)).count >= options.minObservations else { continue }
            switch update.rows(obs, filter: f) {
            case let .success(found):
                blocks.append(found.rows)
                used[nil, default: 0] += 1
                if mapFrameIsValid { builder?.record(point: found.point, sigma: found.sigma, of: id) }
            case let .failure(reason): used[reason, default: 0] += 1
            }
        }
        try apply(blocks, &f)
        return blocks.count
    }

    /// Stacks `blocks` (rows over the whole state) into one update.
    func apply(_ blocks: [FeatureUpdate.Rows], _ f: inout MSCKF) throws {
        guard !blocks.isEmpty else { return }
        let total = blocks.reduce(0) { $0 + $1.r.count }
        var h = Matrix(rows: total, columns: f.dimension)
        var r: [Double] = []
        r.reserveCapacity(total)
        var row = 0
        for b in blocks {
            h.setBlock(row: row, column: 0, b.h)
            r += b.r
            row += b.r.count
        }
        try f.update(h: h, r: r, variance: f.normalizedNoise * f.normalizedNoise)
    }

    /// How far the features moved over the `window` seconds up to `t` (px): the median, over
    /// the features seen at both ends, of their displacement (normalized units × fx); `nil` when
    /// fewer than 10 were seen at both ends (a blank view, or a view that changed completely).
    /// The images' word on standing still, which the IMU cannot give for a slow steady turn or
    /// a slow walk.
    private func imageMotion(over window: Double, at t: Double) -> Double? {
        guard let camera, let last = recentViews.last, let first = recentViews.first(where: { $0.time >= t - window - 1e-6 }) else { return nil }
        var motions = first.features.compactMap { id, n in last.features[id].map { ($0 - n).norm * camera.model.intrinsics.fx } }
        guard motions.count >= 10 else { return nil }
        motions.sort()
        return motions[motions.count / 2]
    }

    /// Whether the platform stands still at `t`: the IMU still over the last ``Options/zuptWindow``
    /// seconds and the features' median motion over it at most ``Options/zuptMaxDisparityPx``.
    private func isStandingStill(at t: Double) -> Bool {
        guard let motion = imageMotion(over: options.zuptWindow, at: t), motion <= options.zuptMaxDisparityPx else { return false }
        var detector = StaticInitializer()
        detector.window = options.zuptWindow
        let recent = measurements.filter { $0.time <= t && $0.time >= t - options.zuptWindow - 0.01 }
        // Biases are known here: judge the variation, not the level.
        detector.maxGyroscopeBias = .infinity
        detector.maxAccelerationStd = options.zuptMaxAccelerationStd
        detector.maxRotationRate = options.zuptMaxRotationRate
        if case .success = detector.initialize(recent) { return true }
        return false
    }

    private mutating func trimMeasurements(before t: Double) {
        // Keep the last sample at or before the filter's time (the next interval starts there)
        // and the still-detection window before it.
        let from = t - options.zuptWindow - 0.05
        if let keep = measurements.lastIndex(where: { $0.time <= min(t, from) }), keep > 0 { measurements.removeFirst(keep) }
    }

    /// The bias-free gyro reading interpolated at `t` (rad/s, IMU frame; zero without data).
    private func angularRate(at t: Double) -> Vector3 {
        guard let after = measurements.firstIndex(where: { $0.time >= t }) else { return measurements.last?.gyroscope ?? .zero }
        guard after > 0 else { return measurements[after].gyroscope }
        return IMUMeasurement.interpolated(measurements[after - 1], measurements[after], at: t).gyroscope
    }

    /// Emits the pose of the frame at `stamp`: the body at `stamp` on the IMU clock (the
    /// dataset's and ground truth's), extrapolated to first order from the filter's state at the
    /// exposure time `stamp + t_d`.
    private func emit(_ f: MSCKF, state: TrackingState, at stamp: Timestamp, context: inout AnalyzerContext) {
        let td = f.calibration.timeOffset
        let omega = angularRate(at: f.time) - f.state.gyroscopeBias
        let atStamp = SE3(rotation: f.state.rotation * SO3.exp(omega * -td), translation: f.state.position - f.state.velocity * td)
        let worldFromBody = atStamp * imuFromBody
        // Covariance of (δp, δθ) in the world frame (the IMU-to-body lever arm is neglected).
        let r = f.state.rotation.matrix
        var c = Matrix(rows: 6, columns: 6)
        let p = f.covariance
        for i in 0..<3 {
            for j in 0..<3 {
                c[i, j] = p[3 + i, 3 + j]
                var tt = 0.0, pt = 0.0
                for a in 0..<3 {
                    for b in 0..<3 { tt += r[i, a] * p[a, b] * r[j, b] }
                    pt += p[3 + i, a] * r[j, a]
                }
                c[3 + i, 3 + j] = tt
                c[i, 3 + j] = pt
                c[3 + j, i] = pt
            }
        }
        context.emit(Pose(worldFromBody: worldFromBody, velocity: f.state.velocity, covariance: c, trackingState: state), on: posePort, at: stamp)
        context.emit(IMUBiases(gyroscope: f.state.gyroscopeBias, accelerometer: f.state.accelerometerBias), on: biasPort, at: stamp)
    }
}

/// Why the filter stopped.
enum VIOError: Error, CustomStringConvertible {
    case diverged
    case tooFast(Double)
    var description: String {
        switch self {
        case .diverged: return "the state or covariance is no longer finite"
        case let .tooFast(speed): return String(format: "the estimated speed %.1f m/s exceeds max_speed: diverged", speed)
        }
    }
}
