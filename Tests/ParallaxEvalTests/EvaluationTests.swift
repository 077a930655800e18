import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxDatasets
import ParallaxOutputs
import ParallaxMath
import ParallaxSim
@testable import ParallaxEval

@Suite struct EvaluationTests {
    /// A dataset folder holding only ground truth: a 10 s circle, 100 Hz.
    func groundTruthFolder() throws -> (URL, Trajectory) {
        let poses = (0..<1000).map { k -> StampedPose in
            let t = Double(k) / 100
            return StampedPose(time: t, timestamp: Timestamp(nanoseconds: Int64(k) * 10_000_000),
                               pose: SE3(rotation: .exp(Vector3(0, 0, 0.3 * t)), translation: Vector3(2 * cos(0.3 * t), 2 * sin(0.3 * t), 1)))
        }
        let gt = Trajectory(poses: poses, name: "groundtruth")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-eval-\(UUID())")
        let imu = (0..<1000).map { AnyPacket(stream: "imu0", timestamp: Timestamp(nanoseconds: Int64($0) * 10_000_000),
                                             payload: IMUSample(gyroscope: .zero, accelerometer: Vector3(0, 0, 9.81))) }
        try ParallaxFolderWriter.write(imu, groundTruth: gt, to: folder.path)
        return (folder, gt)
    }

    @Test func trajectoryEvaluationMeasuresAPoseStreamAfterAlignment() throws {
        let (folder, gt) = try groundTruthFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The estimate: the truth in another world frame (yaw 1 rad, shifted), exact at its first
        // pose and then with a ±1 cm error along the estimator's world y, initializing for the
        // first second. Its covariance says
        // σ = 1 cm along y and 10 cm along x and z: the NEES is ≈ 1 only if the error is judged in
        // the estimator's frame (in the reference's frame, rotated by 1 rad, it would be ≈ 0.3).
        let world = SE3(rotation: .exp(Vector3(0, 0, 1)), translation: Vector3(5, -3, 0.2))
        let covariance = Matrix.diagonal([1e-2, 1e-4, 1e-2, 1e-4, 1e-4, 1e-4])
        var outputs: [AnyPacket] = []
        for (k, p) in gt.poses.enumerated() where k % 5 == 0 {
            let state: TrackingState = k < 100 ? .limited(.initializing) : .normal
            let error = k == 100 ? 0 : k % 10 == 0 ? 0.01 : -0.01
            let wrong = SE3(translation: Vector3(0, error, 0)) * world * p.pose
            outputs.append(AnyPacket(stream: "vio/pose", timestamp: p.timestamp, payload: Pose(worldFromBody: wrong, covariance: covariance, trackingState: state)))
        }
        let input = EvaluationInput(outputs: outputs, metadata: [:], dataset: try DatasetFolder.open(folder.path), datasetPath: folder.path)
        let result = try EvaluationRegistry.standard.make("trajectory").evaluate(input)
        #expect(abs(result.statistics.rmse - 0.01) < 1e-3, "APE \(result.statistics.rmse)")
        #expect(abs((result.metrics["ape_se3_rmse_m"] ?? 0) - 0.01) < 1e-3)
        #expect(result.metrics["poses"] == 180)              // the initializing ones are not scored
        #expect(result.metrics["first_pose_s"] == 1.0)
        // 1 cm errors with a 1 cm σ along them: NEES ≈ 1.
        #expect(abs((result.metrics["nees_position_mean"] ?? 0) - 1) < 0.1)
        // The pictures: the path from above (truth and estimate, start and end marked), each
        // axis of the position and the attitude against time, truth and estimate.
        let plots = try #require(result.plots)
        #expect(plots.keys.sorted() == ["attitude", "path", "position"])
        let path = try #require(plots["path"])
        #expect(path.components(separatedBy: "<polyline").count - 1 == 2 && path.components(separatedBy: "<circle").count - 1 == 2)
        #expect(path.contains(">start</text>") && path.contains(">end</text>") && path.contains(">ground truth</text>"))
        for name in ["position", "attitude"] {
            #expect(plots[name].map { $0.components(separatedBy: "<polyline").count - 1 } == 6, "\(name)")
            #expect(plots[name].map { !$0.lowercased().contains("nan") } == true)
        }
    }

    /// A truth that covers part of the run is scored where it exists, and the note says how much:
    /// the stamps are the dataset's own, so no unit can be mistaken (``TrajectoryEvaluation``'s
    /// overlap rule is for two files given to `eval`).
    @Test func aTruthCoveringPartOfTheRunIsScoredWhereItExists() throws {
        let (folder, gt) = try groundTruthFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var outputs: [AnyPacket] = []
        let last = gt.poses.last.map { $0.time } ?? 0
        for (k, p) in gt.poses.enumerated() where k % 5 == 0 {
            outputs.append(AnyPacket(stream: "vio/pose", timestamp: p.timestamp, payload: Pose(worldFromBody: p.pose, trackingState: .normal)))
        }
        // Poses for twice as long as the truth lasts: the later half has none.
        for k in 1...outputs.count {
            let t = Timestamp(seconds: last + Double(k) * 0.05)
            outputs.append(AnyPacket(stream: "vio/pose", timestamp: t, payload: Pose(worldFromBody: SE3(), trackingState: .normal)))
        }
        let input = EvaluationInput(outputs: outputs, metadata: [:], dataset: try DatasetFolder.open(folder.path), datasetPath: folder.path)
        let result = try EvaluationRegistry.standard.make("trajectory").evaluate(input)
        #expect(result.statistics.rmse < 1e-9)
        let half = outputs.count / 2
        #expect(result.note?.contains("truth for \(half) of \(outputs.count) poses") == true, "\(result.note ?? "")")
    }

    /// A run too short for the RPE's 10 frames (a 3 s clip that starts late: 10 poses) is still
    /// scored, its RPE over the poses it has (said as RPE(9)); it used to fail the whole case.
    @Test func aRunShorterThanTheRPEsFramesIsScoredOverWhatItHas() throws {
        let (folder, gt) = try groundTruthFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputs = gt.poses.enumerated().filter { $0.offset % 5 == 0 }.prefix(10).map { _, p in
            AnyPacket(stream: "vio/pose", timestamp: p.timestamp, payload: Pose(worldFromBody: p.pose, trackingState: .normal))
        }
        let input = EvaluationInput(outputs: Array(outputs), metadata: [:], dataset: try DatasetFolder.open(folder.path), datasetPath: folder.path)
        let result = try EvaluationRegistry.standard.make("trajectory").evaluate(input)
        #expect(result.metrics["poses"] == 10 && result.statistics.rmse < 1e-9)
        #expect(result.metrics["rpe9_translation_rmse_m"].map { $0 < 1e-9 } == true && result.metrics["rpe10_translation_rmse_m"] == nil)
        #expect(result.note?.contains("RPE(9)") == true, "\(result.note ?? "")")
    }

    /// A truth that covers only 4 of the poses (it ends as the run goes on): the RPE is taken
    /// over what the truth covers (it failed the case: "no RPE pair … 10 frames apart"), and a
    /// NEES that cannot be had — the estimator's gauge pose (its smallest covariance) lies past
    /// the truth — is said to be missing rather than silently left out.
    @Test func aTruthCoveringFewPosesIsScoredOverThemAndAMissingNEESIsSaid() throws {
        let (folder, gt) = try groundTruthFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var outputs: [AnyPacket] = []
        let times = [9.75, 9.8, 9.85, 9.9] + (0..<40).map { 10.5 + 0.05 * Double($0) }
        for (k, t) in times.enumerated() {
            let pose = gt.pose(at: Timestamp(nanoseconds: Int64((min(t, 9.9) * 1e9).rounded())), maxGap: 20_000_000) ?? SE3()
            // Smallest at 12 s, beyond the truth: the gauge.
            let sigma = abs(t - 12) < 1e-9 ? 1e-6 : 1e-4 * Double(k + 1)
            outputs.append(AnyPacket(stream: "vio/pose", timestamp: Timestamp(nanoseconds: Int64((t * 1e9).rounded())),
                                     payload: Pose(worldFromBody: pose, covariance: Matrix.diagonal([sigma, sigma, sigma, 1e-4, 1e-4, 1e-4]), trackingState: .normal)))
        }
        let input = EvaluationInput(outputs: outputs, metadata: [:], dataset: try DatasetFolder.open(folder.path), datasetPath: folder.path)
        let result = try EvaluationRegistry.standard.make("trajectory").evaluate(input)
        #expect(result.metrics["pairs"] == 4 && result.statistics.rmse < 1e-9)
        #expect(result.metrics["rpe3_translation_rmse_m"].map { $0 < 1e-9 } == true, "\(result.metrics)")
        #expect(result.metrics["nees_position_mean"] == nil)
        #expect(result.note?.contains("no position NEES (the truth does not cover the pose where the estimator fixed its position and yaw)") == true, "\(result.note ?? "")")
    }

    /// A stretch on a straight line (or standing still) leaves an SE3 alignment's rotation about
    /// the line free: that stretch is SE3-scored by its position+yaw alignment, said so, rather
    /// than the whole case failing ("points are collinear"), as a run still for 6 s did.
    @Test func aStretchOnALineIsScoredByItsPositionAndYaw() throws {
        let (folder, gt) = try groundTruthFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var outputs: [AnyPacket] = []
        for (k, p) in gt.poses.enumerated() where k % 5 == 0 {
            let state: TrackingState = k == 500 ? .notAvailable : .normal
            let pose = k < 500 ? SE3(rotation: p.pose.rotation, translation: Vector3(0.001 * Double(k), 0, 0)) : p.pose
            outputs.append(AnyPacket(stream: "vio/pose", timestamp: p.timestamp, payload: Pose(worldFromBody: pose, trackingState: state)))
        }
        let input = EvaluationInput(outputs: outputs, metadata: [:], dataset: try DatasetFolder.open(folder.path), datasetPath: folder.path)
        let result = try EvaluationRegistry.standard.make("trajectory").evaluate(input)
        #expect(result.metrics["stretches"] == 2 && result.metrics["poses"] == 199)
        #expect(result.note?.contains("1 stretch(es) on a line or standing still, where an SE3 alignment is undetermined") == true, "\(result.note ?? "")")
        // The line's stretch is metres off the circle; the SE3 figure is the position+yaw one's
        // there; the rotation is the moving stretch's (exact).
        #expect(result.metrics["ape_rotation_se3_rmse_deg"].map { $0 < 1e-6 } == true, "\(result.metrics)")
        #expect((result.metrics["ape_se3_rmse_m"] ?? 0) > 0.1)
    }

    /// A reset (a pose `notAvailable`) starts a new frame: each stretch is aligned on its own and
    /// the errors pooled, and the note says where the estimator started again. Scored as one
    /// trajectory, the second stretch's other world frame would be metres of error.
    @Test func stretchesBetweenResetsAreAlignedEachOnItsOwn() throws {
        let (folder, gt) = try groundTruthFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = SE3(rotation: .exp(Vector3(0, 0, 1)), translation: Vector3(5, -3, 0.2))
        let second = SE3(rotation: .exp(Vector3(0, 0, -2)), translation: Vector3(-1, 4, 0))
        var outputs: [AnyPacket] = []
        for (k, p) in gt.poses.enumerated() where k % 5 == 0 {
            let state: TrackingState = k == 500 ? .notAvailable : (505..<600).contains(k) ? .limited(.initializing) : .normal
            let error = k % 10 == 0 ? 0.01 : -0.01
            let world = k < 500 ? first : second
            outputs.append(AnyPacket(stream: "vio/pose", timestamp: p.timestamp,
                                     payload: Pose(worldFromBody: SE3(translation: Vector3(0, 0, error)) * world * p.pose, trackingState: state)))
        }
        let input = EvaluationInput(outputs: outputs, metadata: [:], dataset: try DatasetFolder.open(folder.path), datasetPath: folder.path)
        let result = try EvaluationRegistry.standard.make("trajectory").evaluate(input)
        #expect(abs(result.statistics.rmse - 0.01) < 1e-3, "APE \(result.statistics.rmse)")
        #expect(abs((result.metrics["ape_se3_rmse_m"] ?? 0) - 0.01) < 1e-3)
        #expect(result.metrics["stretches"] == 2 && result.metrics["poses"] == 180)
        #expect(result.note?.contains("2 stretches: the estimator started again in a new frame at 6.00 s") == true, "\(result.note ?? "")")
        #expect(result.series?.count == 180)
        #expect(result.caution == "the estimator started again in a new frame 1 time(s); 2 stretch(es) long enough to align, each on its own")
        // Scored as one trajectory it would not be centimetres.
        var one = outputs
        one.removeAll { ($0.payload as? Pose)?.trackingState == .notAvailable }
        let merged = try EvaluationRegistry.standard.make("trajectory").evaluate(
            EvaluationInput(outputs: one, metadata: [:], dataset: try DatasetFolder.open(folder.path), datasetPath: folder.path))
        #expect(merged.statistics.rmse > 1)
    }

    /// Figures over a small part of the run describe that part: the note says so first.
    @Test func aFewTrackedFramesAreSaidFirst() throws {
        let (folder, gt) = try groundTruthFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var outputs: [AnyPacket] = []
        for (k, p) in gt.poses.enumerated() where k % 5 == 0 {
            let state: TrackingState = k < 800 ? .limited(.initializing) : .normal
            outputs.append(AnyPacket(stream: "vio/pose", timestamp: p.timestamp, payload: Pose(worldFromBody: p.pose, trackingState: state)))
        }
        let input = EvaluationInput(outputs: outputs, metadata: [:], dataset: try DatasetFolder.open(folder.path), datasetPath: folder.path)
        let result = try EvaluationRegistry.standard.make("trajectory").evaluate(input)
        #expect(result.note?.hasPrefix("only 40 of 200 frames tracked (20 %): ") == true, "\(result.note ?? "")")
        #expect(result.metrics["tracked_fraction"] == 0.2)
        #expect(result.caution == "only 40 of 200 frames tracked (20 %)")
    }

    @Test func theNEESJudgesTheDriftSinceTheFirstPose() throws {
        let (folder, gt) = try groundTruthFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The estimate drifts along x from an exact start, 1 cm per second, in another world frame,
        // and its σ along x grows with the drift: it is consistent, NEES ≈ 1 (0 at the start). A
        // whole-trajectory alignment would split the 10 cm drift, leaving the start 5 cm off where
        // the filter claims to know its position to 10 µm.
        let world = SE3(rotation: .exp(Vector3(0, 0, -2)), translation: Vector3(1, 2, 3))
        var outputs: [AnyPacket] = []
        for (k, p) in gt.poses.enumerated() where k % 5 == 0 {
            let drift = 0.01 * Double(k) / 100
            let covariance = Matrix.diagonal([drift * drift + 1e-10, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4])
            let estimate = SE3(translation: Vector3(drift, 0, 0)) * world * p.pose
            outputs.append(AnyPacket(stream: "vio/pose", timestamp: p.timestamp, payload: Pose(worldFromBody: estimate, covariance: covariance, trackingState: .normal)))
        }
        let input = EvaluationInput(outputs: outputs, metadata: [:], dataset: try DatasetFolder.open(folder.path), datasetPath: folder.path)
        let result = try EvaluationRegistry.standard.make("trajectory").evaluate(input)
        let nees = try #require(result.metrics["nees_position_mean"])
        #expect(abs(nees - 0.995) < 0.01, "NEES \(nees)")
    }

    /// An estimator whose gauge lies after its first poses (`vio` reading the poses of a camera
    /// stamping early among the clones before its start): the drift is judged from the pose with
    /// the smallest covariance. Here the first poses are off by 3 cm along x with σ 3 cm, and
    /// the later ones drift as their σ grows: NEES ≈ 1; anchored at the first pose (its 3 cm
    /// error carried into every later one, against σ from 10 µm) it would be in the millions.
    @Test func theNEESIsJudgedFromTheEstimatorsGauge() throws {
        let (folder, gt) = try groundTruthFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let world = SE3(rotation: .exp(Vector3(0, 0, 0.7)), translation: Vector3(-1, 0.5, 2))
        var outputs: [AnyPacket] = []
        for (k, p) in gt.poses.enumerated() where k % 5 == 0 {
            let error = k < 100 ? 0.03 : 0.01 * Double(k - 100) / 100
            let sigma = k < 100 ? 0.03 : error
            let covariance = Matrix.diagonal([sigma * sigma + 1e-10, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4])
            let estimate = SE3(translation: Vector3(error, 0, 0)) * world * p.pose
            outputs.append(AnyPacket(stream: "vio/pose", timestamp: p.timestamp, payload: Pose(worldFromBody: estimate, covariance: covariance, trackingState: .normal)))
        }
        let input = EvaluationInput(outputs: outputs, metadata: [:], dataset: try DatasetFolder.open(folder.path), datasetPath: folder.path)
        let nees = try #require(try EvaluationRegistry.standard.make("trajectory").evaluate(input).metrics["nees_position_mean"])
        #expect(abs(nees - 0.995) < 0.01, "NEES \(nees)")
    }

    @Test func evaluationsSayWhatTheyNeed() throws {
        let tum = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("datasets/tum_rgbd_frame").path
        let input = EvaluationInput(outputs: [], metadata: [:], dataset: try DatasetFolder.open(tum), datasetPath: tum)
        #expect(throws: EvaluationError.needs(evaluation: "trajectory", what: "ground truth, and this dataset has none")) {
            _ = try EvaluationRegistry.standard.make("trajectory").evaluate(input)
        }
        #expect(throws: EvaluationError.unknown(name: "trajectroy", suggestion: "trajectory", known: EvaluationRegistry.standard.names)) {
            _ = try EvaluationRegistry.standard.make("trajectroy")
        }
    }
}

/// No empty success: an evaluation that compared nothing fails with its reason, in every
/// evaluation, and is never a result of rmse 0 over n = 0.
extension EvaluationTests {
    @Test func gyroRotationWithNoRotationToCompareFails() throws {
        let (folder, gt) = try groundTruthFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dataset = try DatasetFolder.open(folder.path)
        let none = EvaluationInput(outputs: [], metadata: [:], dataset: dataset, datasetPath: folder.path)
        #expect(throws: EvaluationError.nothingToEvaluate(evaluation: "gyro-rotation", reason: "no frame rotation in the outputs (run imu-integrator)")) {
            _ = try GyroRotationEvaluation().evaluate(none)
        }
        // Rotations after the ground truth ends compare nothing either.
        let late = AnyPacket(stream: "imu-integrator", timestamp: Timestamp(seconds: (gt.poses.last?.time ?? 0) + 5),
                             payload: FrameRotation(rotationVector: Vector3(0, 0, 0.01), angle: 0.01, samples: 5, interval: 0.05))
        let outside = EvaluationInput(outputs: [late], metadata: [:], dataset: dataset, datasetPath: folder.path)
        #expect { _ = try EvaluationRegistry.standard.evaluate("gyro-rotation", outside) } throws: { error in
            guard case let .nothingToEvaluate(evaluation, reason)? = error as? EvaluationError else { return false }
            return evaluation == "gyro-rotation" && reason.contains("1 frame rotation")
        }
        // One inside is a result.
        let inside = AnyPacket(stream: "imu-integrator", timestamp: Timestamp(seconds: 1),
                               payload: FrameRotation(rotationVector: Vector3(0, 0, 0.015), angle: 0.015, samples: 5, interval: 0.05))
        let result = try EvaluationRegistry.standard.evaluate("gyro-rotation", EvaluationInput(outputs: [inside], metadata: [:], dataset: dataset, datasetPath: folder.path))
        #expect(result.statistics.count == 1)
    }

    /// Every registered evaluation, over a run with no outputs on a dataset that has ground truth
    /// and a (simulated, empty) scene: each one fails; none returns a result.
    @Test(arguments: EvaluationRegistry.standard.names)
    func everyEvaluationOfNothingFails(_ name: String) throws {
        let (folder, _) = try groundTruthFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = EvaluationInput(outputs: [], metadata: [:], dataset: try DatasetFolder.open(folder.path), datasetPath: folder.path,
                                    scene: TexturedScene(rectangles: []))
        #expect(throws: (any Error).self, "\(name) returned a result for a run with no outputs") {
            _ = try EvaluationRegistry.standard.make(name).evaluate(input)
        }
        #expect(throws: (any Error).self) { _ = try EvaluationRegistry.standard.evaluate(name, input) }
    }

    /// Whatever an evaluation returns, the registry refuses a result with no compared value.
    @Test func theRegistryRefusesAnEmptyResultOfAnyEvaluation() throws {
        struct Empty: Evaluation {
            static let name = "empty"
            static let summary = "compares nothing"
            func evaluate(_ input: EvaluationInput) throws -> EvaluationResult {
                var r = EvaluationResult(metric: "nothing", statistics: ErrorStatistics([]))
                r.note = "no pairs"
                return r
            }
        }
        var registry = EvaluationRegistry()
        registry.register(Empty.self)
        let (folder, _) = try groundTruthFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = EvaluationInput(outputs: [], metadata: [:], dataset: try DatasetFolder.open(folder.path), datasetPath: folder.path)
        #expect(throws: EvaluationError.nothingToEvaluate(evaluation: "empty", reason: "nothing was compared (no pairs)")) {
            _ = try registry.evaluate("empty", input)
        }
    }
}
