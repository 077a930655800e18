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
    /// klt's defaults (21 px, 3 levels) for every camera measured; a wider image gets a wider
    /// window, a camera moving further per frame a deeper pyramid while its coarsest side keeps
    /// 40 px.
    @Test func windowAndLevelsFollowTheCamera() {
        typealias S = KLTTracker.Settings
        let euroc = S.cameraDefaults(width: 752, height: 480, focalLength: 458.654, rateHz: 20)
        #expect(euroc.window == S().window && euroc.levels == S().levels)  // 46 px per frame: 10 px · 2³ = 80 reach it
        #expect(euroc.origin.contains("752×480 px, f 459 px, 20 Hz: 46 px per frame"))
        let halfEuRoC = S.cameraDefaults(width: 376, height: 240, focalLength: 229, rateHz: 20)
        #expect(halfEuRoC.window == 21 && halfEuRoC.levels == 3)
        let tum = S.cameraDefaults(width: 640, height: 480, focalLength: 525, rateHz: 30)
        #expect(tum.window == 21 && tum.levels == 3)
        let slow = S.cameraDefaults(width: 1280, height: 720, focalLength: 1000, rateHz: 10)
        #expect(slow.window == 21 && slow.levels == 4)  // 200 px per frame asks 5; a 720 px side allows 4
        let wide = S.cameraDefaults(width: 1920, height: 1080, focalLength: 1400, rateHz: 30)
        #expect(wide.window == 31 && wide.levels == 3)  // 93 px per frame: 15 px · 2³ = 120
        let fast = S.cameraDefaults(width: 752, height: 480, focalLength: 458.654, rateHz: 200)
        #expect(fast.levels == 3)  // never fewer than the default
        let unknown = S.cameraDefaults(width: 320, height: 240, focalLength: nil, rateHz: nil)
        #expect(unknown.window == 21 && unknown.levels == 3 && unknown.origin == "the image (320×240 px)")
        // A rate no camera records is not taken as the camera's.
        let absurd = S.cameraDefaults(width: 4000, height: 3000, focalLength: 3000, rateHz: 1e-6)
        #expect(absurd.levels == 3 && absurd.origin == "the image (4000×3000 px; rate_hz 1e-06 not taken: outside 0.1–1000 Hz)")
        // Images narrower than two windows: the window fits twice, the coarsest side keeps 8 px.
        let narrow = S.cameraDefaults(width: 16, height: 4000, focalLength: 100, rateHz: 20)
        #expect(narrow.window == 7 && narrow.levels == 1)
        let tiny = S.cameraDefaults(width: 8, height: 8, focalLength: nil, rateHz: nil)
        #expect(tiny.window == 3 && tiny.levels == 0)
    }

    /// Through a chain: a default the camera changes (a 1600 px wide image: a 27 px window) is
    /// taken and said; one it leaves alone is not mentioned; a given option wins.
    @Test func aChainSaysWhatCameFromTheCamera() throws {
        var registry = AnalyzerRegistry()
        registry.register(KLTAnalyzer.self)
        let frames = (0..<2).map { k in KLTAnalyzerTests.frame(render(width: 1600, height: 240) { ($0 + 1.5 * Double(k), $1 + 0.8 * Double(k)) }) }
        func run(_ options: [String: String], width: Int = 1600) throws -> RunReport {
            var harness = AnalyzerHarness("klt", options: options, registry: registry)
            let model = CameraModel(width: width, height: 240, intrinsics: PinholeIntrinsics(fx: 200, fy: 200, cx: 799.5, cy: 119.5))
            harness.describe(KLTAnalyzerTests.cam, as: StreamMetadata(camera: CameraCalibration(model: model, rateHz: 20)))
            for (k, f) in frames.enumerated() { harness.push(f, on: KLTAnalyzerTests.cam, at: Timestamp(nanoseconds: Int64(k) * 50_000_000)) }
            let result = try harness.run()
            #expect(result.failure == nil)
            return result.report
        }
        let derived = try run([:])
        #expect(derived.optionsFromData?.map { "\($0.option)=\($0.value)" } == ["window=27"])
        #expect(derived.notes == ["klt: window=27 from the camera (1600×240 px, f 200 px, 20 Hz: 20 px per frame at 2 rad/s)"])
        #expect(try run(["window": "21"]).optionsFromData == nil)
    }
}
