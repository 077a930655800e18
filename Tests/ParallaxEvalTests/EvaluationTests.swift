import Foundation
import Testing
import ParallaxCore
import ParallaxDatasets
import ParallaxMath
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
