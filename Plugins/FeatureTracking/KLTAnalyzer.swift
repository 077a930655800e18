import ParallaxBus
import ParallaxPayloads
import ParallaxVision
import ParallaxGeometry
import ParallaxImage
import ParallaxMath

/// Sparse feature tracking (the visual front end): Shi–Tomasi corners tracked frame to frame
/// by inverse-compositional pyramidal Lucas–Kanade, checked forward-backward and against the
/// epipolar geometry (RANSAC on the fundamental matrix, normalized 8-point), with stable ids,
/// ages and the reason each track ended. New corners fill empty grid cells first, so the
/// features cover the whole image.
///
/// Example chain: `klt camera=cam0 max_features=200 ! stream-stats streams=cam0/tracks`
public struct KLTAnalyzer: Analyzer {
    public static let name = "klt"
    public static let summary = "Feature tracks: Shi–Tomasi corners + pyramidal Lucas–Kanade, forward-backward and RANSAC checks, stable ids"

    /// Corner detectors.
    public enum Detector: String, CaseIterable, OptionValue {
        case shiTomasi = "shi-tomasi", fast
    }

    public struct Options: AnalyzerOptions {
        @Parameter("camera stream to track (output: <camera>/tracks)") public var camera = "cam0"
        @Parameter("features kept per frame", range: 1...100_000) public var maxFeatures = 200
        @Parameter("corner quality relative to the best corner", range: 1e-6...1) public var quality = 0.01
        @Parameter("minimum distance between features (px)", range: 0...10_000) public var minDistance = 10.0
        @Parameter("Lucas–Kanade window (px, odd)", rule: "odd, 3…201", validate: { $0 % 2 == 1 && (3...201).contains($0) ? nil : "must be odd and in 3…201" })
        public var window = 21
        @Parameter("highest pyramid level (3 = four levels)", range: 0...8) public var levels = 3
        @Parameter("Lucas–Kanade iterations per level", range: 1...1000) public var maxIterations = 30
        @Parameter("Lucas–Kanade convergence threshold (px)", range: 1e-9...10) public var epsilon = 0.01
        @Parameter("largest forward-backward error (px); 0 disables the check", range: 0...1000) public var forwardBackwardThreshold = 1.0
        @Parameter("largest Sampson error to the fundamental matrix (px); 0 disables RANSAC", range: 0...1000) public var ransacThreshold = 1.0
        @Parameter("look for new corners only when fewer than this share of max_features is tracked (1: every frame that lost one)", range: 0.01...1) public var refillBelow = 1.0
        @Parameter("detection grid columns (new features fill empty cells first)", range: 1...1000) public var gridColumns = 8
        @Parameter("detection grid rows", range: 1...1000) public var gridRows = 6
        @Parameter("corner detector") public var detector = Detector.shiTomasi
        @Parameter("equalize each frame's histogram before tracking (as OpenVINS does): the same contrast in dark and bright frames") public var equalize = false
        @Parameter("FAST intensity threshold (gray levels)", range: 1...255) public var fastThreshold = 20.0
        @Parameter("gyro rotation between frames (imu-integrator's <camera>/gyro-rotation): each feature's search starts where that rotation moves it; empty: where it was") public var rotation = ""
        @Parameter("second camera of a stereo pair (e.g. cam1); empty disables stereo matching") public var stereoCamera = ""
        @Parameter("depth (m) used to predict where a feature appears in the stereo camera", range: 0.01...1e6) public var stereoDepthGuess = 3.0
        @Parameter("largest distance (px) of a stereo match from its epipolar line", range: 0...1000) public var stereoEpipolarThreshold = 1.5
        public init() {}
    }

    private let frames: InputPort<CameraFrame>
    private let stereoFrames: InputPort<CameraFrame>?
    private let rotations: InputPort<FrameRotation>?
    /// Rotation of the IMU's frame into this camera's (`R_CS`), from the rotation stream's metadata.
    private var cameraFromIMU: SO3?
    private let output: OutputPort<FeatureTracks>
    private let options: Options
    private var lk = PyramidalLucasKanade()
    private var detector = ShiTomasiDetector()
    private var selection = GridCornerSelection()
    private var previous: PyramidalLucasKanade.Prepared?
    private var tracks: [TrackedFeature] = []
    private var nextID: UInt64 = 0
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
        lk.window = options.window
        lk.maxLevel = options.levels
        lk.maxIterations = options.maxIterations
        lk.epsilon = Float(options.epsilon)
        selection.columns = options.gridColumns
        selection.rows = options.gridRows
        selection.minDistance = Float(options.minDistance)
        selection.quality = Float(options.quality)
        // New features need their whole tracking window inside the image.
        detector.border = options.window / 2 + 2
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        // Tracks are measured in this camera's pixels: forward its description.
        let camera = context.metadata(of: frames)
        calibration = camera.camera
        context.describe(output, as: StreamMetadata(camera: camera.camera, stereo: camera.stereo))
        if let port = rotations {
            let imu = context.metadata(of: port).imu
            if let camera = calibration {
                // R_CS = R_CB · R_BS (the IMU's body-from-sensor; identity when not described).
                cameraFromIMU = camera.bodyFromSensor.rotation.inverse * (imu?.bodyFromSensor.rotation ?? .identity)
                if imu == nil { context.warn("'\(options.rotation)' does not describe its IMU: its frame is taken as the body frame") }
            } else {
                context.warn("rotation-aided tracking needs the calibration of '\(options.camera)'; features are searched where they were")
            }
        }
        if let port = stereoFrames {
            stereoCalibration = context.metadata(of: port).camera
            if calibration == nil || stereoCalibration == nil {
                context.warn("stereo matching needs calibrations of '\(options.camera)' and '\(options.stereoCamera)'; stereo skipped")
            }
        }
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let frame = input.payload(frames) else { return }
        let image = options.equalize ? HistogramEqualization.equalized(frame.image) : GrayImage(frame.image)
        let current = lk.prepare(image)
        var ended: [EndedTrack] = []
        if let prev = previous, prev.size.width != current.size.width || prev.size.height != current.size.height {
            context.warn("frame size changed from \(prev.size.width)×\(prev.size.height) to \(image.width)×\(image.height) at \(input.timestamp.nanoseconds) ns: tracking reset")
            ended = tracks.map { EndedTrack(id: $0.id, reason: .frameSizeChanged, age: $0.age) }
            tracks = []
            previous = nil
        }
        if let prev = previous, !tracks.isEmpty {
            ended += track(from: prev, to: current, camera: calibration?.model, guesses: predictions(input))
        }
        addFeatures(image, prepared: current)
        for i in tracks.indices {
            tracks[i].normalized = calibration.flatMap { try? $0.model.normalized(tracks[i].pixel) }
            tracks[i].stereoPixel = nil
            tracks[i].stereoNormalized = nil
        }
        if let port = stereoFrames, let left = calibration, let right = stereoCalibration {
            if let partner = input.latest(port)?.payload {
                matchStereo(current, left: left, partner: partner, right: right)
            } else if !warnedStereo {
                context.warn("stereo matching needs '\(options.stereoCamera)' frames at the same times; stereo skipped where missing")
                warnedStereo = true
            }
        }
        previous = current
        context.emit(FeatureTracks(camera: options.camera, imageWidth: image.width, imageHeight: image.height,
                                   features: tracks, ended: ended), on: output, at: input.timestamp)
    }

    /// Where each live feature should appear after the gyro rotation ending at this frame
    /// (a rotation about the camera moves every bearing alike: `b₁ = R_C₁C₀ b₀`), or nil without
    /// one. A feature that would leave the image, or has no bearing, is searched where it was.
    private func predictions(_ input: AnalyzerInput) -> [Vector2]? {
        guard let port = rotations, let cameraFromIMU, let camera = calibration?.model,
              let rotation = input.latest(port)?.payload,
              [rotation.rotationVector.x, rotation.rotationVector.y, rotation.rotationVector.z].allSatisfy(\.isFinite) else { return nil }
        // R_C₀C₁ = R_CS R_S₀S₁ R_SC; a point fixed in the world: x₁ = R_C₀C₁ᵀ x₀.
        let turn = (cameraFromIMU * SO3.exp(rotation.rotationVector) * cameraFromIMU.inverse).inverse
        return tracks.map { f in
            guard let n = f.normalized else { return f.pixel }
            let b = turn * Vector3(n.x, n.y, 1)
            guard b.z > 1e-6, let p = camera.project(b), camera.contains(p, margin: 0) else { return f.pixel }
            return p
        }
    }

    /// Tracks the live features into `current`, each search starting at its guess (default: where
    /// it was); returns the ones that ended.
    private mutating func track(from prev: PyramidalLucasKanade.Prepared, to current: PyramidalLucasKanade.Prepared,
                                camera: CameraModel?, guesses: [Vector2]? = nil) -> [EndedTrack] {
        var ended: [EndedTrack] = []
        let starts = tracks.map(\.pixel)
        let forward = lk.track(starts, from: prev, to: current, guesses: guesses)
        var survivors: [(TrackedFeature, Vector2)] = []
        for (t, r) in zip(tracks, forward) {
            switch r {
            case let .success(p): survivors.append((t, p))
            case .failure(.outOfImage): ended.append(EndedTrack(id: t.id, reason: .outOfImage, age: t.age))
            case .failure(.lowTexture): ended.append(EndedTrack(id: t.id, reason: .lowTexture, age: t.age))
            }
        }
        if options.forwardBackwardThreshold > 0, !survivors.isEmpty {
            // Backward from the forward track's origin: a correct track converges there at once, so
            // the two finest levels suffice (the coarse ones would start where the guess is too;
            // level 0 alone lets more bad tracks through: EuRoC MH_01 5.5 → 6.2 mm with vio).
            let back = lk.track(survivors.map(\.1), from: current, to: prev, guesses: survivors.map(\.0.pixel), coarsestLevel: 1)
            var kept: [(TrackedFeature, Vector2)] = []
            for (s, r) in zip(survivors, back) {
                if case let .success(p) = r, (p - s.0.pixel).norm <= options.forwardBackwardThreshold {
                    kept.append(s)
                } else {
                    ended.append(EndedTrack(id: s.0.id, reason: .forwardBackward, age: s.0.age))
                }
            }
            survivors = kept
        }
        if options.ransacThreshold > 0, survivors.count >= 12 {
            // Epipolar geometry holds for undistorted points: undistort when calibrated (in pixels,
            // so the threshold keeps its unit).
            let a = survivors.map { camera?.undistortedPixel($0.0.pixel) ?? $0.0.pixel }
            let b = survivors.map { camera?.undistortedPixel($0.1) ?? $0.1 }
            let ransac = RANSAC<Matrix3>(minimalSampleSize: 8, threshold: options.ransacThreshold, confidence: 0.999, maxIterations: 500, seed: 0)
            if let result = try? ransac.run(dataCount: a.count,
                                            fit: { idx in FundamentalMatrix.eightPoint(idx.map { a[$0] }, idx.map { b[$0] }) },
                                            residual: { f, i in FundamentalMatrix.sampsonError(f, a[i], b[i]) },
                                            refit: { idx in FundamentalMatrix.eightPoint(idx.map { a[$0] }, idx.map { b[$0] }) }) {
                let inliers = Set(result.inliers)
                var kept: [(TrackedFeature, Vector2)] = []
                for (i, s) in survivors.enumerated() {
                    if inliers.contains(i) { kept.append(s) } else { ended.append(EndedTrack(id: s.0.id, reason: .ransac, age: s.0.age)) }
                }
                survivors = kept
            }
        }
        tracks = survivors.map { t, p in TrackedFeature(id: t.id, pixel: p, age: t.age + 1) }
        return ended.sorted { $0.id < $1.id }
    }

    /// Finds each feature in the stereo partner's image: LK from a prediction at
    /// `stereo_depth_guess` through the calibrated extrinsics, kept when within
    /// `stereo_epipolar_threshold` px of the epipolar line.
    private mutating func matchStereo(_ current: PyramidalLucasKanade.Prepared, left: CameraCalibration, partner: CameraFrame, right: CameraCalibration) {
        let rightImage = lk.prepare(GrayImage(partner.image), gradients: false)
        let rightFromLeft = right.bodyFromSensor.inverse * left.bodyFromSensor   // T_C1C0
        // Essential matrix for normalized points: x1ᵀ [t]× R x0 = 0.
        let essential = Matrix3.skew(rightFromLeft.translation) * rightFromLeft.rotation.matrix
        var indices: [Int] = [], guesses: [Vector2] = [], starts: [Vector2] = []
        for (i, f) in tracks.enumerated() {
            guard let n = f.normalized else { continue }
            let p = rightFromLeft * (Vector3(n.x, n.y, 1) * options.stereoDepthGuess)
            guard let g = right.model.project(p), right.model.contains(g, margin: Double(options.window)) else { continue }
            indices.append(i); guesses.append(g); starts.append(f.pixel)
        }
        let matched = lk.track(starts, from: current, to: rightImage, guesses: guesses)
        let f1 = right.model.intrinsics.fx
        for (k, r) in zip(indices, matched) {
            guard case let .success(q) = r, let n0 = tracks[k].normalized, let n1 = try? right.model.normalized(q) else { continue }
            // Distance of x1 from the epipolar line E x0, in normalized units → px.
            let line = essential * Vector3(n0.x, n0.y, 1)
            let distance = abs(line.dot(Vector3(n1.x, n1.y, 1))) / (line.x * line.x + line.y * line.y).squareRoot()
            if distance * f1 <= options.stereoEpipolarThreshold {
                tracks[k].stereoPixel = q
                tracks[k].stereoNormalized = n1
            }
        }
    }

    /// Tops the features up to `max_features`: empty grid cells first, then by corner score
    /// (``GridCornerSelection``). (`prepared` is `image`'s pyramid: Shi–Tomasi scores its
    /// level 0 from the template gradients tracking computed.)
    private mutating func addFeatures(_ image: GrayImage, prepared: PyramidalLucasKanade.Prepared) {
        guard tracks.count < options.maxFeatures, Double(tracks.count) < options.refillBelow * Double(options.maxFeatures) || tracks.isEmpty else { return }
        let scores: GrayImage
        var selection = selection
        if options.detector == .fast {
            selection.quality = 1e-6  // any positive FAST score is a corner (its threshold already applied)
            var fast = FASTDetector()
            fast.threshold = Float(options.fastThreshold)
            fast.border = options.window / 2 + 2
            scores = fast.scores(image)
        } else {
            scores = detector.scores(prepared)
        }
        for corner in selection.select(scores, occupied: tracks.map(\.pixel), count: options.maxFeatures - tracks.count) {
            tracks.append(TrackedFeature(id: nextID, pixel: corner.position, age: 1))
            nextID += 1
        }
    }
}
