import Foundation
import Testing
import Parallax
import ParallaxTesting

@Suite struct PointCloudAnalyzerTests {
    @Test func theTUMFrameBecomesOnePointPerValidPixelColouredByItsImage() throws {
        let tum = try TUMFrame.load()
        var options = PointCloudAnalyzer.Options()
        options.color = "rgb"
        let h = tum.harness(colour: true) { try PointCloudAnalyzer(options: options) }
        let result = try h.run()
        #expect(result.failure == nil)
        let cloud = try #require(result.packets(on: "depth/points", as: PointCloud.self).first?.payload)
        let valid = tum.depth.values.samples.filter(\.isFinite).count
        #expect(cloud.points.count == valid)
        // Pixel (320, 240) at 2.184 m, through freiburg3's intrinsics, with that pixel's colour.
        let k = try #require(cloud.points.firstIndex { abs($0.z - 2.184) < 1e-6 && abs($0.x - Float((320 - 320.1) / 535.4 * 2.184)) < 1e-6 && abs($0.y - Float((240 - 247.6) / 539.2 * 2.184)) < 1e-6 })
        #expect(cloud.colors?[k] == SIMD3(252, 252, 250))
        #expect(result.report.warnings.isEmpty)
    }

    @Test func voxelsAndStrideThinTheCloudAndFarPointsAreDropped() throws {
        let tum = try TUMFrame.load()
        func count(_ configure: (inout PointCloudAnalyzer.Options) -> Void) throws -> Int {
            var options = PointCloudAnalyzer.Options()
            configure(&options)
            let h = tum.harness { try PointCloudAnalyzer(options: options) }
            return try #require(try h.run().packets(on: "depth/points", as: PointCloud.self).first).payload.points.count
        }
        let all = try count { _ in }
        let strided = try count { $0.stride = 2 }
        #expect(abs(Double(strided) / Double(all) - 0.25) < 0.01)
        let voxels = try count { $0.voxel = 0.05 }
        #expect(voxels > 1000 && voxels < all / 10)
        let near = try count { $0.maxDepth = 2.415 }  // the median depth
        #expect(near == tum.depth.values.samples.filter { $0.isFinite && $0 <= 2.415 }.count)
        #expect(abs(Double(near) / Double(all) - 0.5) < 0.02)
    }

    @Test func badDepthMapsAreSkippedWithAWarningAndTheStreamGoesOn() throws {
        let tum = try TUMFrame.load()
        var h = AnalyzerHarness { try PointCloudAnalyzer(options: .init()) }
        h.describe(TUMFrame.depthKey, as: tum.depthMetadata)
        let allInvalid = DepthMap(sensorID: "depth", kind: .depth, values: ImageBuffer(width: 640, height: 480, repeating: Float.nan))
        let infinite = DepthMap(sensorID: "depth", kind: .depth, values: ImageBuffer(width: 640, height: 480, repeating: Float.infinity))
        let small = DepthMap(sensorID: "depth", kind: .depth, values: ImageBuffer(width: 320, height: 240, repeating: Float(1)))
        let noGeometry = DepthMap(sensorID: "depth", kind: .pixelDisparity, values: ImageBuffer(width: 640, height: 480, repeating: Float(30)))
        for (k, map) in [allInvalid, infinite, small, noGeometry, tum.depth].enumerated() {
            h.push(map, on: TUMFrame.depthKey, at: Timestamp(nanoseconds: Int64(k + 1) * 1_000_000))
        }
        let result = try h.run()
        #expect(result.failure == nil)
        let clouds = result.packets(on: "depth/points", as: PointCloud.self)
        // All-invalid and infinite maps give empty clouds; the wrong size and the disparity
        // without geometry are skipped; the good map after them still comes out.
        #expect(clouds.map(\.payload.points.count) == [0, 0, tum.depth.values.samples.filter(\.isFinite).count])
        let warnings = result.report.warnings.joined(separator: "\n")
        #expect(warnings.contains("320×240, its camera 640×480"))
        #expect(warnings.contains("stereo calibration"))
        #expect(warnings.contains("has no valid depth"))
    }

    @Test func aDepthStreamWithoutACameraIsAnErrorNamingIt() throws {
        var h = AnalyzerHarness { try PointCloudAnalyzer(options: .init()) }
        h.push(DepthMap(sensorID: "depth", kind: .depth, values: ImageBuffer(width: 4, height: 4, repeating: Float(1))), on: TUMFrame.depthKey, at: Timestamp(nanoseconds: 1))
        let result = try h.run()
        #expect("\(result.failure.map { "\($0)" } ?? "")".contains("stream 'depth' has no camera calibration"))
    }
}

@Suite struct PointCloudColourTests {
    /// A colour frame of another size than the depth: the cloud comes uncoloured, with a warning.
    @Test func aColourFrameOfAnotherSizeLeavesThePointsUncoloured() throws {
        let tum = try TUMFrame.load()
        var options = PointCloudAnalyzer.Options()
        options.color = "rgb"
        var h = AnalyzerHarness { try PointCloudAnalyzer(options: options) }
        h.describe(TUMFrame.depthKey, as: tum.depthMetadata)
        h.push(CameraFrame(cameraID: "rgb", image: ImageBuffer(width: 320, height: 240, channels: 3, repeating: UInt8(9))), on: TUMFrame.rgbKey, at: tum.time)
        h.push(tum.depth, on: TUMFrame.depthKey, at: tum.time)
        let result = try h.run()
        let cloud = try #require(result.packets(on: "depth/points", as: PointCloud.self).first).payload
        #expect(cloud.colors == nil && !cloud.points.isEmpty)
        #expect(result.report.warnings.contains { $0.contains("320×240×3, the depth 640×480: points left uncoloured") })
    }
}
