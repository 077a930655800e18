import Foundation
import Testing
import Parallax
import ParallaxTesting

@Suite struct VideoFormatAnalyzerTests {
    static let key = StreamKey<CameraFrame>("cam0")
    static let camera = CameraCalibration(model: CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 500, fy: 510, cx: 317.3, cy: 242.8),
                                                             distortion: .radialTangential(k1: -0.28, k2: 0.07, p1: 0.0002, p2: 0.00002)),
                                          rateHz: 30)

    /// A bright Gaussian blob (σ 6 px) centred at sub-pixel `p` on a dark 640 × 480 image.
    static func blob(at p: Vector2) -> CameraFrame {
        var samples = [UInt8](repeating: 0, count: 640 * 480)
        for y in 0..<480 {
            for x in 0..<640 {
                let dx = Double(x) - p.x, dy = Double(y) - p.y
                let d: Double = dx * dx + dy * dy
                samples[y * 640 + x] = UInt8((250 * exp(-d / 72)).rounded())
            }
        }
        return CameraFrame(cameraID: "cam0", image: ImageBuffer(width: 640, height: 480, channels: 1, samples: samples))
    }

    /// Intensity-weighted centre of an image.
    static func centroid(_ image: ImageBuffer<UInt8>) -> Vector2 {
        var sum = 0.0, c = Vector2.zero
        for y in 0..<image.height { for x in 0..<image.width { let v = Double(image[x, y]); sum += v; c += v * Vector2(Double(x), Double(y)) } }
        return c / sum
    }

    /// Resampling keeps geometry: a feature at native pixel p is at (p + 0.5)·s − 0.5 at scale s
    /// (within 0.05 px), and the described camera projects every point there exactly.
    @Test func resamplingKeepsGeometry() throws {
        for scale in [0.5, 0.25] {
            var options = VideoFormatAnalyzer.Options()
            options.scale = scale
            var h = AnalyzerHarness { try VideoFormatAnalyzer(options: options) }
            h.describe(Self.key, as: StreamMetadata(camera: Self.camera))
            let points = [Vector2(200.3, 150.7), Vector2(411.85, 333.1), Vector2(87.5, 402.25)]
            for (k, p) in points.enumerated() { h.push(Self.blob(at: p), on: Self.key, at: Timestamp(nanoseconds: Int64(k + 1))) }
            let result = try h.run()
            let out = result.packets(on: "cam0/formatted", as: CameraFrame.self)
            #expect(out.count == 3)
            for (p, frame) in zip(points, out) {
                let expected = (p + 0.5) * scale - 0.5
                let found = Self.centroid(frame.payload.image)
                #expect((found - expected).norm < 0.05, "scale \(scale): \(p) → \(found), expected \(expected)")
            }
            let binned = try #require(result.metadata["cam0/formatted"]?.camera)
            #expect(binned.model.width == Int(640 * scale) && binned.rateHz == 30)
            for point in [Vector3(0.3, -0.2, 1.5), Vector3(-0.8, 0.5, 2), Vector3(0.01, 0.02, 0.7)] {
                let native = try #require(Self.camera.model.project(point)), scaled = try #require(binned.model.project(point))
                #expect((scaled - ((native + 0.5) * scale - 0.5)).norm < 1e-9)
            }
        }
    }

    /// Every 2nd / 3rd frame, at its own time; gray from colour; the rate described divided.
    @Test func rateAndPixelFormat() throws {
        var options = VideoFormatAnalyzer.Options()
        options.rate = "1/3"
        options.pixels = .gray
        var h = AnalyzerHarness { try VideoFormatAnalyzer(options: options) }
        h.describe(Self.key, as: StreamMetadata(camera: Self.camera))
        let rgb = CameraFrame(cameraID: "cam0", image: ImageBuffer(width: 8, height: 8, channels: 3, samples: [UInt8](repeating: 90, count: 192)))
        for k in 0..<7 { h.push(rgb, on: Self.key, at: Timestamp(nanoseconds: Int64(k) * 33_333_333)) }
        let result = try h.run()
        let out = result.packets(on: "cam0/formatted", as: CameraFrame.self)
        #expect(out.map(\.timestamp.nanoseconds) == [0, 99_999_999, 199_999_998])
        #expect(out.allSatisfy { $0.payload.format == .gray8 && $0.payload.image[3, 3] == 90 })
        #expect(result.metadata["cam0/formatted"]?.camera?.rateHz == 10)
    }

    @Test func formatsAndOptionsAreChecked() {
        let formats = VideoFormat.supported(camera: "cam0", width: 752, height: 480, frameRateHz: 20, pixelFormat: .rgb8)
        #expect(formats.first?.recommended == true && formats.first?.width == 752 && formats.first?.pixelFormat == .rgb8)
        #expect(formats.filter(\.recommended).count == 1)
        #expect(formats.count == 3 * 3 * 2)
        #expect(formats.contains { $0.width == 188 && $0.height == 120 && $0.frameRateHz == 20.0 / 3 && $0.pixelFormat == .gray8 })
        #expect(VideoFormat.supported(camera: "c", width: 40, height: 30, frameRateHz: nil, pixelFormat: .gray8).count == 3 * 1)
        #expect(throws: AnalyzerError.self) { _ = try VideoFormatAnalyzer(options: { var o = VideoFormatAnalyzer.Options(); o.scale = 0.3; return o }()) }
        #expect(throws: AnalyzerError.self) { _ = try VideoFormatAnalyzer(options: { var o = VideoFormatAnalyzer.Options(); o.rate = "2/3"; return o }()) }
    }
}
