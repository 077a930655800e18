import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxTesting
@testable import FeatureTracking
import VisionTestSupport

/// `klt`'s window and pyramid follow the camera when the chain gives neither.
@Suite struct KLTTrackerCameraDefaultsTests {
    /// The window is 21 px at 752 px, scaled with the width; the pyramid follows a 2 rad/s turn
    /// at the camera's rate, its coarsest side at least 40 px. EuRoC's camera gets klt's defaults.
    @Test func windowAndLevelsFollowTheCamera() {
        typealias S = KLTTracker.Settings
        let euroc = S.cameraDefaults(width: 752, height: 480, focalLength: 458.654, rateHz: 20)
        #expect(euroc.window == 21 && euroc.levels == 3)  // 46 px per frame: 10 px · 2³ = 80 reaches it, 2² = 40 not
        #expect(euroc.window == KLTTracker.Settings().window && euroc.levels == KLTTracker.Settings().levels)
        #expect(euroc.origin.contains("752×480 px, f 459 px, 20 Hz: 46 px per frame"))
        let tum = S.cameraDefaults(width: 640, height: 480, focalLength: 525, rateHz: 30)
        #expect(tum.window == 19 && tum.levels == 2)  // 35 px per frame: 9 px · 2² = 36
        let kitti = S.cameraDefaults(width: 1242, height: 375, focalLength: 721.5, rateHz: 10)
        #expect(kitti.window == 31 && kitti.levels == 3)  // the motion asks 4, the 375 px side allows 3
        let fast = S.cameraDefaults(width: 752, height: 480, focalLength: 458.654, rateHz: 200)
        #expect(fast.levels == 1)  // 4.6 px per frame
        let small = S.cameraDefaults(width: 320, height: 240, focalLength: nil, rateHz: nil)
        #expect(small.window == 9 && small.levels == 2 && small.origin == "the image (320×240 px)")
        let tiny = S.cameraDefaults(width: 60, height: 40, focalLength: 50, rateHz: 1)
        #expect(tiny.window == 9 && tiny.levels == 0)
    }

    /// Through a chain: the defaults follow the camera and the run says so; given options win.
    @Test func aChainSaysWhatCameFromTheCamera() throws {
        var registry = AnalyzerRegistry()
        registry.register(KLTAnalyzer.self)
        func run(_ options: [String: String]) throws -> RunReport {
            var harness = AnalyzerHarness("klt", options: options, registry: registry)
            let model = CameraModel(width: 320, height: 240, intrinsics: PinholeIntrinsics(fx: 200, fy: 200, cx: 159.5, cy: 119.5))
            harness.describe(KLTAnalyzerTests.cam, as: StreamMetadata(camera: CameraCalibration(model: model, rateHz: 20)))
            for (k, f) in KLTAnalyzerTests.panning(2).enumerated() { harness.push(f, on: KLTAnalyzerTests.cam, at: Timestamp(nanoseconds: Int64(k) * 50_000_000)) }
            let result = try harness.run()
            #expect(result.failure == nil)
            return result.report
        }
        let derived = try run([:])
        #expect(derived.optionsFromData?.map { "\($0.option)=\($0.value)" } == ["window=9", "levels=2"])
        #expect(derived.notes.count == 2 && derived.notes.allSatisfy { $0.hasPrefix("klt: ") && $0.contains("from the camera (320×240 px, f 200 px, 20 Hz") })
        let given = try run(["window": "21"])
        #expect(given.optionsFromData?.map(\.option) == ["levels"])
        #expect(try run(["window": "21", "levels": "3"]).optionsFromData == nil)
    }
}
