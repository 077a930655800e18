import Foundation
import Testing
import ParallaxFace
import ParallaxGeometry
import ParallaxMath

@Suite struct EyeGazeTests {
    /// Eyes turned toward a target: the iris centres where they would be seen give both lines of
    /// sight and the target back.
    @Test func irisPixelsGiveTheLinesOfSightAndTheTarget() throws {
        let model = FaceModel.mediapipe478
        let head = FaceFixtures.pose(HeadAngles(pitch: 5, yaw: -20, roll: 3))
        let centers = model.eyeballCenters
        for target in [Vector3(0.05, 0.02, 0.5), Vector3(-0.1, -0.05, 0.35), Vector3(0.0, 0.0, 0.8)] {  // head frame, in front
            func iris(_ c: Vector3) -> Vector2? {
                let onSphere = c + CanonicalFace.eyeballRadius * (target - c).normalized
                return FaceFixtures.camera.project(head * onSphere)
            }
            let right = try #require(iris(centers.right)), left = try #require(iris(centers.left))
            let eyes = try EyeGaze.eyes(cameraFromHead: head, rightIris: right, leftIris: left, centers: centers, camera: FaceFixtures.camera)
            #expect(eyes.converging)
            #expect((eyes.lookAtPoint - target).norm < 1e-6, "\(target) → \(eyes.lookAtPoint)")
            #expect(((eyes.right.rotation * Vector3(0, 0, 1)) - (target - centers.right).normalized).norm < 1e-8)
            #expect(eyes.left.translation == centers.left)
        }
    }

    /// Parallel lines of sight (looking far away) do not meet: the look-at point is 2 m ahead.
    @Test func parallelSightLinesLookFarAhead() throws {
        let model = FaceModel.mediapipe478
        let head = FaceFixtures.pose(HeadAngles(pitch: 0, yaw: 0, roll: 0))
        let c = model.eyeballCenters
        let ahead = Vector3(0, 0, CanonicalFace.eyeballRadius)
        let right = try #require(FaceFixtures.camera.project(head * (c.right + ahead))), left = try #require(FaceFixtures.camera.project(head * (c.left + ahead)))
        let eyes = try EyeGaze.eyes(cameraFromHead: head, rightIris: right, leftIris: left, centers: c, camera: FaceFixtures.camera)
        #expect(!eyes.converging)
        #expect(abs(eyes.lookAtPoint.z - ((c.right.z + c.left.z) / 2 + EyeGaze.farPoint)) < 1e-6)
    }
}
