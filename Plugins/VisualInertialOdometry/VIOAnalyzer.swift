import Foundation
import ParallaxBus
import ParallaxMath
import ParallaxPayloads
import ParallaxVIO
import ParallaxVision

/// Visual-inertial odometry: a sliding-window MSCKF over camera feature tracks and the IMU,
/// giving metric poses `T_WB` (world gravity-aligned, z up), velocity, a 6×6 covariance and
/// ARKit's tracking state every frame, plus the estimated IMU biases.
///
/// The covariance measures the drift since the filter's start: position and yaw are not
/// observable, so the first `normal` pose fixes them (σ ≈ 0 there; after a reset, the next
/// start). The world's origin is where the IMU was at the first frame of the start's window
/// (a moving start) or of the still window, so positions also carry the start's own error
/// (≈ 11 mm along z on EuRoC MH_01, docs/results.md), which the covariance does not count.
///
/// The bus's side of ``VIOEstimator`` (ParallaxVIO, where the algorithm is described): the IMU
/// input looks ahead to the first sample after each frame, so the propagation's end is
/// interpolated; the options are the estimator's ``VIOSettings`` and the streams; each
/// estimate goes out as a `Pose` (and `IMUBiases` while the filter runs), what the estimator
/// met as warnings. Until it starts the state is `limited(initializing)`.
///
/// World maps (ARKit's `ARWorldMap`, docs/world-maps.md): given the camera's `images`, the
/// estimator keeps keyframes with ORB descriptors of the tracked features and its
/// triangulations of them; the map goes out on `<output>-map` when the run ends (`parallax run
/// --save-map FILE` writes it) and the mapping status on `<output>-mapping` every frame. With
/// `map=FILE` the filter runs in its own frame until one view is found in the map; until then
/// each pose is `limited(relocalizing)`, then every pose is in the map's frame and held to it.
///
/// Example chain: `klt camera=cam0 ! vio` (`chains/vio-mono.yaml`).
public struct VIOAnalyzer: Analyzer {
    public static let name = "vio"
    public static let summary = "Visual-inertial odometry (MSCKF): metric poses T_WB with covariance and tracking state from feature tracks + IMU"
    /// The front end vio was measured with (chains/vio-mono.yaml), asked of the `klt` making its
    /// tracks when the chain does not set these: EuRoC MH_01 (20 s), SE3 APE 9.6 mm with klt's
    /// defaults → 5.4 mm. Not klt's own defaults: on the simulated room they shorten the tracks
    /// triangulate uses (median 25 → 8 frames, p90 error 0.25 → 0.34 m).
    public static let upstreamPreferences = [
        UpstreamPreference(port: "tracksPort", analyzer: "klt", options: ["equalize": "true", "window": "15", "refill_below": "0.9"],
                           reason: "the front end vio is tuned with (OpenVINS's: equalized frames, 15×15 windows; new corners below 90 %): EuRoC MH_01 SE3 APE 9.6 → 5.4 mm"),
    ]
    /// A stereo pair's tracks hold the extrinsics fixed unless the chain says: estimating cam0's
    /// `T_IC` with the pair rigid costs the simulated stereo orbit 5.4 → 7.1 mm SE3 APE (the mono
    /// orbit 12.0 → 12.4, while EuRoC MH_01 mono gains 5.4 → 4.8 mm and 1.13° → 0.54°).
    public static let optionsFromData = ["estimate_extrinsics": "false for a calibrated stereo pair's tracks (klt stereo_camera=…), else true"]

    private let tracksPort: InputPort<FeatureTracks>
    private let imuPort: InputPort<IMUSample>
    private let posePort: OutputPort<Pose>
    private let biasPort: OutputPort<IMUBiases>
    private let imagesPort: InputPort<CameraFrame>?
    private let mapPort: OutputPort<WorldMap>?
    private let mappingPort: OutputPort<WorldMappingStatus>?
    private(set) var options: Options
    /// The estimator, from `open` on (it needs the streams' calibrations).
    private var estimator: VIOEstimator?
    private var lastStamp: Timestamp?
    /// What the inputs gave over the run, to say why no pose came: frames, the first frame's
    /// stamp, IMU readings and their first and last stamps, and whether the filter ever started.
    private var frameCount = 0
    private var firstStamp: Timestamp?
    private var imuCount = 0
    private var imuSpan: (first: Timestamp, last: Timestamp)?
    private var started = false

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        self.options = options
        tracksPort = .each(options.tracks)
        imuPort = .between(options.imu, through: .ahead(Self.imuLead(options.estimator)))
        posePort = OutputPort(options.output)
        biasPort = OutputPort(options.output + "-biases")
        if !options.map.isEmpty && options.images.isEmpty {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "map", reason: "relocalizing needs the camera's images: give images= (e.g. images=cam0)")
        }
        imagesPort = options.images.isEmpty ? nil : .latest(options.images, tolerance: 1_000_000)
        mapPort = options.images.isEmpty ? nil : OutputPort(options.output + "-map")
        mappingPort = options.images.isEmpty ? nil : OutputPort(options.output + "-mapping")
    }

    /// How far past each frame's stamp the IMU input reaches (ns): ``VIOEstimator/imuLead(_:)``.
    static func imuLead(_ settings: VIOSettings) -> Nanoseconds {
        Nanoseconds((VIOEstimator.imuLead(settings) * 1e9).rounded())
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        let camera = try context.cameraCalibration(of: tracksPort)
        let imu = try context.imuCalibration(of: imuPort)
        let stereo = options.stereo ? context.metadata(of: tracksPort).stereo?.partnerFromThis : nil
        if stereo != nil, !context.isGiven("estimate_extrinsics"), options.estimator.estimateExtrinsics {
            options.estimator.estimateExtrinsics = false
            context.useFromData("estimate_extrinsics", value: "false", from: "the stereo pair of '\(context.stream(of: tracksPort))' (its extrinsics held fixed)")
        }
        let map = imagesPort == nil || options.map.isEmpty ? nil : try loadMap(for: camera)
        estimator = VIOEstimator(settings: options.settings, sensors: VIOSensors(camera: camera, imu: imu, stereoFromCamera: stereo), map: map)
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        let packet = try input.trigger(tracksPort)
        let stamp = packet.timestamp
        lastStamp = stamp
        if firstStamp == nil { firstStamp = stamp }
        frameCount += 1
        for p in input.between(imuPort) {
            // The look-ahead window repeats its first packet beyond the trigger: counted once.
            if imuSpan.map({ p.timestamp > $0.last }) ?? true {
                imuCount += 1
                imuSpan = (imuSpan?.first ?? p.timestamp, p.timestamp)
            }
            estimator?.feed(imu: VIOIMUSample(time: p.timestamp.nanoseconds, gyroscope: p.payload.gyroscope, accelerometer: p.payload.accelerometer))
        }
        let features = packet.payload.features.map {
            VIOFeature(id: $0.id, pixel: $0.pixel, normalized: $0.normalized, age: $0.age, stereoNormalized: $0.stereoNormalized)
        }
        let frame = VIOFeatureFrame(time: stamp.nanoseconds, features: features, ended: packet.payload.ended.map(\.id))
        guard let estimate = estimator?.feed(tracks: frame, image: imagesPort.flatMap { input.latest($0)?.payload.image }) else { return }
        for event in estimator?.takeEvents() ?? [] {
            if case .initialized = event { started = true }
            let (message, isWarning) = report(event)
            if isWarning { context.warn(message) } else { context.note(message) }
        }
        context.emit(Pose(worldFromBody: estimate.worldFromBody, velocity: estimate.velocity, covariance: estimate.covariance,
                          trackingState: TrackingState(estimate.trackingState)), on: posePort, at: stamp)
        if let b = estimate.biases { context.emit(IMUBiases(gyroscope: b.gyroscope, accelerometer: b.accelerometer), on: biasPort, at: stamp) }
        if let mappingPort, let status = estimate.mappingStatus { context.emit(WorldMappingStatus(status), on: mappingPort, at: stamp) }
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        guard let estimator else { return }
        try sayWhyNoPose(context: &context)
        if frameCount == 0, imuCount > 0 {
            throw AnalyzerError.unusableStream(analyzer: Self.name, stream: context.stream(of: tracksPort),
                                               reason: "no frames reached vio (\(imuCount) IMU reading(s) did): no pose can be estimated without them")
        }
        if let imuSpan, let firstStamp, Double(imuSpan.first.nanoseconds - firstStamp.nanoseconds) > options.estimator.maxImuGapMs * 1e6 {
            context.warn(String(format: "the IMU stream '%@' starts at %.3f s, %.2f s after the first frame: the frames before it have no pose",
                                context.stream(of: imuPort), imuSpan.first.seconds, Double(imuSpan.first.nanoseconds - firstStamp.nanoseconds) / 1e9))
        }
        if !imuRateRemark.isEmpty, started { context.warn("'\(context.stream(of: imuPort))':" + imuRateRemark) }
        if started, let imuSpan, let lastStamp, Double(lastStamp.nanoseconds - imuSpan.last.nanoseconds) > options.estimator.maxImuGapMs * 1e6 {
            // The gap's reset said "no IMU data"; at the end it is known that the stream ended.
            context.warn(String(format: "the IMU stream '%@' ends at %.3f s, %.2f s before the last frame: the frames after it have no pose",
                                context.stream(of: imuPort), imuSpan.last.seconds, Double(lastStamp.nanoseconds - imuSpan.last.nanoseconds) / 1e9))
        }
        let summary = estimator.summary
        if summary.resets > 0 { context.warn("\(summary.resets) reset(s) of the filter") }
        if let mapPort, let lastStamp, let map = estimator.worldMap() {
            context.emit(map, on: mapPort, at: lastStamp)
            let built = "world map: \(map.keyframes.count) keyframe(s), \(map.points.count) point(s)"
            // A map given and never found is a warning; the rest is what the run built.
            if !options.map.isEmpty, summary.relocalizations == 0 {
                context.warn(built + "; never relocalized into \(options.map)")
            } else {
                context.note(built + (options.map.isEmpty ? "" : ", \(summary.mapPointUpdates) map-point update(s) after relocalizing"))
            }
        }
        if summary.corruptReadings > 1 {
            context.warn("\(summary.corruptReadings) IMU sample(s) skipped in all as corrupt records (an accelerometer axis beyond twice its full scale, a gyro axis beyond 140 rad/s)")
        }
        if summary.saturatedReadings > 0 {
            context.warn(String(format: "%d accelerometer reading(s) at full scale (accelerometer_range %.1f m/s²): uncertainty widened, state limited(excessiveMotion)",
                                summary.saturatedReadings, options.estimator.accelerometerRange))
        }
        // Said only for what the filter estimated: a calibration held fixed did not move (the
        // time offset when estimate_time_offset=false, the extrinsics of a stereo chain or when
        // estimate_extrinsics=false).
        if let c = summary.calibration, c.timeOffsetSigma != nil || c.extrinsicsEstimated {
            let what = [c.timeOffsetSigma != nil ? "the time offset" : nil, c.extrinsicsEstimated ? "T_IC" : nil].compactMap { $0 }.joined(separator: " or ")
            if !c.observed {
                // The σ never narrowed: the values are the prior's, which "estimated" would misstate.
                context.note("calibration not estimated: nothing the filter saw tells \(what) (no motion while it ran), so "
                    + (c.timeOffsetSigma != nil ? String(format: "they stayed where they started (time offset %.2f ms)", c.current.timeOffset * 1000) : "it stayed where it started"))
            } else {
                var parts: [String] = []
                if let sigma = c.timeOffsetSigma {
                    parts.append(String(format: "time offset %.2f ± %.2f ms (started at %.2f)", c.current.timeOffset * 1000, sigma * 1000, c.initial.timeOffset * 1000))
                }
                if c.extrinsicsEstimated {
                    let turnAxis = (c.initial.imuFromCamera.rotation.inverse * c.current.imuFromCamera.rotation).log * (180 / .pi)
                    let shiftVector = (c.current.imuFromCamera.translation - c.initial.imuFromCamera.translation) * 1000
                    parts.append(String(format: "T_IC moved by %.3f° (about the camera's x, y, z: %.3f, %.3f, %.3f) and %.1f mm (along the IMU's x, y, z: %.1f, %.1f, %.1f)",
                                        turnAxis.norm, turnAxis.x, turnAxis.y, turnAxis.z, shiftVector.norm, shiftVector.x, shiftVector.y, shiftVector.z))
                }
                let when = c.resetAt.map { " by the last filter, before its reset at \($0) ns" } ?? ""
                context.note("calibration estimated\(when): " + parts.joined(separator: ", "))
            }
        }
        if let c = summary.calibration, options.estimator.estimateImuIntrinsics {
            let (a, g) = c.current.imuScalePercent
            context.note(String(format: "IMU scale errors estimated (%%, x, y, z): accelerometer %.3f, %.3f, %.3f; gyroscope %.3f, %.3f, %.3f",
                                a.x, a.y, a.z, g.x, g.y, g.z))
        }
        if summary.zeroVelocityUpdates > 0 { context.note("\(summary.zeroVelocityUpdates) zero-velocity update(s) while standing still") }
        // Features are left out in every run (too short, failed their checks): a count, not a fault.
        let rejected = summary.rejectedFeatures.map { reason, count in "\(count) \(reason)" }.sorted()
        if !rejected.isEmpty || summary.usedFeatures > 0 {
            context.note("\(summary.usedFeatures) feature(s) updated the filter" + (rejected.isEmpty ? "" : "; not used: " + rejected.joined(separator: ", ")))
        }
    }

    /// "N moving start(s) refused as the frames and the IMU fit no one motion (reason: count, …)".
    static func misfitWords(_ misfits: [String: Int]) -> String {
        let total = misfits.values.reduce(0, +)
        let reasons = misfits.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        return "\(total) moving start(s) refused as its frames and the IMU fit no one motion (" + reasons.joined(separator: ", ") + ")"
    }

    /// `seconds` in ms, in as many decimals (up to 3) as it takes to differ from `limit` (ms) it
    /// exceeds: "50.03", not "50", for a gap just over 50.
    static func milliseconds(_ seconds: Double, beyond limit: Double) -> String {
        let digits = (0...3).first { String(format: "%.\($0)f", seconds * 1000) != String(format: "%.\($0)f", limit) } ?? 3
        return String(format: "%.\(digits)f", seconds * 1000)
    }

    /// A remark on the IMU's rate when its readings came further apart on average than the gap
    /// the filter bridges (every frame then resets it); empty otherwise.
    private var imuRateRemark: String {
        guard let imuSpan, imuCount >= 2 else { return "" }
        let interval = Double(imuSpan.last.nanoseconds - imuSpan.first.nanoseconds) / Double(imuCount - 1) / 1e6
        guard interval > options.estimator.maxImuGapMs else { return "" }
        return String(format: " its readings came %.0f ms apart on average, more than max_imu_gap_ms=%g, so the filter cannot bridge them", interval, options.estimator.maxImuGapMs)
    }

    /// A run whose filter never started says why: an IMU stream that gave no readings, or none
    /// within the frames' times, is bad input (the odometry cannot work without it); otherwise a
    /// warning.
    private func sayWhyNoPose(context: inout AnalyzerContext) throws {
        guard frameCount > 0, !started, let firstStamp, let lastStamp else { return }
        let frames = "\(frameCount) frame(s) of '\(context.stream(of: tracksPort))' " + String(format: "(%.3f…%.3f s)", firstStamp.seconds, lastStamp.seconds)
        guard let imuSpan else {
            throw AnalyzerError.unusableStream(analyzer: Self.name, stream: context.stream(of: imuPort),
                                               reason: "no IMU readings reached vio over the \(frames): no pose can be estimated without them")
        }
        if imuSpan.last < firstStamp || imuSpan.first > lastStamp || imuCount < 2 {
            throw AnalyzerError.unusableStream(analyzer: Self.name, stream: context.stream(of: imuPort),
                                               reason: String(format: "the %d IMU reading(s) that reached vio (%.3f…%.3f s; the input brings readings up to the first past the frames) do not cover the ", imuCount, imuSpan.first.seconds, imuSpan.last.seconds)
                                                   + frames + ": no pose can be estimated")
        }
        let misfits = estimator?.summary.startMisfits ?? [:]
        context.warn("never initialized over the \(frames) with \(imuCount) reading(s) of '\(context.stream(of: imuPort))' "
                     + String(format: "(%.3f…%.3f s): no pose estimated", imuSpan.first.seconds, imuSpan.last.seconds) + imuRateRemark
                     + (misfits.isEmpty ? "" : "; " + Self.misfitWords(misfits) + " — a camera–IMU time offset beyond the search or a wrong camera calibration would do that"))
    }

    /// The range a clock-offset search spanned, in words: around `time_offset_ms` as set, or
    /// (after a loss, or once moving) around the offset the frames stood at then (ms).
    private func searched(_ centre: Double, _ range: Double) -> String {
        let centreMs = centre * 1000, rangeMs = (range * 1000).rounded()
        if abs(centreMs - options.estimator.timeOffsetMs) < 1e-6 { return String(format: "time_offset_ms=%g ± %g", options.estimator.timeOffsetMs, rangeMs) }
        return String(format: "%.1f ± %g ms, around the offset the frames stood at", centreMs, rangeMs)
    }

    /// What the estimator met, in words, and whether it is a warning (something went wrong: a
    /// reset, a sample skipped) or a note (it went as it should: the start, a relocalization).
    private func report(_ event: VIOEvent) -> (message: String, isWarning: Bool) {
        switch event {
        case let .clockOffset(offset, sigma, pairs, start, centre, range):
            return (String(format: "camera–IMU time offset (t_IMU − t_camera) %.1f ± %.1f ms: the rotations of %d pairs of frames fit the gyro's best there (searched %@); the filter starts from %.1f ms",
                           offset * 1000, sigma * 1000, pairs, searched(centre, range), start * 1000), false)
        case let .clockOffsetBeyondSearch(edge, centre, range):
            return (String(format: "the camera's frames fit the gyro better and better toward a time offset (t_IMU − t_camera) of %.0f ms, the end of the search (%@): the offset likely lies beyond; give time_offset_ms= near it (−500…500; the search then spans time_offset_search_ms around it)",
                           edge * 1000, searched(centre, range)), true)
        case let .clockOffsetFromAlignment(offset, sigma, frames, rms, before, centre):
            let against = before.map { String(format: "%.2f px", $0) } ?? "no fit"
            return (String(format: "camera–IMU time offset (t_IMU − t_camera) %.0f ± %.0f ms: the rotations before the moving start left it undetermined, and its %d frames and the IMU fit one motion best there (the start's alignment %.2f px RMS, against %@ at %.1f ms, where the frames stood); the filter starts from it",
                           offset * 1000, sigma * 1000, frames, rms, against, centre * 1000), false)
        case let .clockOffsetUndetermined(start):
            return (String(format: "the frames before the start did not determine the camera–IMU time offset (a still start or a steady turn turns too evenly, or too few frames): the filter starts from %.1f ms, estimates it online and looks for it again once moving",
                           start * 1000), false)
        case let .clockOffsetOnceMoving(offset, sigma, pairs, filter, filterSigma, restarted):
            let found = String(format: "camera–IMU time offset (t_IMU − t_camera) %.1f ± %.1f ms once moving (the rotations of %d pairs of frames; the start had left it undetermined)",
                               offset * 1000, sigma * 1000, pairs)
            return restarted
                ? (found + String(format: ": the filter's %.1f ± %.1f ms is too far from it to converge; started again from it", filter * 1000, filterSigma * 1000), true)
                : (found + String(format: ": the filter's own estimate, %.1f ± %.1f ms, agrees", filter * 1000, filterSigma * 1000), false)
        case let .rotationMismatch(perDegree, centre, range):
            return (String(format: "the camera's frames turn unlike the gyro at every time offset within %@ (the fit's residual %.1f× what image noise explains): the camera's calibration is likely wrong — its orientation on the body (T_BS), or images rotated or flipped against it — or the offset lies beyond",
                           searched(centre, range), perDegree), true)
        case let .startAfterMisfits(misfits):
            return ("the start came after " + Self.misfitWords(misfits) + ": a camera–IMU time offset beyond the search (time_offset_search_ms, around time_offset_ms) or a wrong camera calibration holds a start back so", true)
        case let .nonFiniteIMU(time): return ("IMU sample at \(time) ns is not finite: skipped (and all such samples)", true)
        case let .implausibleIMU(time, accelerometer, gyroscope):
            return (String(format: "IMU sample at %lld ns reads %.4g m/s² and %.4g rad/s on its largest axes, beyond what a sensor reads (twice the accelerometer's full scale, accelerometer_range %.1f m/s², or 140 rad/s): a corrupt record, skipped (and all such samples)",
                           time, accelerometer, gyroscope, options.estimator.accelerometerRange), true)
        case let .initialized(t, start):
            let how = switch start {
            case .still: "still IMU"
            case let .moving(span): String(format: "moving (visual-inertial alignment over %.2f s)", span)
            }
            return (String(format: "initialized at %.2f s after the first IMU sample: %@", t, how), false)
        // Said at the first frame the gap reaches: it may go on (a frame sees only the data before it).
        case let .imuGap(gap, frame):
            // The gap as long as the data shows it so far.
            return (String(format: "no IMU data for %@ ms before the frame at %lld ns (longer than max_imu_gap_ms=%g, the most the filter bridges): filter reset",
                           Self.milliseconds(gap, beyond: options.estimator.maxImuGapMs), frame, options.estimator.maxImuGapMs) + (imuRateRemark.isEmpty ? "" : ";" + imuRateRemark), true)
        case let .cameraGap(gap, frame):
            return (String(format: "no frame for %@ ms before the frame at %lld ns (longer than max_camera_gap_ms=%g, the most the filter bridges): the IMU carried the state; the tracks before it end there",
                           Self.milliseconds(gap, beyond: options.estimator.maxCameraGapMs), frame, options.estimator.maxCameraGapMs), true)
        case let .failed(frame, reason): return ("filter failed at \(frame) ns (\(reason)): reset", true)
        case let .mapFrozen(frame): return ("the filter reset at \(frame) ns: the world map keeps what was mapped before (a new start is a new frame)", true)
        case let .relocalized(frame, t, inliers, matches, rms):
            return (String(format: "relocalized into %@ at %lld ns (%.3f s after the first IMU sample): %d inliers of %d matches, %.2f px RMS",
                           options.map, frame, t, inliers, matches, rms), false)
        }
    }
}
