import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxSim
import ParallaxTesting
@testable import FeatureTracking
@testable import ParallaxVision

@Suite struct StereoMatchingTests {
    /// A 64 × 64 random texture (seeded) smoothed by a 3 × 3 box, so its corners are well localized.
    static func smoothNoise(seed: UInt64) -> ImageBuffer<UInt8> {
        var rng = SeededGenerator(seed: seed)
        let noise = ImageBuffer<UInt8>(width: 64, height: 64, samples: (0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        var smooth = noise
        for y in 1..<63 { for x in 1..<63 {
            var s = 0
            for dy in -1...1 { for dx in -1...1 { s += Int(noise[x + dx, y + dy]) } }
            smooth[x, y] = UInt8(s / 9)
        } }
        return smooth
    }

    @Test func stereoMatchesLandOnTheTrueProjections() throws {
        // A textured room seen by a rectified-ish stereo pair: cam1 is 0.11 m to the right and
        // yawed by 1°, both pinhole 240×160.
        let model = CameraModel(width: 240, height: 160, intrinsics: PinholeIntrinsics(fx: 200, fy: 200, cx: 119.5, cy: 79.5))
        let bodyFromLeft = SE3(rotation: SO3(Matrix3(rows: Vector3(0, 0, 1), Vector3(-1, 0, 0), Vector3(0, -1, 0))), translation: .zero)
        let bodyFromRight = bodyFromLeft * SE3(rotation: .exp(Vector3(0, 0.0175, 0)), translation: Vector3(0.11, 0, 0))
        let left = CameraCalibration(model: model, bodyFromSensor: bodyFromLeft), right = CameraCalibration(model: model, bodyFromSensor: bodyFromRight)
        let scene = TexturedScene.room(min: Vector3(-3, -3, 0), max: Vector3(3, 3, 3), textures: [Self.smoothNoise(seed: 9)], tileSize: 0.5)
        let body = SE3(translation: Vector3(0, 0, 1.5))
        func render(_ cal: CameraCalibration) throws -> CameraFrame {
            let r = scene.render(camera: cal.model, bearings: try TexturedScene.bearings(for: cal.model), worldFromCamera: body * cal.bodyFromSensor)
            return CameraFrame(cameraID: "", image: r.image)
        }
        var options = KLTAnalyzer.Options()
        options.stereoCamera = "cam1"
        var harness = AnalyzerHarness { try KLTAnalyzer(options: options) }
        harness.describe(StreamKey<CameraFrame>("cam0"), as: StreamMetadata(camera: left))
        harness.describe(StreamKey<CameraFrame>("cam1"), as: StreamMetadata(camera: right))
        harness.push(try render(left), on: StreamKey<CameraFrame>("cam0"), at: Timestamp(nanoseconds: 0))
        harness.push(try render(right), on: StreamKey<CameraFrame>("cam1"), at: Timestamp(nanoseconds: 0))
        let tracks: [Packet<FeatureTracks>] = try harness.run().packets(on: "cam0/tracks")
        let features = try #require(tracks.first).payload.features
        let matched = features.filter { $0.stereoPixel != nil }
        #expect(matched.count > features.count / 2, "\(matched.count) of \(features.count) matched")
        var errors: [Double] = []
        for f in matched {
            // Ground truth: cast the left ray into the scene, project the hit into the right camera.
            let leftCamera = body * bodyFromLeft
            let ray = leftCamera.rotation * (try model.unproject(f.pixel))
            guard let hit = scene.intersect(origin: leftCamera.translation, direction: ray) else { continue }
            let point = leftCamera.translation + hit.t * ray
            guard let truth = model.project((body * bodyFromRight).inverse * point) else { continue }
            errors.append((f.stereoPixel! - truth).norm)
        }
        errors.sort()
        #expect(errors[errors.count / 2] < 0.2, "median stereo error \(errors[errors.count / 2]) px")
    }
}
