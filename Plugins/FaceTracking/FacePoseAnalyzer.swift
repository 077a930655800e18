import ParallaxBus
import ParallaxPayloads
import ParallaxFace
import ParallaxGeometry
import ParallaxMath
import ParallaxVision

/// Head pose and gaze from face landmarks (ARKit's `ARFaceAnchor` for recorded data): `T_CH`
/// under the stream's real camera intrinsics (no fixed virtual camera), yaw/pitch/roll
/// (``HeadAngles``: the AFLW2000-3D convention), and — when the landmarks include the irises
/// (MediaPipe's 478 points) — both eye transforms and the look-at point.
///
/// Each landmark stream (``FaceLandmarks``: iBUG 68, MediaPipe 468 or 478) is one face, ids
/// 0, 1, … in the order given; its output is the stream with its last component replaced by
/// `pose` (`face0/landmarks` → `face0/pose`, ``FacePoses``), one packet per landmark set, empty
/// when that frame gives no pose. The fit:
/// - from pixels (PnP against MediaPipe's canonical face or its 68-point subset, ``FaceModel``):
///   a global linear start and its mirror, then Levenberg–Marquardt with Huber weights times
///   each landmark's rigidity (`weights=rigid`; `uniform` weighs all alike);
/// - from 3D landmarks (a depth camera's, MediaPipe's metric ones), or from the landmarks read
///   in a depth map registered to their camera (`depth=`; the median of a 5 × 5 window at each
///   landmark): weighted Procrustes, trimmed once of points far off (`source=points3d`, or
///   `auto` when a set carries them or a depth map is there).
/// Landmarks that are not finite take no part; a frame with too few, collinear ones or none at
/// all gives no pose, with a warning (counted), and the stream goes on. Without the camera's
/// calibration on the landmark stream there is no pose either: the warning says so (readers
/// and detectors that assume intrinsics say which).
///
/// `smoothing=one-euro` filters each face's pose and eye rotations over time (``PoseSmoother``:
/// `min_cutoff`, `beta`, `rotation_beta`), restarting after a frame without a pose. Tracking state: `limited(initializing)`
/// on a face's first pose and the first after a gap, `limited(insufficientFeatures)` when the
/// confidence is below 0.1, else `normal`.
///
/// Example chain: `face-pose landmarks=[face0/landmarks] smoothing=one-euro`
public struct FacePoseAnalyzer: Analyzer {
    public static let name = "face-pose"
    public static let summary = "Head pose T_CH, yaw/pitch/roll, eyes and look-at point from face landmarks (PnP or Procrustes)"

    public enum Source: String, CaseIterable, OptionValue { case auto, pixels, points3d }
    public enum Smoothing: String, CaseIterable, OptionValue { case none, oneEuro = "one-euro" }

    public struct Options: AnalyzerOptions {
        @Parameter("landmark streams, one face each (default face0/landmarks when no faces stream is given)") public var landmarks: [String] = []
        @Parameter("streams of detected faces (face-landmarks' <camera>/faces), any number of faces each") public var faces: [String] = []
        @Parameter("fit to pixels (PnP), to 3D landmarks (Procrustes), or auto: 3D when a set has them or depth is given") public var source = Source.auto
        @Parameter("depth stream registered to the landmarks' camera: landmarks read in it become 3D (Procrustes)") public var depth: String? = nil
        @Parameter("rigid: each landmark by how rigid it is (jaw and lips less); uniform: all alike") public var weights = HeadPoseEstimator.Weighting.rigid
        @Parameter("Huber threshold of the pixel fit (px)", range: 0.1...100) public var huber = 2.0
        @Parameter("weigh down the landmarks the fitted pose hides (a turned face's far side, which detectors put on the visible outline) and fit again; listed as hiddenLandmarks either way (off by default: no better on AFLW2000-3D, docs/head-pose.md)") public var hiddenSide = false
        @Parameter("temporal filter of each face's pose") public var smoothing = Smoothing.none
        @Parameter("One-Euro cutoff at rest (Hz)", range: 0.01...100) public var minCutoff = 1.0
        @Parameter("One-Euro cutoff rise with translation speed (Hz per m/s)", range: 0...1000) public var beta = 5.0
        @Parameter("One-Euro cutoff rise with rotation speed (Hz per rad/s; head and eyes)", range: 0...1000) public var rotationBeta = 5.0
        public init() {}
    }

    /// One face's state over time, by (input, face id).
    private struct FaceState {
        var smoother: PoseSmoother?
        /// The eyes' filters (their rotations in the head; centres are fixed).
        var eyeSmoothers: (left: PoseSmoother, right: PoseSmoother)?
        var hadPose = false
    }

    private let options: Options
    private let landmarkInputs: [InputPort<FaceLandmarks>]
    private let faceInputs: [InputPort<DetectedFaces>]
    /// The newest depth map within 50 ms before the landmarks, when `depth` is given.
    private let depthInputs: [InputPort<DepthMap>]
    /// Landmark streams' outputs first, then the face streams'.
    private let outputs: [OutputPort<FacePoses>]
    private var cameras: [CameraModel?] = []
    private var states: [Int: [UInt64: FaceState]] = [:]
    private var warnings = RepeatedWarnings()
    private var assumptionStated = Set<Int>()

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        let landmarks = options.landmarks.isEmpty && options.faces.isEmpty ? ["face0/landmarks"] : options.landmarks
        let all = landmarks + options.faces
        guard Set(all).count == all.count else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "landmarks", reason: "a stream is listed twice")
        }
        let outputNames = all.map(Self.outputStream(for:))
        guard Set(outputNames).count == outputNames.count else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "landmarks",
                                              reason: "two inputs would write the same pose stream (\(outputNames.joined(separator: ", ")))")
        }
        self.options = options
        landmarkInputs = landmarks.map { .each($0) }
        faceInputs = options.faces.map { .each($0) }
        depthInputs = options.depth.map { [.latest($0, tolerance: 50_000_000)] } ?? []
        outputs = outputNames.map { OutputPort($0) }
    }

    /// `face0/landmarks` → `face0/pose`, `cam0/faces` → `cam0/pose`; a stream without a `/`
    /// gets `/pose` appended.
    public static func outputStream(for landmarks: String) -> String {
        guard let slash = landmarks.lastIndex(of: "/") else { return landmarks + "/pose" }
        return landmarks[..<slash] + "/pose"
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        let metadata = landmarkInputs.map { context.metadata(of: $0) } + faceInputs.map { context.metadata(of: $0) }
        cameras = metadata.map { $0.camera?.model }
        for (k, output) in outputs.enumerated() { context.describe(output, as: metadata[k]) }
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        var depth: ImageBuffer<Float>?
        if let port = depthInputs.first, options.source != .pixels {
            if let map = input.latest(port)?.payload {
                do { depth = try map.metricDepth() } catch {
                    warnings.note("depth unusable", "'\(port.key.name)' at \(input.timestamp.nanoseconds) ns: \(error); fitted to pixels", context: &context)
                }
            } else {
                warnings.note("no depth", "'\(port.key.name)': no depth map within 50 ms before \(input.timestamp.nanoseconds) ns; fitted to pixels", context: &context)
            }
        }
        for (k, port) in landmarkInputs.enumerated() {
            guard let landmarks = input.payload(port) else { continue }
            let pose = estimate(landmarks, id: UInt64(k), input: k, stream: port.key.name, camera: cameras[k], depth: depth, time: input.timestamp, context: &context)
            context.emit(FacePoses(faces: pose.map { [$0] } ?? []), on: outputs[k], at: input.timestamp)
        }
        for (f, port) in faceInputs.enumerated() {
            guard let detected = input.payload(port) else { continue }
            let k = landmarkInputs.count + f
            var camera = cameras[k]
            if camera == nil, detected.imageWidth > 0, detected.imageHeight > 0 {
                camera = .assumed(width: detected.imageWidth, height: detected.imageHeight)
                if assumptionStated.insert(k).inserted {
                    context.warn("'\(port.key.name)' carries no camera calibration: assuming a pinhole camera, " + CameraModel.assumption
                                 + " (\(detected.imageWidth)×\(detected.imageHeight) px)")
                }
            }
            var poses: [FacePose] = []
            for face in detected.faces {
                if let pose = estimate(face.landmarks, id: face.id, input: k, stream: port.key.name, camera: camera, depth: depth, time: input.timestamp, context: &context) {
                    poses.append(pose)
                }
            }
            // Faces no longer seen start afresh if their id comes back.
            let seen = Set(detected.faces.map(\.id))
            states[k] = states[k]?.filter { seen.contains($0.key) }
            context.emit(FacePoses(faces: poses), on: outputs[k], at: input.timestamp)
        }
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        warnings.flush(unit: "landmark sets", context: &context)
    }

    /// The pose of one face, or nil with a (counted) warning; the face's state follows.
    private mutating func estimate(_ landmarks: FaceLandmarks, id: UInt64, input k: Int, stream: String, camera: CameraModel?, depth: ImageBuffer<Float>?,
                                   time: Timestamp, context: inout AnalyzerContext) -> FacePose? {
        var state = states[k]?[id] ?? newFaceState()
        defer { states[k, default: [:]][id] = state }
        do {
            return try pose(of: landmarks, id: id, camera: camera, depth: depth, state: &state, time: time)
        } catch let error as FaceInputError {
            warnings.note(error.kind, "'\(stream)' at \(time.nanoseconds) ns: \(error.message); no pose (further frames like it are counted)",
                          context: &context)
        } catch {
            warnings.note("no fit", "'\(stream)' at \(time.nanoseconds) ns: \(error); no pose", context: &context)
        }
        state.hadPose = false
        state.smoother?.reset()
        state.eyeSmoothers?.left.reset()
        state.eyeSmoothers?.right.reset()
        return nil
    }

    /// A face seen for the first time (or again after a gap): its filters when smoothing.
    private func newFaceState() -> FaceState {
        let filter = options.smoothing == .oneEuro ? PoseSmoother(minCutoff: options.minCutoff, beta: options.beta, rotationBeta: options.rotationBeta) : nil
        return FaceState(smoother: filter, eyeSmoothers: filter.map { ($0, $0) })
    }

    /// Why one landmark set gave no pose (the stream goes on).
    struct FaceInputError: Error {
        var kind: String
        var message: String
    }

    private func pose(of landmarks: FaceLandmarks, id: UInt64, camera: CameraModel?, depth: ImageBuffer<Float>?, state: inout FaceState, time: Timestamp) throws -> FacePose {
        let model: FaceModel
        switch landmarks.scheme {
        case .ibug68: model = .ibug68
        case .mediapipe468: model = .mediapipe468
        case .mediapipe478: model = .mediapipe478
        case .other:
            throw FaceInputError(kind: "unknown landmark scheme", message: "\(landmarks.points.count) landmarks: no face model has that many (iBUG 68, MediaPipe 468 or 478)")
        }
        var estimator = HeadPoseEstimator(model: model)
        estimator.weighting = options.weights
        estimator.huber = options.huber
        estimator.hiddenSide = options.hiddenSide
        // 3D landmarks: given with the set, or read from the depth map at each landmark's pixel.
        var points3D = landmarks.points3D
        if points3D == nil, let depth, let camera {
            guard depth.width == camera.width, depth.height == camera.height else {
                throw FaceInputError(kind: "depth not registered", message: "the depth map is \(depth.width)×\(depth.height), the landmarks' camera \(camera.width)×\(camera.height): register it first (depth-register)")
            }
            let probe = DepthProbe(window: 5)
            points3D = landmarks.points.map { probe.read($0, depth: depth.samples, camera: camera)?.point ?? Vector3(.nan, .nan, .nan) }
        }
        let useDepth: Bool
        switch options.source {
        case .pixels: useDepth = false
        case .points3d:
            guard points3D != nil else { throw FaceInputError(kind: "no 3D landmarks", message: "source=points3d, and this set has no 3D landmarks (nor a depth map to read them from)") }
            useDepth = true
        case .auto: useDepth = points3D != nil
        }
        let fit: HeadPoseFit
        var eyes: EyeGaze.Eyes?
        do {
            if useDepth, let points = points3D {
                fit = try estimator.fit(points: points)
            } else {
                guard let camera else {
                    throw FaceInputError(kind: "no intrinsics", message: "the stream carries no camera calibration, and a pixel fit needs the intrinsics (give the landmarks' camera a calibration, or 3D landmarks)")
                }
                fit = try estimator.fit(pixels: landmarks.points, camera: camera)
            }
        } catch let error as HeadPoseEstimator.FitError {
            throw FaceInputError(kind: error.kind, message: "\(error)")
        }
        var pose = fit.cameraFromHead
        if var smoother = state.smoother {
            pose = smoother.filter(pose, at: time.seconds)
            state.smoother = smoother
        }
        // The eyes in the head as reported (smoothed or not): the measured lines of sight stay
        // where the irises put them in the camera frame.
        if let irises = model.irisCenters, let camera {
            let right = landmarks.points[irises.right], left = landmarks.points[irises.left]
            if right.x.isFinite, right.y.isFinite, left.x.isFinite, left.y.isFinite {
                eyes = try? EyeGaze.eyes(cameraFromHead: pose, rightIris: right, leftIris: left, centers: model.eyeballCenters, camera: camera)
            }
        }
        if let measured = eyes, var eyeSmoothers = state.eyeSmoothers {
            let left = eyeSmoothers.left.filter(measured.left, at: time.seconds), right = eyeSmoothers.right.filter(measured.right, at: time.seconds)
            state.eyeSmoothers = eyeSmoothers
            let look = EyeGaze.lookAt(right: (right.translation, right.rotation * Vector3(0, 0, 1)), left: (left.translation, left.rotation * Vector3(0, 0, 1)))
            eyes = EyeGaze.Eyes(right: right, left: left, lookAtPoint: look.point, converging: look.converging)
        }
        let tracking: TrackingState = !state.hadPose ? .limited(.initializing) : fit.confidence < 0.1 ? .limited(.insufficientFeatures) : .normal
        state.hadPose = true
        let anchor = eyes.map { FaceAnchor(cameraFromHead: pose, leftEye: $0.left, rightEye: $0.right, lookAtPoint: $0.lookAtPoint) }
            ?? Self.straightAhead(pose, centers: model.eyeballCenters)
        return FacePose(faceID: id, anchor: anchor, angles: HeadAngles(cameraFromHead: pose.rotation), eyesMeasured: eyes != nil,
                        confidence: fit.confidence, trackingState: tracking, scheme: landmarks.scheme,
                        hiddenLandmarks: useDepth || model.normals.isEmpty ? nil : fit.hidden)
    }

    /// Eyes looking along the head's +z and a look-at point 2 m ahead: the placeholder when the
    /// landmarks show no irises (``FacePose/eyesMeasured`` false).
    static func straightAhead(_ pose: SE3, centers: (right: Vector3, left: Vector3)) -> FaceAnchor {
        let ahead = (centers.right + centers.left) / 2 + Vector3(0, 0, EyeGaze.farPoint)
        return FaceAnchor(cameraFromHead: pose, leftEye: SE3(translation: centers.left), rightEye: SE3(translation: centers.right), lookAtPoint: ahead)
    }
}

/// Weighting is an option value (`weights=rigid`); the estimator sits below the bus, which
/// defines option values, so the conformance is declared here, by its one user.
extension HeadPoseEstimator.Weighting: OptionValue {}
