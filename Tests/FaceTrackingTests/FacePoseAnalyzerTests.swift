import Foundation
import Testing
import Parallax
import ParallaxTesting

@Suite struct FacePoseAnalyzerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixture = root.appendingPathComponent("Tests/Fixtures/aflw2000_synthetic").path
    static let key = StreamKey<FaceLandmarks>("face0/landmarks")
    static let camera = CameraCalibration(model: CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 600, fy: 600, cx: 319.5, cy: 239.5)))

    /// The synthetic AFLW folder through face-pose and the head-pose evaluation: the angles back.
    @Test func synthesizedFacesGiveTheirAnglesBack() throws {
        let runner = try ChainRunner(chain: "face-pose", dataset: Self.fixture)
        let (outcome, outputs) = try runner.runCollecting()
        #expect(outcome.failure == nil)
        let result = try HeadPoseEvaluation().evaluate(EvaluationInput(outputs: outputs, metadata: outcome.metadata, dataset: runner.source, datasetPath: Self.fixture))
        #expect(result.metrics["frames"] == 2 && result.metrics["no_pose"] == 0 && result.metrics["flipped"] == 0)
        #expect(try #require(result.metrics["mae_deg"]) < 0.01)
    }

    /// A simulated face with irises (478 points, 0.5 px noise): head within a degree or two,
    /// both lines of sight and the head position measured.
    @Test func simulatedFaceGivesHeadAndEyes() throws {
        let model = CanonicalFace.vertices
        var simulator = FaceSimulator(model: model, camera: Self.camera)
        simulator.pixelNoise = 0.5
        let packets = simulator.packets(duration: 3, seed: 2)
        var h = AnalyzerHarness { try FacePoseAnalyzer(options: { var o = FacePoseAnalyzer.Options(); o.source = .pixels; return o }()) }
        h.describe(Self.key, as: StreamMetadata(camera: Self.camera))
        var truth: [Timestamp: FaceAnchor] = [:]
        for p in packets {
            if let l = p.payload as? FaceLandmarks { h.push(l, on: Self.key, at: p.timestamp) }
            if let a = p.payload as? FaceAnchor { truth[p.timestamp] = a }
        }
        let out = try h.run().packets(on: "face0/pose", as: FacePoses.self)
        #expect(out.count == truth.count)
        var head = 0.0, gaze = 0.0, position = 0.0
        for p in out {
            let face = try #require(p.payload.faces.first)
            let t = try #require(truth[p.timestamp])
            #expect(face.eyesMeasured && face.scheme == .mediapipe478)
            // A pixel fit judges which landmarks the pose hides (the list, possibly empty).
            let hidden = try #require(face.hiddenLandmarks)
            #expect(hidden.allSatisfy { $0 >= 0 && $0 < 478 } && hidden == hidden.sorted())
            head = max(head, (t.cameraFromHead.rotation.inverse * face.anchor.cameraFromHead.rotation).angle * 180 / .pi)
            position = max(position, (t.cameraFromHead.translation - face.anchor.cameraFromHead.translation).norm)
            let a = face.anchor.leftEye.rotation * Vector3(0, 0, 1), b = t.leftEye.rotation * Vector3(0, 0, 1)
            gaze += acos(min(1, a.dot(b))) * 180 / .pi / Double(out.count)
        }
        #expect(head < 1.5)
        #expect(position < 0.01)
        #expect(gaze < 5)
        #expect(out.first?.payload.faces.first?.trackingState == .limited(.initializing))
        #expect(out.last?.payload.faces.first?.trackingState == .normal)
    }

    /// Landmarks with a depth map registered to their camera: 3D from depth, then Procrustes;
    /// four jaw landmarks read the background 2 m away (past the face's outline) and are trimmed.
    @Test func landmarksWithDepthFitByProcrustes() throws {
        let truth = SE3(rotation: HeadAngles(pitch: 8, yaw: -25, roll: 4).cameraFromHead, translation: Vector3(0.02, 0.01, 0.55))
        let camera = Self.camera.model
        let inCamera = FaceModel.ibug68.points.map { truth * $0 }
        let pixels = inCamera.compactMap { camera.project($0) }
        var depth = [Float](repeating: 2, count: camera.width * camera.height)
        for (i, (p, c)) in zip(pixels, inCamera).enumerated() where i > 3 {
            let u = Int(p.x.rounded()), v = Int(p.y.rounded())
            for y in (v - 2)...(v + 2) { for x in (u - 2)...(u + 2) { depth[y * camera.width + x] = Float(c.z) } }
        }
        let depthKey = StreamKey<DepthMap>("depth0")
        var options = FacePoseAnalyzer.Options()
        options.depth = "depth0"
        var h = AnalyzerHarness { try FacePoseAnalyzer(options: options) }
        h.describe(Self.key, as: StreamMetadata(camera: Self.camera))
        h.declare(depthKey)
        h.push(DepthMap(sensorID: "depth0", kind: .depth, values: ImageBuffer(width: camera.width, height: camera.height, samples: depth)), on: depthKey, at: Timestamp(nanoseconds: 1))
        h.push(FaceLandmarks(points: pixels), on: Self.key, at: Timestamp(nanoseconds: 2))
        let out = try h.run().packets(on: "face0/pose", as: FacePoses.self)
        let face = try #require(out.first?.payload.faces.first)
        // Depth is read at whole pixels on each landmark's own ray: about a millimetre off.
        #expect((face.anchor.cameraFromHead.rotation.inverse * truth.rotation).angle * 180 / .pi < 0.5)
        #expect(face.hiddenLandmarks == nil)  // a 3D fit does not judge them
        #expect((face.anchor.cameraFromHead.translation - truth.translation).norm < 0.003)
    }

    /// A still face seen with 2 px of landmark noise: One-Euro smoothing steadies the pose
    /// (frame-to-frame rotation change smaller).
    @Test func smoothingSteadiesAStillFace() throws {
        let truth = SE3(rotation: HeadAngles(pitch: 5, yaw: 15, roll: 0).cameraFromHead, translation: Vector3(0, 0, 0.6))
        func jitter(_ smoothing: FacePoseAnalyzer.Smoothing) throws -> Double {
            var options = FacePoseAnalyzer.Options()
            options.smoothing = smoothing
            var h = AnalyzerHarness { try FacePoseAnalyzer(options: options) }
            h.describe(Self.key, as: StreamMetadata(camera: Self.camera))
            var rng = SeededGenerator(seed: 9)
            for k in 0..<60 {
                let pixels = FaceModel.ibug68.points.map { (Self.camera.model.project(truth * $0) ?? .zero) + 2 * Vector2(rng.nextGaussian(), rng.nextGaussian()) }
                h.push(FaceLandmarks(points: pixels), on: Self.key, at: Timestamp(nanoseconds: Int64(k) * 33_333_333))
            }
            let rotations = try h.run().packets(on: "face0/pose", as: FacePoses.self).compactMap { $0.payload.faces.first?.anchor.cameraFromHead.rotation }
            #expect(rotations.count == 60)
            return zip(rotations, rotations.dropFirst()).dropFirst(10).map { ($0.inverse * $1).angle }.reduce(0, +)
        }
        let raw = try jitter(.none), smoothed = try jitter(.oneEuro)
        #expect(smoothed < 0.5 * raw, "frame-to-frame change \(smoothed) vs \(raw) rad")
    }

    /// Bad landmark sets give no pose for their frame, a warning naming the stream and time, and
    /// the stream goes on.
    @Test func badLandmarksGiveNoPoseAndTheStreamGoesOn() throws {
        let truth = SE3(rotation: HeadAngles(pitch: 0, yaw: 10, roll: 0).cameraFromHead, translation: Vector3(0, 0, 0.5))
        let good = FaceModel.ibug68.points.compactMap { Self.camera.model.project(truth * $0) }
        var nan = good
        for i in 0..<63 { nan[i] = Vector2(.nan, .nan) }
        let line = (0..<68).map { Vector2(100 + Double($0), 200) }
        var h = AnalyzerHarness { try FacePoseAnalyzer(options: FacePoseAnalyzer.Options()) }
        h.describe(Self.key, as: StreamMetadata(camera: Self.camera))
        for (k, points) in [good, Array(good.prefix(10)), nan, line, good].enumerated() {
            h.push(FaceLandmarks(points: points), on: Self.key, at: Timestamp(nanoseconds: Int64(k + 1) * 1_000_000))
        }
        let result = try h.run()
        let out = result.packets(on: "face0/pose", as: FacePoses.self)
        #expect(out.map { $0.payload.faces.count } == [1, 0, 0, 0, 1])
        #expect(out[4].payload.faces.first?.trackingState == .limited(.initializing))  // after a gap
        let warnings = result.report.warnings.joined(separator: "\n")
        #expect(warnings.contains("face0/landmarks' at 2000000 ns") && warnings.contains("10 landmarks"))
        #expect(warnings.contains("5 usable landmarks; a pose needs at least 6"))
        #expect(warnings.contains("lie on a line"))
    }

    /// No intrinsics on the stream: no pose, and the warning says what is missing.
    @Test func missingIntrinsicsAreNamed() throws {
        var h = AnalyzerHarness { try FacePoseAnalyzer(options: FacePoseAnalyzer.Options()) }
        h.declare(Self.key)
        h.push(FaceLandmarks(points: Array(repeating: Vector2(1, 2), count: 68)), on: Self.key, at: Timestamp(nanoseconds: 1))
        let result = try h.run()
        #expect(result.packets(on: "face0/pose", as: FacePoses.self).first?.payload.faces.isEmpty == true)
        #expect(result.report.warnings.contains { $0.contains("no camera calibration") })
    }

    @Test func optionsAreChecked() throws {
        // No input named: face0/landmarks, as simulate --scene face and AFLW2000 folders write it.
        #expect(try FacePoseAnalyzer(options: FacePoseAnalyzer.Options()).inputs.map(\.stream) == ["face0/landmarks"])
        #expect(throws: AnalyzerError.self) { _ = try FacePoseAnalyzer(options: { var o = FacePoseAnalyzer.Options(); o.landmarks = ["a/landmarks"]; o.faces = ["a/faces"]; return o }()) }
        #expect(throws: AnalyzerError.self) { _ = try FacePoseAnalyzer(options: { var o = FacePoseAnalyzer.Options(); o.landmarks = ["a", "a"]; return o }()) }
        #expect(FacePoseAnalyzer.outputStream(for: "face0/landmarks") == "face0/pose")
        #expect(FacePoseAnalyzer.outputStream(for: "lm") == "lm/pose")
    }
}
