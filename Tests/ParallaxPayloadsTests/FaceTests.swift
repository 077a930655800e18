import Foundation
import Testing
import ParallaxGeometry
import ParallaxMath
@testable import ParallaxPayloads

@Suite struct FaceTests {
    @Test func facePosesRoundTripThroughJSONAndLandmarksKnowTheirScheme() throws {
        let anchor = FaceAnchor(cameraFromHead: SE3(translation: Vector3(0, 0, 0.5)), leftEye: .identity, rightEye: .identity, lookAtPoint: Vector3(0, 0, 1))
        let faces = FacePoses(faces: [FacePose(faceID: 1, anchor: anchor, angles: HeadAngles(pitch: 1, yaw: -2, roll: 3), eyesMeasured: false, confidence: 0.8, trackingState: .normal, scheme: .ibug68)])
        #expect(try JSONDecoder().decode(FacePoses.self, from: JSONEncoder().encode(faces)) == faces)
        #expect(FaceLandmarks(points: Array(repeating: .zero, count: 68)).scheme == .ibug68)
        #expect(FaceLandmarks(points: Array(repeating: .zero, count: 478)).scheme == .mediapipe478)
        #expect(FaceLandmarks(points: [.zero]).scheme == .other)
    }
}
