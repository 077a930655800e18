import Testing
import ParallaxGeometry
import ParallaxMath

@Suite struct StereoRectificationTests {
    /// EuRoC's cam0/cam1 (radial-tangential lenses, 11 cm apart, axes ≈ 0.1° apart).
    static let left = CameraModel(width: 752, height: 480, intrinsics: PinholeIntrinsics(fx: 458.654, fy: 457.296, cx: 367.215, cy: 248.375),
                                  distortion: .radialTangential(k1: -0.28340811, k2: 0.07395907, p1: 0.00019359, p2: 1.76187114e-05))
    static let right = CameraModel(width: 752, height: 480, intrinsics: PinholeIntrinsics(fx: 457.587, fy: 456.134, cx: 379.999, cy: 255.238),
                                   distortion: .radialTangential(k1: -0.28368365, k2: 0.07451284, p1: -0.00010473, p2: -3.55590700e-05))
    static let rightFromLeft = SE3(rotation: SO3.exp(Vector3(0.0023, -0.0012, 0.0009)), translation: Vector3(-0.110, 0.0004, -0.0009))

    /// Points in front of the pair land on one row of both rectified images, at a column
    /// difference of f·B/Z.
    @Test func pointsLandOnOneRowAtTheirDisparity() throws {
        let r = try StereoRectification(left: Self.left, right: Self.right, rightFromLeft: Self.rightFromLeft)
        #expect(abs(r.baseline - Self.rightFromLeft.translation.norm) < 1e-12)
        var worst = 0.0
        for (x, y, z) in [(0.0, 0.0, 2.0), (-0.8, 0.4, 3.0), (0.9, -0.5, 1.5), (0.3, 0.6, 8.0)] {
            let pLeft = Vector3(x, y, z)
            // The same point in each rectified frame and its rectified pixels.
            let a = try #require(r.rectified.project(r.leftRotation * pLeft))
            let b = try #require(r.rectified.project(r.rightRotation * (Self.rightFromLeft * pLeft)))
            worst = max(worst, abs(a.y - b.y))
            let depth = (r.leftRotation * pLeft).z
            #expect(abs((a.x - b.x) - r.focalLength * r.baseline / depth) < 1e-6)
            // Sampling the originals at the rectified pixels finds the point's original pixels.
            let seenLeft = try #require(r.sourcePixel(camera: .left, rectified: a))
            let original = try #require(Self.left.project(pLeft))
            #expect((seenLeft - original).norm < 1e-6)
        }
        #expect(worst < 1e-9)
    }

    @Test func anIdealPairIsRecognizedAndKeptAsItIs() throws {
        let model = CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 500, fy: 500, cx: 319.5, cy: 239.5))
        let shift = SE3(rotation: .identity, translation: Vector3(-0.2, 0, 0))
        #expect(StereoRectification.isRectified(left: model, right: model, rightFromLeft: shift))
        #expect(!StereoRectification.isRectified(left: Self.left, right: Self.right, rightFromLeft: Self.rightFromLeft))
        let r = try StereoRectification(left: model, right: model, rightFromLeft: shift)
        #expect(r.leftRotation.log.norm < 1e-12 && r.rightRotation.log.norm < 1e-12)
        #expect(r.rectified.intrinsics == model.intrinsics)
        let p = try #require(r.sourcePixel(camera: .right, rectified: Vector2(100.25, 200.5)))
        #expect((p - Vector2(100.25, 200.5)).norm < 1e-9)
    }

    @Test func aPairWithoutBaselineOrOfTwoSizesIsAClearError() {
        let model = CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 500, fy: 500, cx: 319.5, cy: 239.5))
        #expect(throws: StereoRectification.RectificationError.noBaseline(0)) {
            try StereoRectification(left: model, right: model, rightFromLeft: .identity)
        }
        var small = model
        small.width = 320
        #expect(throws: StereoRectification.RectificationError.differentSizes(left: "640×480", right: "320×480")) {
            try StereoRectification(left: model, right: small, rightFromLeft: SE3(rotation: .identity, translation: Vector3(-0.1, 0, 0)))
        }
        #expect("\(StereoRectification.RectificationError.noBaseline(0))".contains("no baseline"))
    }
}
