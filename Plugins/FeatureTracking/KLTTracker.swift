import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxOptions
import ParallaxPayloads
import ParallaxVision

/// Sparse feature tracking frame to frame, without the bus (what `klt` runs): Shi–Tomasi (or
/// FAST) corners tracked by inverse-compositional pyramidal Lucas–Kanade, checked
/// forward-backward and against the epipolar geometry (RANSAC on the fundamental matrix,
/// normalized 8-point), with stable ids, ages and the reason each track ended. New corners fill
/// empty grid cells first, so the features cover the whole image. With a stereo partner's image,
/// each feature is found in it too.
public struct KLTTracker: Sendable {
    /// Corner detectors.
    public enum Detector: String, CaseIterable, OptionValue {
        case shiTomasi = "shi-tomasi", fast
    }

    /// How features are found and tracked: the `klt` analyzer's options are these, under the same
    /// names, each declared here once with its unit and range.
    public struct Settings: ParameterGroup, Equatable {
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
        @Parameter("depth (m) used to predict where a feature appears in the stereo camera", range: 0.01...1e6) public var stereoDepthGuess = 3.0
        @Parameter("largest distance (px) of a stereo match from its epipolar line", range: 0...1000) public var stereoEpipolarThreshold = 1.5
        public init() {}
    }

    /// What one frame did to the tracks.
    public struct Step: Sendable {
        /// The tracks that ended in this frame, by id.
        public var ended: [EndedTrack]
        /// The previous frame's size when this frame's differs: every track ended, tracking restarted.
        public var restartedFrom: (width: Int, height: Int)?
        /// This frame's size.
        public var width: Int, height: Int
    }

    public let settings: Settings
    /// The live features after the last frame.
    public private(set) var tracks: [TrackedFeature] = []
    private var lk = PyramidalLucasKanade()
    private var shiTomasi = ShiTomasiDetector()
    private var selection = GridCornerSelection()
    private var previous: PyramidalLucasKanade.Prepared?
    private var nextID: UInt64 = 0

    /// A tracker with no features yet. The settings are taken as valid (the analyzer checks
    /// their ranges).
    public init(settings: Settings) {
        self.settings = settings
        lk.window = settings.window
        lk.maxLevel = settings.levels
        lk.maxIterations = settings.maxIterations
        lk.epsilon = Float(settings.epsilon)
        selection.columns = settings.gridColumns
        selection.rows = settings.gridRows
        selection.minDistance = Float(settings.minDistance)
        selection.quality = Float(settings.quality)
        // New features need their whole tracking window inside the image.
        shiTomasi.border = settings.window / 2 + 2
    }

    /// Tracks the live features into `frame`, tops them up to `max_features`, gives each its
    /// bearing through `camera` and, with a `stereo` partner's image and calibration, its place
    /// there. `turn` (`R_C₁C₀ᵀ`, the rotation of the camera since the last frame, from the gyro)
    /// moves each feature's starting guess; without it each search starts where the feature was.
    public mutating func track(_ frame: ImageBuffer<UInt8>, camera: CameraCalibration?, turn: SO3? = nil,
                               stereo: (image: ImageBuffer<UInt8>, camera: CameraCalibration)? = nil) -> Step {
        let image = settings.equalize ? HistogramEqualization.equalized(frame) : GrayImage(frame)
        let current = lk.prepare(image)
        var ended: [EndedTrack] = []
        var restartedFrom: (width: Int, height: Int)?
        if let prev = previous, prev.size.width != current.size.width || prev.size.height != current.size.height {
            restartedFrom = (prev.size.width, prev.size.height)
            ended = tracks.map { EndedTrack(id: $0.id, reason: .frameSizeChanged, age: $0.age) }
            tracks = []
            previous = nil
        }
        if let prev = previous, !tracks.isEmpty {
            ended += track(from: prev, to: current, camera: camera?.model, guesses: turn.flatMap { predictions($0, camera: camera?.model) })
        }
        addFeatures(image, prepared: current)
        for i in tracks.indices {
            tracks[i].normalized = camera.flatMap { try? $0.model.normalized(tracks[i].pixel) }
            tracks[i].stereoPixel = nil
            tracks[i].stereoNormalized = nil
        }
        if let left = camera, let stereo {
            matchStereo(current, left: left, partner: stereo.image, right: stereo.camera)
        }
        previous = current
        return Step(ended: ended, restartedFrom: restartedFrom, width: image.width, height: image.height)
    }

    /// Where each live feature should appear after the camera turned by `turn` (a rotation about
    /// the camera moves every bearing alike: `b₁ = R_C₁C₀ b₀`), or nil without a camera. A feature
    /// that would leave the image, or has no bearing, is searched where it was.
    private func predictions(_ turn: SO3, camera: CameraModel?) -> [Vector2]? {
        guard let camera else { return nil }
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
        if settings.forwardBackwardThreshold > 0, !survivors.isEmpty {
            // Backward from the forward track's origin: a correct track converges there at once, so
            // the two finest levels suffice (the coarse ones would start where the guess is too;
            // level 0 alone lets more bad tracks through: EuRoC MH_01 5.5 → 6.2 mm with vio).
            let back = lk.track(survivors.map(\.1), from: current, to: prev, guesses: survivors.map(\.0.pixel), coarsestLevel: 1)
            var kept: [(TrackedFeature, Vector2)] = []
            for (s, r) in zip(survivors, back) {
                if case let .success(p) = r, (p - s.0.pixel).norm <= settings.forwardBackwardThreshold {
                    kept.append(s)
                } else {
                    ended.append(EndedTrack(id: s.0.id, reason: .forwardBackward, age: s.0.age))
                }
            }
            survivors = kept
        }
        if settings.ransacThreshold > 0, survivors.count >= 12 {
            // Epipolar geometry holds for undistorted points: undistort when calibrated (in pixels,
            // so the threshold keeps its unit).
            let a = survivors.map { camera?.undistortedPixel($0.0.pixel) ?? $0.0.pixel }
            let b = survivors.map { camera?.undistortedPixel($0.1) ?? $0.1 }
            let ransac = RANSAC<Matrix3>(minimalSampleSize: 8, threshold: settings.ransacThreshold, confidence: 0.999, maxIterations: 500, seed: 0)
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
    private mutating func matchStereo(_ current: PyramidalLucasKanade.Prepared, left: CameraCalibration, partner: ImageBuffer<UInt8>, right: CameraCalibration) {
        let rightImage = lk.prepare(GrayImage(partner), gradients: false)
        let rightFromLeft = right.bodyFromSensor.inverse * left.bodyFromSensor   // T_C1C0
        // Essential matrix for normalized points: x1ᵀ [t]× R x0 = 0.
        let essential = Matrix3.skew(rightFromLeft.translation) * rightFromLeft.rotation.matrix
        var indices: [Int] = [], guesses: [Vector2] = [], starts: [Vector2] = []
        for (i, f) in tracks.enumerated() {
            guard let n = f.normalized else { continue }
            let p = rightFromLeft * (Vector3(n.x, n.y, 1) * settings.stereoDepthGuess)
            guard let g = right.model.project(p), right.model.contains(g, margin: Double(settings.window)) else { continue }
            indices.append(i); guesses.append(g); starts.append(f.pixel)
        }
        let matched = lk.track(starts, from: current, to: rightImage, guesses: guesses)
        let f1 = right.model.intrinsics.fx
        for (k, r) in zip(indices, matched) {
            guard case let .success(q) = r, let n0 = tracks[k].normalized, let n1 = try? right.model.normalized(q) else { continue }
            // Distance of x1 from the epipolar line E x0, in normalized units → px.
            let line = essential * Vector3(n0.x, n0.y, 1)
            let distance = abs(line.dot(Vector3(n1.x, n1.y, 1))) / (line.x * line.x + line.y * line.y).squareRoot()
            if distance * f1 <= settings.stereoEpipolarThreshold {
                tracks[k].stereoPixel = q
                tracks[k].stereoNormalized = n1
            }
        }
    }

    /// Tops the features up to `max_features`: empty grid cells first, then by corner score
    /// (``GridCornerSelection``). (`prepared` is `image`'s pyramid: Shi–Tomasi scores its
    /// level 0 from the template gradients tracking computed.)
    private mutating func addFeatures(_ image: GrayImage, prepared: PyramidalLucasKanade.Prepared) {
        guard tracks.count < settings.maxFeatures, Double(tracks.count) < settings.refillBelow * Double(settings.maxFeatures) || tracks.isEmpty else { return }
        let scores: GrayImage
        var selection = selection
        if settings.detector == .fast {
            selection.quality = 1e-6  // any positive FAST score is a corner (its threshold already applied)
            var fast = FASTDetector()
            fast.threshold = Float(settings.fastThreshold)
            fast.border = settings.window / 2 + 2
            scores = fast.scores(image)
        } else {
            scores = shiTomasi.scores(prepared)
        }
        for corner in selection.select(scores, occupied: tracks.map(\.pixel), count: settings.maxFeatures - tracks.count) {
            tracks.append(TrackedFeature(id: nextID, pixel: corner.position, age: 1))
            nextID += 1
        }
    }
}
