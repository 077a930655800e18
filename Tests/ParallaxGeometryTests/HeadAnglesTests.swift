import Foundation
import Testing
import ParallaxGeometry
import ParallaxMath

@Suite struct HeadAnglesTests {
    @Test func anglesRoundTripThroughTheRotation() {
        for (p, y, r) in [(0.0, 0.0, 0.0), (10.0, -35.0, 5.0), (-40.0, 70.0, -20.0), (25.0, 89.0, 0.0), (5.0, -60.0, 170.0)] {
            let angles = HeadAngles(pitch: p, yaw: y, roll: r)
            let back = HeadAngles(cameraFromHead: angles.cameraFromHead)
            #expect(abs(back.pitch - p) < 1e-9 && abs(back.yaw - y) < 1e-9 && abs(back.roll - r) < 1e-9, "\(p) \(y) \(r) → \(back)")
        }
    }

    /// The signs as documented: zero faces the camera upright; yaw > 0 turns the face toward the
    /// image's left, pitch > 0 up, roll > 0 tilts the head's top toward the image's right.
    @Test func signsMeanWhatTheDocumentationSays() {
        let frontal = HeadAngles(pitch: 0, yaw: 0, roll: 0).cameraFromHead
        #expect(((frontal * Vector3(0, 0, 1)) - Vector3(0, 0, -1)).norm < 1e-12)  // face normal toward the camera
        #expect(((frontal * Vector3(0, 1, 0)) - Vector3(0, -1, 0)).norm < 1e-12)  // head up is image up (−y)
        let yawed = HeadAngles(pitch: 0, yaw: 30, roll: 0).cameraFromHead * Vector3(0, 0, 1)
        #expect(yawed.x < -0.4)  // camera x < 0: the image's left
        let pitched = HeadAngles(pitch: 30, yaw: 0, roll: 0).cameraFromHead * Vector3(0, 0, 1)
        #expect(pitched.y < -0.4)  // camera y < 0: up in the image
        let rolled = HeadAngles(pitch: 0, yaw: 0, roll: 30).cameraFromHead * Vector3(0, 1, 0)
        #expect(rolled.x > 0.4)  // the head's top toward the image's right
    }

    @Test func gimbalLockGivesTheRotationBack() {
        let r = HeadAngles(pitch: 20, yaw: 90, roll: 0).cameraFromHead
        let back = HeadAngles(cameraFromHead: r)
        #expect((back.cameraFromHead.inverse * r).angle < 1e-6)
        #expect(back.roll == 0)
    }

    @Test func differencesWrapAround() {
        #expect(HeadAngles.difference(179, -179) == -2)
        #expect(HeadAngles.difference(-170, 170) == 20)
        #expect(HeadAngles.difference(10, 5) == 5)
        #expect(HeadAngles.difference(540, 0) == 180)
    }
}
