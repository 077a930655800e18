import Foundation
import Testing
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxOutputs
import ParallaxTesting
@testable import Diagnostics

@Suite struct FrameQualityAnalyzerTests {
    static let cam = StreamKey<CameraFrame>("cam0")

    /// A 64×48 checkerboard of 4-px squares (levels 40 and 200), or its 5×5 box blur.
    static func checkerboard(blurred: Bool) -> ImageBuffer<UInt8> {
        let w = 64, h = 48
        var sharp = [Int](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { sharp[y * w + x] = ((x / 4 + y / 4) % 2 == 0) ? 40 : 200 } }
        guard blurred else { return ImageBuffer(width: w, height: h, samples: sharp.map(UInt8.init)) }
        var out = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var s = 0, n = 0
                for dy in -2...2 { for dx in -2...2 where (0..<w).contains(x + dx) && (0..<h).contains(y + dy) { s += sharp[(y + dy) * w + x + dx]; n += 1 } }
                out[y * w + x] = UInt8(s / n)
            }
        }
        return ImageBuffer(width: w, height: h, samples: out)
    }

    @Test func theLaplacianVarianceOfOneBrightPixelIsExact() {
        var samples = [UInt8](repeating: 0, count: 25)
        samples[12] = 255
        // Interior Laplacians: 1020 at the centre, −255 at its four neighbours, 0 at the corners.
        let expected = (1020.0 * 1020 + 4 * 255 * 255) / 9
        #expect(FrameQualityAnalyzer.laplacianVariance(ImageBuffer(width: 5, height: 5, samples: samples)) == expected)
        #expect(FrameQualityAnalyzer.laplacianVariance(ImageBuffer(width: 2, height: 9, repeating: 7)) == 0)
        #expect(FrameQualityAnalyzer.laplacianVariance(ImageBuffer(width: 9, height: 9, repeating: 7)) == 0)
    }

    @Test func exposureCountsClippedPixels() {
        let image = ImageBuffer<UInt8>(width: 4, height: 1, samples: [0, 0, 255, 101])
        let e = FrameQualityAnalyzer.exposure(image)
        #expect(e.mean == 89 && e.black == 0.5 && e.white == 0.25)
    }

    @Test func aFrameBlurrierThanItsNeighboursIsFlagged() throws {
        var harness = AnalyzerHarness { try FrameQualityAnalyzer(options: .init()) }
        let pattern = [false, false, false, false, true, false, false]
        for (k, blurred) in pattern.enumerated() {
            harness.push(CameraFrame(cameraID: "cam0", image: Self.checkerboard(blurred: blurred)), on: Self.cam,
                         at: Timestamp(nanoseconds: Int64(k) * 33_000_000))
        }
        let qualities = try harness.run().packets(on: "cam0/quality", as: FrameQuality.self).map(\.payload)
        #expect(qualities.map(\.blurred) == pattern)
        #expect(qualities[0].relativeSharpness == 1 && qualities[1].relativeSharpness == 1)
        #expect(qualities[4].sharpness < 0.2 * qualities[3].sharpness)
        // The blurred frame does not make the next sharp one look sharper than usual: the median ignores it.
        #expect(qualities[5].relativeSharpness == 1)
        #expect(qualities[4].frameOverlay(camera: "cam0", stream: "cam0/quality")?.boxes.first?.label.hasPrefix("BLURRED") == true)
        #expect(qualities[3].frameOverlay(camera: "cam1", stream: "cam0/quality") == nil)
    }

    @Test func optionsOutOfRangeAreRefused() {
        var options = FrameQualityAnalyzer.Options()
        options.window = 0
        #expect(throws: AnalyzerError.self) { try FrameQualityAnalyzer(options: options) }
        options.window = 5
        options.blurRatio = 1.5
        #expect(throws: AnalyzerError.self) { try FrameQualityAnalyzer(options: options) }
    }

    /// No writer is registered for the payload: the registry finds its own (``StreamFileWritable``).
    @Test func thePayloadWritesItsOwnCSV() throws {
        let folder = try TemporaryFolder.make("frame-quality")
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = StreamDescription(StreamKey<FrameQuality>("cam0/quality"))
        let writer = try #require(try OutputWriterRegistry().writer(for: stream, in: folder))
        let q = FrameQuality(camera: "cam0", width: 4, height: 4, sharpness: 12.5, relativeSharpness: 0.25, blurred: true,
                             meanLuma: 100, blackClipped: 0, whiteClipped: 0.5)
        try writer.write(AnyPacket(stream: "cam0/quality", timestamp: Timestamp(nanoseconds: 42), payload: q))
        let path = try writer.finish()
        #expect(path == folder.appendingPathComponent("cam0/quality.csv").path)
        #expect(try String(contentsOfFile: path, encoding: .utf8)
                == "t_ns,sharpness,relative_sharpness,blurred,mean_luma,black_clipped,white_clipped\n42,12.5,0.25,1,100.0,0.0,0.5\n")
        #expect(try FrameQuality.mcapMessages([q], stream: "cam0/quality", time: Timestamp(nanoseconds: 42), options: .init()).map(\.schema.name)
                == ["parallax.FrameQuality"])
    }
}
