import Foundation
import Testing
import Parallax
import ParallaxTesting

@Suite struct DepthColorizeAnalyzerTests {
    static func colorize(_ maps: [DepthMap], options: DepthColorizeAnalyzer.Options) throws -> [CameraFrame] {
        var h = AnalyzerHarness { try DepthColorizeAnalyzer(options: options) }
        for (k, m) in maps.enumerated() { h.push(m, on: TUMFrame.depthKey, at: Timestamp(nanoseconds: Int64(k + 1))) }
        let result = try h.run()
        #expect(result.failure == nil)
        return result.packets(on: "depth/colorized", as: CameraFrame.self).map(\.payload)
    }

    @Test func nearIsBlueFarIsRedInvalidIsBlackAndOneRangeForTheStream() throws {
        // Columns 0–4 at 1 m, 5–9 at 1.5 m, 10–19 at 3 m; one invalid pixel.
        var values = (0..<(20 * 10)).map { i -> Float in i % 20 < 5 ? 1 : i % 20 < 10 ? 1.5 : 3 }
        values[0] = .nan
        let first = DepthMap(sensorID: "depth", kind: .depth, values: ImageBuffer(width: 20, height: 10, samples: values))
        let second = DepthMap(sensorID: "depth", kind: .depth, values: ImageBuffer(width: 20, height: 10, repeating: Float(2)))
        var options = DepthColorizeAnalyzer.Options()
        options.legend = false
        let frames = try Self.colorize([first, second], options: options)
        #expect(frames.count == 2 && frames[0].image.width == 20 && frames[0].image.channels == 3)
        let image = frames[0].image
        #expect(image[0, 0, 0] == 0 && image[0, 0, 1] == 0 && image[0, 0, 2] == 0)
        #expect(image[7, 5, 2] > image[7, 5, 0])    // near: blue (1.5 m, a quarter of the range)
        #expect(image[15, 5, 0] > image[15, 5, 2])  // far: red
        // The second map is coloured with the first one's range (1…3 m, its 1st–99th percentile): 2 m is the middle colour.
        let mid = Colormap.turbo(0.5)
        #expect(frames[1].image[5, 5, 0] == mid.r && frames[1].image[5, 5, 1] == mid.g)
    }

    @Test func theLegendIsAppendedAndAGivenRangeIsUsed() throws {
        let map = DepthMap(sensorID: "depth", kind: .depth, values: ImageBuffer(width: 30, height: 60, repeating: Float(4)))
        var options = DepthColorizeAnalyzer.Options()
        options.range = [0, 4]
        options.colormap = .viridis
        let frame = try #require(try Self.colorize([map], options: options).first)
        #expect(frame.image.width == 30 + ColorLegend.width)
        let far = Colormap.viridis(1)
        #expect(frame.image[3, 3, 0] == far.r && frame.image[3, 3, 1] == far.g && frame.image[3, 3, 2] == far.b)
    }

    @Test func aBadRangeIsAnErrorAndAMapWithoutDepthIsBlack() throws {
        var options = DepthColorizeAnalyzer.Options()
        options.range = [3, 1]
        #expect { _ = try DepthColorizeAnalyzer(options: options) } throws: { "\($0)".contains("option 'range'") }
        options.range = []
        options.legend = false
        let nan = DepthMap(sensorID: "depth", kind: .depth, values: ImageBuffer(width: 4, height: 4, repeating: Float.nan))
        let frame = try #require(try Self.colorize([nan], options: options).first)
        #expect(frame.image.samples.allSatisfy { $0 == 0 })
    }
}
