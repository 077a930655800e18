import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxDatasets
import ParallaxEval
import ParallaxGeometry
import ParallaxImage
import ParallaxMath

@Suite struct HeadPoseEvaluationTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/aflw2000_synthetic").path

    static func pose(id: UInt64, _ angles: HeadAngles) -> FacePose {
        let anchor = FaceAnchor(cameraFromHead: SE3(rotation: angles.cameraFromHead, translation: Vector3(0, 0, 0.6)), leftEye: .identity, rightEye: .identity, lookAtPoint: .zero)
        return FacePose(faceID: id, anchor: anchor, angles: angles, eyesMeasured: false, confidence: 1, scheme: .ibug68)
    }

    /// Faces found in pixels: the detection overlapping the true landmarks is scored by its
    /// landmarks and by the pose with its id in its own group (a pose of the same id on another
    /// stream does not count); a frame where none overlaps is not found, without a pose.
    @Test func detectedFacesAreMatchedToTheTruth() throws {
        let source = try DatasetFolder.open(Self.fixture)
        let truth = try #require((source as? any FaceTruthProviding)?.faceTruth["face0"])
        let first = try #require(truth.first), points = try #require(first.landmarks), angles = try #require(first.angles)
        let shifted = points.map { $0 + Vector2(1, 0) }  // 1 px off
        let box = BoundingBox.enclosing(points)
        let faces = DetectedFaces(imageWidth: 450, imageHeight: 450, faces: [
            DetectedFace(id: 1, box: BoundingBox(x: 0, y: 0, width: 30, height: 30), score: 1, landmarks: FaceLandmarks(points: points.map { $0 * 0.1 })),
            DetectedFace(id: 2, box: box, score: 1, landmarks: FaceLandmarks(points: shifted)),
        ])
        let wrong = HeadAngles(pitch: 40, yaw: 40, roll: 40)
        let outputs = [
            AnyPacket(stream: "cam0/faces", timestamp: first.timestamp, payload: faces),
            AnyPacket(stream: "cam0/pose", timestamp: first.timestamp, payload: FacePoses(faces: [Self.pose(id: 1, wrong), Self.pose(id: 2, angles)])),
            AnyPacket(stream: "face0/pose", timestamp: first.timestamp, payload: FacePoses(faces: [Self.pose(id: 2, wrong)])),
            AnyPacket(stream: "cam0/faces", timestamp: truth[1].timestamp, payload: DetectedFaces(imageWidth: 450, imageHeight: 450, faces: [])),
        ]
        let result = try HeadPoseEvaluation().evaluate(EvaluationInput(outputs: outputs, metadata: [:], dataset: source, datasetPath: Self.fixture))
        #expect(result.metrics["faces_found"] == 1 && result.metrics["frames"] == 2 && result.metrics["no_pose"] == 1)
        #expect(try #require(result.metrics["mae_deg"]) < 1e-9)
        let nme = try #require(result.metrics["landmark_nme_box"])
        #expect(abs(nme - 1 / (box.width * box.height).squareRoot()) < 1e-12)
    }

    /// The signed means keep the sign the absolute errors drop: +3° on one face and −1° on the
    /// other is a bias of +1° and an error of 2°.
    @Test func signedMeansShowABias() throws {
        let source = try DatasetFolder.open(Self.fixture)
        let truth = try #require((source as? any FaceTruthProviding)?.faceTruth["face0"])
        #expect(truth.count == 2)
        let outputs = try zip(truth, [3.0, -1.0]).map { t, offset in
            let a = try #require(t.angles)
            return AnyPacket(stream: "face0/pose", timestamp: t.timestamp,
                             payload: FacePoses(faces: [Self.pose(id: 0, HeadAngles(pitch: a.pitch + offset, yaw: a.yaw - offset, roll: a.roll))]))
        }
        let result = try HeadPoseEvaluation().evaluate(EvaluationInput(outputs: outputs, metadata: [:], dataset: source, datasetPath: Self.fixture))
        #expect(abs(try #require(result.metrics["bias_pitch_deg"]) - 1) < 1e-6)
        #expect(abs(try #require(result.metrics["bias_yaw_deg"]) + 1) < 1e-6)
        #expect(abs(try #require(result.metrics["bias_roll_deg"])) < 1e-6)
        #expect(abs(try #require(result.metrics["mae_pitch_deg"]) - 2) < 1e-6)
    }

    @Test func withoutFaceTruthItSaysWhatItNeeds() throws {
        let tum = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("datasets/tum_rgbd_frame").path
        let source = try DatasetFolder.open(tum)
        #expect { _ = try HeadPoseEvaluation().evaluate(EvaluationInput(outputs: [], metadata: [:], dataset: source, datasetPath: tum)) }
            throws: { "\($0)".contains("faces with true poses") }
    }
}
