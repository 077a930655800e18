import Foundation
import Testing
import Parallax
import ParallaxTesting

@Suite struct DepthRegisterAnalyzerTests {
    static let model = CameraModel(width: 80, height: 60, intrinsics: PinholeIntrinsics(fx: 60, fy: 60, cx: 39.5, cy: 29.5))

    /// The depth of the tilted plane z = 2 + 0.5 x seen by the depth camera.
    static func tiltedPlane() -> DepthMap {
        let rays = DepthRays(camera: model)
        let z = rays.rays.map { r -> Float in 2 / (1 - 0.5 * r.x) }
        return DepthMap(sensorID: "depth", kind: .depth, values: ImageBuffer(width: 80, height: 60, samples: z))
    }

    @Test func depthIsMovedIntoTheOtherCameraAndOnlyFramesNearADepthMapGetOne() throws {
        var options = DepthRegisterAnalyzer.Options()
        options.camera = "cam1"
        options.toleranceMs = 5
        var h = AnalyzerHarness { try DepthRegisterAnalyzer(options: options) }
        let depthKey = StreamKey<DepthMap>("depth"), camKey = StreamKey<CameraFrame>("cam1")
        h.describe(depthKey, as: StreamMetadata(depth: DepthSensor(kind: .depth, camera: CameraCalibration(model: Self.model))))
        // The colour camera 10 cm to the right of the depth camera on the body.
        h.describe(camKey, as: StreamMetadata(camera: CameraCalibration(model: Self.model, bodyFromSensor: SE3(translation: Vector3(0.1, 0, 0)))))
        let frame = CameraFrame(cameraID: "cam1", image: ImageBuffer(width: 80, height: 60, repeating: UInt8(100)))
        // Colour at 30 Hz, depth at 10 Hz.
        for k in 0..<9 { h.push(frame, on: camKey, at: Timestamp(nanoseconds: Int64(k) * 33_333_333)) }
        for k in 0..<3 { h.push(Self.tiltedPlane(), on: depthKey, at: Timestamp(nanoseconds: Int64(k) * 100_000_000)) }
        let result = try h.run()
        #expect(result.failure == nil)
        let registered = result.packets(on: "cam1/depth", as: DepthMap.self)
        #expect(registered.map(\.timestamp.nanoseconds) == [0, 99_999_999, 199_999_998])
        // In cam1 the plane is z = 2.05 + 0.5 x: along a pixel's ray (a, b, 1), z = 2.05 / (1 − 0.5 a).
        // A point lands on the nearest pixel, up to half a pixel from where it projects: the
        // depth there is right to half a pixel of the plane's slope (and 1 mm).
        let map = try #require(registered.first).payload
        var checked = 0
        for v in 5..<55 {
            for u in 5..<70 {
                let a = (Double(u) - 39.5) / 60, truth = 2.05 / (1 - 0.5 * a)
                let slope = 1.025 / ((1 - 0.5 * a) * (1 - 0.5 * a)) / 60  // m per pixel along u
                let z = Double(map.values[u, v])
                guard z.isFinite else { continue }
                #expect(abs(z - truth) <= 0.5 * slope + 0.001, "(\(u), \(v)): \(z) m, \(truth) m expected")
                checked += 1
            }
        }
        #expect(checked > 2500)
        // The right edge of cam1 sees what the depth camera did not: no depth there.
        #expect((0..<60).allSatisfy { map.values[79, $0].isNaN })
    }

    @Test func theNearestSurfaceWins() {
        let model = CameraModel(width: 3, height: 1, intrinsics: PinholeIntrinsics(fx: 10, fy: 10, cx: 1, cy: 0))
        let rays = DepthRays(camera: model)
        let out = DepthRegistration.register([1, 1, 3], rays: rays, into: model, targetFromSource: SE3(translation: Vector3(-0.1, 0, 0)))
        // 10 cm to the left a point moves u' = u − f·0.1/z px: pixel 0 at 1 m to −1 (outside),
        // pixel 1 at 1 m to 0, pixel 2 at 3 m by 0.33 px (stays on 2). Target: [1, nan, 3].
        #expect(out[0] == 1 && out[1].isNaN && out[2] == 3)
        // Two points on one pixel: pixel 0 at 4 m moves 0.25 px and pixel 2 at 0.5 m moves 2 px:
        // both land on pixel 0, and the nearer (0.5 m) is kept; pixel 1 at 100 m stays.
        let both = DepthRegistration.register([4, 100, 0.5], rays: rays, into: model, targetFromSource: SE3(translation: Vector3(-0.1, 0, 0)))
        #expect(both[0] == 0.5 && both[1] == 100 && both[2].isNaN)
        let same = DepthRegistration.register([2, 1, 2], rays: rays, into: model, targetFromSource: .identity)
        #expect(same == [2, 1, 2])
    }
}
