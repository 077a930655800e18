import Foundation
import Testing
import ParallaxGeometry
import ParallaxMath
@testable import ParallaxPayloads
@Suite struct PayloadTests {
    @Test func pixelDisparityTurnsIntoDepthWithItsStereoGeometry() {
        // Middlebury Motorcycle: f = 3979.911 px, B = 193.001 mm, doffs = 124.343 px.
        var values = ImageBuffer<Float>(width: 2, height: 1, repeating: 200)
        values[1, 0] = .nan
        let map = DepthMap(sensorID: "disp0", kind: .pixelDisparity, values: values,
                           stereo: .init(focalLength: 3979.911, baseline: 0.193001, doffs: 124.343))
        #expect(abs(map.depth(x: 0, y: 0)! - 3979.911 * 0.193001 / 324.343) < 1e-12)
        #expect(map.depth(x: 1, y: 0) == nil)
        #expect(DepthMap(sensorID: "d", kind: .pixelDisparity, values: values).depth(x: 0, y: 0) == nil)  // no geometry: unknown
        #expect(abs(DepthMap(sensorID: "d", kind: .disparity, values: values).depth(x: 0, y: 0)! - 0.005) < 1e-12)
    }

    @Test func sharedPayloadsRoundTripThroughJSON() throws {
        let objects = TrackedObjects(imageWidth: 320, imageHeight: 240, objects: [
            TrackedObject(id: 3, box: BoundingBox(x: 1, y: 2, width: 3, height: 4), confidence: 0.75, state: .limited(.relocalizing))])
        #expect(try JSONDecoder().decode(TrackedObjects.self, from: JSONEncoder().encode(objects)) == objects)
        let anchor = FaceAnchor(cameraFromHead: SE3(translation: Vector3(0, 0, 0.5)), leftEye: .identity, rightEye: .identity, lookAtPoint: Vector3(0, 0, 1))
        let faces = FacePoses(faces: [FacePose(faceID: 1, anchor: anchor, angles: HeadAngles(pitch: 1, yaw: -2, roll: 3), eyesMeasured: false, confidence: 0.8, trackingState: .normal, scheme: .ibug68)])
        #expect(try JSONDecoder().decode(FacePoses.self, from: JSONEncoder().encode(faces)) == faces)
        #expect(FaceLandmarks(points: Array(repeating: .zero, count: 68)).scheme == .ibug68)
        #expect(FaceLandmarks(points: Array(repeating: .zero, count: 478)).scheme == .mediapipe478)
        #expect(FaceLandmarks(points: [.zero]).scheme == .other)
    }
}
