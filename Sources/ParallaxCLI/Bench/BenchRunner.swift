import Foundation
import Parallax

/// Runs a ``BenchSuite`` and produces its results.
struct BenchRunner {
    /// One run's outcome. Metrics are deterministic; timing is not (kept apart).
    struct Result: Codable {
        var name: String
        var dataset: String
        var chain: String
        var status: String               // ok | skipped | failed
        var note: String?
        var packets: [String: Int] = [:]
        /// Evaluation, when asked: what was compared and its statistics.
        var metric: String?
        var statistics: ErrorStatistics?
        var series: [Double]? = nil       // errors in time order (for the plot)
        var seriesTimes: [Double]? = nil
        var timing: [RunReport.AnalyzerTiming] = []
        var realtimeFactor: Double = 0
    }

    let suite: BenchSuite
    let scratch: URL
    var progress: (String) -> Void = { _ in }

    func run() throws -> [Result] {
        try suite.runs.map(runOne)
    }

    private func runOne(_ run: BenchSuite.Run) throws -> Result {
        var scene: TexturedScene?
        var result = Result(name: run.name, dataset: run.dataset ?? "simulated", chain: run.chain, status: "ok")
        progress("\(run.name): preparing")
        let datasetPath: String
        if let dataset = run.dataset {
            guard FileManager.default.fileExists(atPath: dataset) else {
                result.status = "skipped"
                result.note = "dataset not present on this machine: \(dataset)"
                return result
            }
            datasetPath = dataset
        } else {
            let (seconds, seed, width, textures) = run.simulate!
            let folder = scratch.appendingPathComponent("sim-\(run.name)")
            try? FileManager.default.removeItem(at: folder)
            scene = try Self.simulate(seconds: seconds, seed: seed, width: width, textures: textures, into: folder)
            datasetPath = folder.path
            result.dataset = String(format: "simulated (%.0f s, seed %d)", seconds, seed)
        }
        let source = try DatasetFolder.open(datasetPath)
        let chain = try Chain.load(run.chain)
        let instances = try chain.instantiate(registry: ParallaxCLI.registry, sourceStreams: source.streams)
        let bus = try FrameBus(sources: [source], analyzers: instances, options: .init(prefetch: true))
        nonisolated(unsafe) var outputs: [AnyPacket] = []
        progress("\(run.name): running \(chain.name)")
        let report: RunReport
        do {
            report = try bus.run { _, p in outputs.append(p) }
        } catch let failure as FrameBusFailure {
            result.status = "failed"
            result.note = failure.description
            return result
        }
        for s in report.streams { result.packets[s.stream] = s.packets }
        result.timing = report.analyzers
        result.realtimeFactor = report.realtimeFactor
        if run.evaluate == "gyro-rotation" {
            guard let gt = source.groundTruth else {
                result.status = "failed"
                result.note = "evaluation gyro-rotation needs ground truth, and this dataset has none"
                return result
            }
            let rotations = outputs.compactMap { p -> (Double, FrameRotation)? in
                (p.payload as? FrameRotation).map { (p.timestamp.seconds, $0) }
            }
            var errors: [Double] = [], times: [Double] = []
            for (t1, r) in rotations {
                guard let a = gt.pose(at: t1 - r.interval), let b = gt.pose(at: t1) else { continue }
                let truth = a.rotation.inverse * b.rotation
                errors.append((SO3.exp(r.rotationVector).inverse * truth).angle * 180 / .pi)
                times.append(t1)
            }
            result.metric = "gyro rotation between frames vs ground truth (deg)"
            result.statistics = ErrorStatistics(errors)
            let t0 = times.first ?? 0
            result.series = errors
            result.seriesTimes = times.map { $0 - t0 }
            if errors.isEmpty { result.note = "no frame interval was covered by ground truth" }
        }
        if run.evaluate == "landmarks" {
            guard let scene, let gt = source.groundTruth else {
                result.status = "failed"
                result.note = "evaluation landmarks needs a simulated dataset (the scene is the ground truth)"
                return result
            }
            // The true point of a track: its first observation's ray cast into the scene from the
            // ground-truth camera pose at that frame.
            var firstView: [UInt64: (time: Double, normalized: Vector2, bodyFromCamera: SE3)] = [:]
            var ages: [Double] = []
            for p in outputs {
                guard let tracks = p.payload as? FeatureTracks, let cal = bus.streamMetadata[p.stream]?.camera else { continue }
                for f in tracks.features where firstView[f.id] == nil {
                    if let n = f.normalized { firstView[f.id] = (p.timestamp.seconds, n, cal.bodyFromSensor) }
                }
                ages += tracks.ended.map { Double($0.age) }
            }
            var errors: [Double] = []
            for p in outputs {
                guard let l = p.payload as? Landmark, let v = firstView[l.id], let body = gt.pose(at: v.time) else { continue }
                let camera = body * v.bodyFromCamera
                let ray = camera.rotation * Vector3(v.normalized.x, v.normalized.y, 1).normalized
                guard let hit = scene.intersect(origin: camera.translation, direction: ray) else { continue }
                let truth = camera.translation + hit.t * ray
                let depth = (camera.inverse * truth).z
                guard depth >= 1, depth <= 5 else { continue }
                errors.append((l.position - truth).norm)
            }
            result.metric = "landmark position error, true depth 1–5 m (m)"
            result.statistics = ErrorStatistics(errors)
            let sortedAges = ages.sorted()
            let p90 = ErrorStatistics.percentile(errors, 0.9)
            result.note = String(format: "90th percentile %.4f m over %d landmarks; median track length %.0f frames", p90, errors.count,
                                 sortedAges.isEmpty ? 0 : sortedAges[sortedAges.count / 2])
        }
        if run.evaluate == "matches" {
            guard let scene, let gt = source.groundTruth else {
                result.status = "failed"
                result.note = "evaluation matches needs a simulated dataset (the scene is the ground truth)"
                return result
            }
            evaluateMatches(outputs, metadata: bus.streamMetadata, scene: scene, groundTruth: gt, into: &result)
        }
        if run.evaluate == "homography" {
            guard let folder = source as? ImageFolderSource else {
                result.status = "failed"
                result.note = "evaluation homography needs a folder of images with ground-truth homographies H_<a>_<b>"
                return result
            }
            do {
                try evaluateHomographies(outputs, folder: folder, datasetPath: datasetPath, into: &result)
            } catch {
                // A bad ground-truth file fails this run only; the other runs' results are kept.
                result.status = "failed"
                result.note = "\(error)"
            }
        }
        return result
    }

    /// Matches between images `a` and `b` of an image folder against the ground-truth
    /// homography file `H_<a>_<b>` beside them (HPatches naming, file names without
    /// extension): the error of a match is its distance from `H · reference` (px, in image b).
    /// Statistics over the RANSAC inliers; per pair, the share of all matches within 3 px and
    /// the corner error of the fitted homography.
    private func evaluateHomographies(_ outputs: [AnyPacket], folder: ImageFolderSource, datasetPath: String, into result: inout Result) throws {
        func stem(_ t: Timestamp) -> String? {
            let k = Int((t.seconds / ImageFolderSource.frameInterval).rounded())
            return folder.files.indices.contains(k) ? ((folder.files[k] as NSString).lastPathComponent as NSString).deletingPathExtension : nil
        }
        var inlierErrors: [Double] = [], pairs: [String] = [], missing = 0
        for p in outputs {
            guard let m = p.payload as? FeatureMatches, let a = stem(m.referenceTimestamp), let b = stem(p.timestamp) else { continue }
            let file = URL(fileURLWithPath: datasetPath).appendingPathComponent("H_\(a)_\(b)").path
            guard FileManager.default.fileExists(atPath: file) else { missing += 1; continue }
            let truth = try HomographyFile.read(path: file)
            let errors = HomographyMetrics.matchErrors(m.matches.map { ($0.referencePixel, $0.pixel) }, truth: truth)
            let inliers = zip(m.matches, errors).filter { $0.0.inlier }.map(\.1)
            inlierErrors += inliers
            var text = String(format: "%@→%@: %d/%d matches within 3 px, %d inliers, median %.2f px", a, b,
                              errors.filter { $0 <= 3 }.count, errors.count, inliers.count, inliers.isEmpty ? .nan : ErrorStatistics(inliers).median)
            if let model = m.model, model.kind == .homography, let frame = folder.files.indices.contains(0) ? folder.files[0] : nil,
               let size = try? ImageDecoder.decode(path: frame).size {
                text += String(format: ", corner error %.1f px", HomographyMetrics.cornerError(estimated: model.matrix, truth: truth, width: size.width, height: size.height))
            }
            pairs.append(text)
        }
        result.metric = "matched pixel vs ground-truth homography, RANSAC inliers (px)"
        result.statistics = ErrorStatistics(inlierErrors)
        result.note = pairs.joined(separator: "; ") + (missing > 0 ? "; \(missing) pairs without a ground-truth file" : "")
    }

    /// Descriptor matches against the simulator's truth: the reference pixel's ray is cast into
    /// the scene from the true reference pose and the hit projected into the true current pose;
    /// the error is the matched pixel's distance from that projection (px).
    private func evaluateMatches(_ outputs: [AnyPacket], metadata: [String: StreamMetadata], scene: TexturedScene, groundTruth gt: Trajectory,
                                 into result: inout Result) {
        var inlierErrors: [Double] = [], times: [Double] = [], all = 0, correct = 0, inliers = 0, inliersCorrect = 0
        for p in outputs {
            guard let m = p.payload as? FeatureMatches, let cal = metadata[p.stream]?.camera,
                  let a = gt.pose(at: m.referenceTimestamp), let b = gt.pose(at: p.timestamp) else { continue }
            let referenceCamera = a * cal.bodyFromSensor, currentCamera = b * cal.bodyFromSensor
            for match in m.matches {
                guard let n = try? cal.model.normalized(match.referencePixel) else { continue }
                let ray = referenceCamera.rotation * Vector3(n.x, n.y, 1).normalized
                guard let hit = scene.intersect(origin: referenceCamera.translation, direction: ray),
                      let expected = cal.model.project(currentCamera.inverse * (referenceCamera.translation + hit.t * ray)) else { continue }
                let error = (expected - match.pixel).norm
                all += 1
                if error <= 3 { correct += 1 }
                if match.inlier {
                    inliers += 1
                    if error <= 3 { inliersCorrect += 1 }
                    inlierErrors.append(error)
                    times.append(p.timestamp.seconds)
                }
            }
        }
        result.metric = "matched pixel vs ray-cast truth, RANSAC inliers (px)"
        result.statistics = ErrorStatistics(inlierErrors)
        func percent(_ a: Int, _ b: Int) -> Double { b == 0 ? 0 : 100 * Double(a) / Double(b) }
        result.note = String(format: "%d matches, %.1f %% within 3 px of the truth; %d RANSAC inliers, %.1f %% of them within 3 px",
                             all, percent(correct, all), inliers, percent(inliersCorrect, inliers))
    }

    /// The bench's simulated sequence: built-in orbit, EuRoC calibration and noise, the room
    /// textured with `textures` (paths; an unreadable one is an error naming it), or with a
    /// seeded noise texture when none are given. Independent of the working directory.
    @discardableResult
    static func simulate(seconds: Double, seed: UInt64, width: Int, textures texturePaths: [String], into folder: URL) throws -> TexturedScene {
        // EuRoC cam0 intrinsics scaled from its 752 px width.
        let s = Double(width) / 752
        let camera = CameraCalibration(
            model: CameraModel(width: width, height: Int((480 * s).rounded()),
                               intrinsics: PinholeIntrinsics(fx: 458.654 * s, fy: 457.296 * s, cx: (367.215 + 0.5) * s - 0.5, cy: (248.375 + 0.5) * s - 0.5),
                               distortion: .radialTangential(k1: -0.28340811, k2: 0.07395907, p1: 0.00019359, p2: 1.76187114e-05)),
            bodyFromSensor: SE3(rotation: SO3(Matrix3(rows: Vector3(0, 0, 1), Vector3(-1, 0, 0), Vector3(0, -1, 0))), translation: .zero),
            rateHz: 20, comment: "simulated, EuRoC cam0 intrinsics scaled to \(width) px, looking along body x")
        let noise = IMUNoiseModel(gyroscopeNoiseDensity: 1.6968e-04, gyroscopeRandomWalk: 1.9393e-05, accelerometerNoiseDensity: 2.0e-3, accelerometerRandomWalk: 3.0e-3)
        var textures = try texturePaths.map { try ImageDecoder.decodeGray8(path: $0) }
        if textures.isEmpty {
            var rng = SeededGenerator(seed: seed)
            textures = [ImageBuffer<UInt8>(width: 256, height: 256, samples: (0..<65536).map { _ in UInt8(truncatingIfNeeded: rng.next()) })]
        }
        let spline = SyntheticMotion.orbit(seconds: seconds)
        let scene = TexturedScene.room(min: Vector3(-4, -3, 0), max: Vector3(4, 3, 3.5), textures: textures)
        var config = SequenceSimulator.Configuration(camera: camera, imu: IMUSimulator(noise: noise, rateHz: 200))
        config.duration = seconds
        config.seed = seed
        config.depthRateHz = 0
        let simulator = SequenceSimulator(spline: spline, scene: scene, configuration: config)
        let (packets, gt) = try simulator.packets()
        try ParallaxFolderWriter.write(packets, streams: simulator.streams, groundTruth: gt, to: folder.path)
        return scene
    }
}
