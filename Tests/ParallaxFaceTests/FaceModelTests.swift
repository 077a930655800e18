import Foundation
import Testing
import ParallaxFace
import ParallaxGeometry
import ParallaxMath

@Suite struct FaceModelTests {
    /// The hidden landmarks found by sign alone are exactly those of visibility ≤ 0, for the
    /// 68- and 468-point models turned every way (yaw ±90°, pitch ±40°), at 0.15–0.6 m.
    @Test func hiddenLandmarksAreThoseOfVisibilityAtOrBelowZero() throws {
        for model in [FaceModel.ibug68, FaceModel.mediapipe468] {
            var seen = 0
            for yaw in stride(from: -90.0, through: 90, by: 15) {
                for pitch in [-40.0, 0, 40] {
                    for distance in [0.15, 0.6] {
                        let pose = SE3(rotation: HeadAngles(pitch: pitch, yaw: yaw, roll: 5).cameraFromHead, translation: Vector3(0.02, -0.01, distance))
                        let visibility = try #require(model.visibility(cameraFromHead: pose))
                        let hidden = try #require(model.hiddenLandmarks(cameraFromHead: pose))
                        #expect(hidden == visibility.indices.filter { visibility[$0] <= 0 }, "yaw \(yaw) pitch \(pitch)")
                        seen += hidden.count
                    }
                }
            }
            #expect(seen > 0)  // the turned poses hide some
        }
        var bare = FaceModel.ibug68
        bare.normals = []
        #expect(bare.hiddenLandmarks(cameraFromHead: SE3(rotation: .identity, translation: Vector3(0, 0, 0.5))) == nil)
    }
}
