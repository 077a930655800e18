import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath

/// Sparse feature tracking (the visual front end) on the bus: ``KLTTracker`` (Shi–Tomasi corners
/// tracked frame to frame by inverse-compositional pyramidal Lucas–Kanade, checked
/// forward-backward and against the epipolar geometry, with stable ids, ages and the reason each
/// track ended) over a camera stream, optionally aided by the gyro rotation between frames and
/// matched into a stereo partner's frames.
///
/// Example chain: `klt camera=cam0 max_features=200 ! stream-stats streams=cam0/tracks`
public struct KLTAnalyzer: Analyzer {
    public static let name = "klt"
    public static let summary = "Feature tracks: Shi–Tomasi corners + pyramidal Lucas–Kanade, forward-backward and RANSAC checks, stable ids"
    public static let optionsFromData = [
        "window": "the camera's image width (21 px, grown with widths beyond 1280 px, at most 31)",
        "levels": "the camera's focal length, rate and image size (3, more when a 2 rad/s turn moves further per frame than 3 levels reach; coarsest side ≥ 40 px)",
    ]

    /// Corner detectors.
    public typealias Detector = KLTTracker.Detector

    public struct Options: AnalyzerOptions {
        @Parameter("camera stream to track (output: <camera>/tracks)") public var camera = "cam0"
        /// The tracking's own options (max_features, window, levels, …: ``KLTTracker/Settings``).
        public var tracker = KLTTracker.Settings()
        @Parameter("gyro rotation between frames (imu-integrator's <camera>/gyro-rotation): each feature's search starts where that rotation moves it; empty: where it was") public var rotation = ""
        @Parameter("second camera of a stereo pair (e.g. cam1); empty disables stereo matching") public var stereoCamera = ""
        public init() {}
    }

    private let frames: InputPort<CameraFrame>
    private let stereoFrames: InputPort<CameraFrame>?
    private let rotations: InputPort<FrameRotation>?
    /// Rotation of the IMU's frame into this camera's (`R_CS`), from the rotation stream's metadata.
    private var cameraFromIMU: SO3?
    private let output: OutputPort<FeatureTracks>
    private var options: Options
    private var tracker: KLTTracker
    /// The camera stream really read (`camera`, or where the chain wired `frames`): the tracks' label.
    private var cameraName: String
    private var warnedStereo = false
    /// The tracked camera and its stereo partner, from the streams' metadata (read in `open`).
    private var calibration: CameraCalibration?
    private var stereoCalibration: CameraCalibration?

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        self.options = options
        frames = .each(options.camera)
        // The stereo partner's frame with the same timestamp (1 ms tolerance).
        stereoFrames = options.stereoCamera.isEmpty ? nil : .latest(options.stereoCamera, tolerance: 1_000_000)
        // The rotation ending at this frame, stamped with the frame's time: `nearest` makes the bus
        // wait for it (imu-integrator emits once the first IMU sample after the frame is in).
        rotations = options.rotation.isEmpty ? nil : .nearest(options.rotation, tolerance: 1_000_000)
        output = OutputPort("\(options.camera)/tracks")
        cameraName = options.camera
        tracker = KLTTracker(settings: options.tracker)
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        cameraName = context.stream(of: frames)
        // Tracks are measured in this camera's pixels: forward its description.
        let camera = context.metadata(of: frames)
        calibration = camera.camera
        // The pair is the tracks' only when klt matches into that partner (stereo_camera=…): tracks
        // of one camera of a pair carry no stereo matches, and a consumer must not count on them.
        let partner = stereoFrames.map { context.stream(of: $0) }
        context.describe(output, as: StreamMetadata(camera: camera.camera, stereo: camera.stereo.flatMap { $0.stream == partner ? $0 : nil }))
        if let model = camera.camera?.model, !context.isGiven("window") || !context.isGiven("levels") {
            let defaults = KLTTracker.Settings.cameraDefaults(width: model.width, height: model.height, focalLength: model.intrinsics.fx, rateHz: camera.camera?.rateHz)
            // Said only where the camera changes a default.
            if !context.isGiven("window"), defaults.window != options.tracker.window {
                options.tracker.window = defaults.window
                context.useFromData("window", value: "\(defaults.window)", from: defaults.origin)
            }
            if !context.isGiven("levels"), defaults.levels != options.tracker.levels {
                options.tracker.levels = defaults.levels
                context.useFromData("levels", value: "\(defaults.levels)", from: defaults.origin)
            }
            tracker = KLTTracker(settings: options.tracker)
        }
        if let port = rotations {
            let imu = context.metadata(of: port).imu
            if let camera = calibration {
                // R_CS = R_CB · R_BS (the IMU's body-from-sensor; identity when not described).
                cameraFromIMU = camera.bodyFromSensor.rotation.inverse * (imu?.bodyFromSensor.rotation ?? .identity)
                if imu == nil { context.warn("'\(options.rotation)' does not describe its IMU: its frame is taken as the body frame") }
            } else {
                context.warn("rotation-aided tracking needs the calibration of '\(cameraName)'; features are searched where they were")
            }
        }
        if let port = stereoFrames {
            stereoCalibration = context.metadata(of: port).camera
            if calibration == nil || stereoCalibration == nil {
                context.warn("stereo matching needs calibrations of '\(cameraName)' and '\(options.stereoCamera)'; stereo skipped")
            }
        }
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let frame = input.payload(frames) else { return }
        var stereo: (image: ImageBuffer<UInt8>, camera: CameraCalibration)?
        var partnerMissing = false
        if let port = stereoFrames, calibration != nil, let right = stereoCalibration {
            if let partner = input.latest(port)?.payload { stereo = (partner.image, right) } else { partnerMissing = true }
        }
        let step = tracker.track(frame.image, camera: calibration, turn: turn(input), stereo: stereo)
        if let from = step.restartedFrom {
            context.warn("frame size changed from \(from.width)×\(from.height) to \(step.width)×\(step.height) at \(input.timestamp.nanoseconds) ns: tracking reset")
        }
        if partnerMissing, !warnedStereo {
            context.warn("stereo matching needs '\(options.stereoCamera)' frames at the same times; stereo skipped where missing")
            warnedStereo = true
        }
        context.emit(FeatureTracks(camera: cameraName, imageWidth: step.width, imageHeight: step.height,
                                   features: tracker.tracks, ended: step.ended), on: output, at: input.timestamp)
    }

    /// The camera's turn since the last frame from the gyro rotation ending at this frame
    /// (`R_C₀C₁ᵀ`, with `R_C₀C₁ = R_CS R_S₀S₁ R_SC`), or nil without one (or without the calibration).
    private func turn(_ input: AnalyzerInput) -> SO3? {
        guard let port = rotations, let cameraFromIMU, calibration != nil,
              let rotation = input.latest(port)?.payload,
              [rotation.rotationVector.x, rotation.rotationVector.y, rotation.rotationVector.z].allSatisfy(\.isFinite) else { return nil }
        // A point fixed in the world: x₁ = R_C₀C₁ᵀ x₀.
        return (cameraFromIMU * SO3.exp(rotation.rotationVector) * cameraFromIMU.inverse).inverse
    }
}
