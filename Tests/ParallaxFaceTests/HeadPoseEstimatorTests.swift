import Foundation
import Testing
import ParallaxFace
import ParallaxGeometry
import ParallaxMath

@Suite struct HeadPoseEstimatorTests {
    /// Exact landmarks give the exact pose, for every scheme, yaw 0–80° either way.
    @Test func exactLandmarksGiveTheExactPose() throws {
        for model in [FaceModel.ibug68, .mediapipe468, .mediapipe478] {
            let estimator = HeadPoseEstimator(model: model)
            for yaw in stride(from: -80.0, through: 80, by: 20) {
                let truth = FaceFixtures.pose(HeadAngles(pitch: 10, yaw: yaw, roll: -5))
                let fit = try estimator.fit(pixels: FaceFixtures.pixels(model, truth), camera: FaceFixtures.camera)
                #expect(FaceFixtures.degrees(fit.cameraFromHead.rotation, truth.rotation) < 1e-5, "\(model.points.count) points, yaw \(yaw)")
                #expect((fit.cameraFromHead.translation - truth.translation).norm < 1e-7)
                #expect(fit.confidence > 0.999)
            }
        }
    }

    /// A turned face as a detector sees it: the landmarks the head hides sit on the visible
    /// outline (the extreme of the canonical mesh's visible vertices at their height, on their
    /// side), not where they are. Weighing them down (``HeadPoseEstimator/hiddenSide``) keeps
    /// the pose where the visible landmarks put it; fitting them as they are pulls it frontal.
    @Test func hiddenLandmarksOnTheOutlineStopPullingThePose() throws {
        var withHidden = HeadPoseEstimator(model: .ibug68)
        withHidden.hiddenSide = true
        var without = withHidden
        without.hiddenSide = false
        var errors: [(yaw: Double, with: Double, without: Double, hidden: Int)] = []
        for yaw in [-75.0, -60, -45, 45, 60, 75] {
            let truth = FaceFixtures.pose(HeadAngles(pitch: 5, yaw: yaw, roll: -3))
            let pixels = try FaceFixtures.outlinePixels(.ibug68, truth)
            let a = try withHidden.fit(pixels: pixels, camera: FaceFixtures.camera)
            let b = try without.fit(pixels: pixels, camera: FaceFixtures.camera)
            errors.append((yaw, FaceFixtures.degrees(a.cameraFromHead.rotation, truth.rotation), FaceFixtures.degrees(b.cameraFromHead.rotation, truth.rotation), a.hidden.count))
        }
        let summary = errors.map { String(format: "yaw %.0f: %.2f° vs %.2f° (%d hidden)", $0.yaw, $0.with, $0.without, $0.hidden) }.joined(separator: "; ")
        #expect(errors.allSatisfy { $0.hidden > 0 }, "\(summary)")
        let meanWith = errors.map(\.with).reduce(0, +) / Double(errors.count), meanWithout = errors.map(\.without).reduce(0, +) / Double(errors.count)
        #expect(meanWith < 0.7 * meanWithout, "\(summary)")
        #expect(errors.allSatisfy { $0.with <= $0.without + 0.5 }, "\(summary)")
    }

    /// A frontal face hides at most the ends of its jaw line (at the ears, on the outline seen
    /// from 0.6 m), and exact landmarks keep their exact pose with the hidden side weighed down.
    @Test func aFrontalFaceHidesAtMostItsJawsEnds() throws {
        let estimator = HeadPoseEstimator(model: .ibug68)
        let truth = FaceFixtures.pose(HeadAngles(pitch: 0, yaw: 0, roll: 0))
        let fit = try estimator.fit(pixels: FaceFixtures.pixels(.ibug68, truth), camera: FaceFixtures.camera)
        #expect(Set(fit.hidden).isSubset(of: [0, 1, 15, 16]), "\(fit.hidden)")
        #expect(FaceFixtures.degrees(fit.cameraFromHead.rotation, truth.rotation) < 1e-5)
        let visibility = try #require(FaceModel.ibug68.visibility(cameraFromHead: truth))
        #expect(visibility[17...].allSatisfy { HeadPoseEstimator.hiddenWeight($0) == 1 }, "\(visibility)")
    }

    /// 2 px of noise on the 68 points: a few degrees at most, never the mirrored pose.
    @Test func noisyLandmarksStayClose() throws {
        let estimator = HeadPoseEstimator(model: .ibug68)
        var worst = 0.0
        for (k, yaw) in stride(from: -70.0, through: 70, by: 10).enumerated() {
            let truth = FaceFixtures.pose(HeadAngles(pitch: -15, yaw: yaw, roll: 8))
            let fit = try estimator.fit(pixels: FaceFixtures.pixels(.ibug68, truth, noise: 2, seed: UInt64(k + 1)), camera: FaceFixtures.camera)
            worst = max(worst, FaceFixtures.degrees(fit.cameraFromHead.rotation, truth.rotation))
        }
        #expect(worst < 6)
        #expect(worst > 0)  // noise did move it: the test measures something
    }

    /// Points not found (NaN) take no part; too few left is an error saying so.
    @Test func missingLandmarksTakeNoPart() throws {
        let estimator = HeadPoseEstimator(model: .ibug68)
        let truth = FaceFixtures.pose(HeadAngles(pitch: 0, yaw: 20, roll: 0))
        var pixels = FaceFixtures.pixels(.ibug68, truth)
        for i in 0..<17 { pixels[i] = Vector2(.nan, .nan) }  // no jaw line
        let fit = try estimator.fit(pixels: pixels, camera: FaceFixtures.camera)
        #expect(FaceFixtures.degrees(fit.cameraFromHead.rotation, truth.rotation) < 1e-5)
        for i in 17..<64 { pixels[i] = Vector2(.nan, .nan) }
        #expect(throws: HeadPoseEstimator.FitError.self) { _ = try estimator.fit(pixels: pixels, camera: FaceFixtures.camera) }
        #expect(throws: HeadPoseEstimator.FitError.wrongCount(expected: 68, got: 5)) { _ = try estimator.fit(pixels: Array(pixels.prefix(5)), camera: FaceFixtures.camera) }
    }

    @Test func collinearLandmarksGiveNoPose() {
        let estimator = HeadPoseEstimator(model: .ibug68)
        let line = (0..<68).map { Vector2(100 + Double($0) * 3, 200 + Double($0) * 1.5 + ($0 % 2 == 0 ? 0.5 : -0.5)) }
        #expect { _ = try estimator.fit(pixels: line, camera: FaceFixtures.camera) } throws: { "\($0)".contains("lie on a line") }
    }

    /// Jaw and lips moved away from the model (another person's face, a smile) pull the rigid fit
    /// less than the uniform one.
    @Test func rigidWeightsResistNonRigidLandmarks() throws {
        let truth = FaceFixtures.pose(HeadAngles(pitch: 5, yaw: 30, roll: 0))
        var pixels = FaceFixtures.pixels(.ibug68, truth, noise: 0.5)
        for i in Array(0...16) + Array(48...67) { pixels[i].y += 6 * sin(Double(i)) + 4 }  // a wider jaw, an open mouth
        var rigid = HeadPoseEstimator(model: .ibug68)
        var uniform = rigid
        uniform.weighting = .uniform
        rigid.weighting = .rigid
        let r = FaceFixtures.degrees(try rigid.fit(pixels: pixels, camera: FaceFixtures.camera).cameraFromHead.rotation, truth.rotation)
        let u = FaceFixtures.degrees(try uniform.fit(pixels: pixels, camera: FaceFixtures.camera).cameraFromHead.rotation, truth.rotation)
        #expect(r < u)
    }

    /// 3D landmarks (a depth camera's): the weighted Procrustes fit is exact on exact points.
    @Test func threeDimensionalLandmarksGiveThePoseByProcrustes() throws {
        let truth = FaceFixtures.pose(HeadAngles(pitch: -20, yaw: 45, roll: 10))
        let points = FaceModel.mediapipe478.points.map { truth * $0 }
        let fit = try HeadPoseEstimator(model: .mediapipe478).fit(points: points)
        #expect(FaceFixtures.degrees(fit.cameraFromHead.rotation, truth.rotation) < 1e-6)
        #expect((fit.cameraFromHead.translation - truth.translation).norm < 1e-9)
    }

    /// A face near the corner of a wide-angle image keeps its accuracy: the real intrinsics are
    /// used (a fixed virtual camera would skew it).
    @Test func offCentreFacesUnderAWideLens() throws {
        let wide = CameraModel(width: 1280, height: 720, intrinsics: PinholeIntrinsics(fx: 420, fy: 420, cx: 639.5, cy: 359.5))  // 113° horizontal
        let estimator = HeadPoseEstimator(model: .ibug68)
        for (x, y) in [(0.0, 0.0), (0.55, 0.25), (-0.6, -0.3)] {
            let truth = FaceFixtures.pose(HeadAngles(pitch: 0, yaw: 15, roll: 0), x: x, y: y, distance: 0.5)
            let fit = try estimator.fit(pixels: FaceFixtures.pixels(.ibug68, truth, camera: wide, noise: 0.5, seed: 4), camera: wide)
            #expect(FaceFixtures.degrees(fit.cameraFromHead.rotation, truth.rotation) < 2, "face at \(x), \(y) m")
        }
    }
}
