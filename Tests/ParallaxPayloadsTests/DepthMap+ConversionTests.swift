import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxImage
import ParallaxFiles

@Suite struct DepthMapConversionTests {
    static let geometry = DepthMap.StereoGeometry(focalLength: 500, baseline: 0.1, doffs: 2)

    static func map(_ values: [Float], kind: DepthMap.Kind, stereo: DepthMap.StereoGeometry? = nil) -> DepthMap {
        DepthMap(sensorID: "depth0", kind: kind, values: ImageBuffer(width: values.count, height: 1, samples: values), stereo: stereo)
    }

    @Test func depthDisparityAndPixelDisparityConvertBothWays() throws {
        let depth = Self.map([0.5, 2, 10, .nan], kind: .depth)
        let disparity = try depth.converted(to: .disparity)
        #expect(disparity.kind == .disparity && disparity.values.samples[0...2] == [2, 0.5, 0.1])
        #expect(disparity.values.samples[3].isNaN)
        // Z = f·B / (d + doffs): 50 / 0.5 − 2 = 98 px at 0.5 m.
        let pixels = try depth.converted(to: .pixelDisparity, stereo: Self.geometry)
        #expect(pixels.values.samples[0...2] == [98, 23, 3])
        #expect(pixels.stereo == Self.geometry)
        let back = try pixels.converted(to: .depth)
        for (a, b) in zip(back.values.samples.prefix(3), depth.values.samples.prefix(3)) { #expect(abs(a - b) <= 1e-6 * b) }
        #expect(try disparity.converted(to: .depth).values.samples.prefix(3).elementsEqual([0.5, 2, 10]))
        #expect(try depth.converted(to: .depth).values.samples.prefix(3).elementsEqual(depth.values.samples.prefix(3)))
    }

    @Test func valuesWithoutADepthBecomeInvalidNeverInfinite() throws {
        // Disparity 0 is infinitely far: no metric depth; negative depth is not a measurement.
        let disparity = Self.map([0, -1, .infinity, 4], kind: .disparity)
        let depth = try disparity.metricDepth().samples
        #expect(depth[0].isNaN && depth[1].isNaN && depth[2].isNaN && depth[3] == 0.25)
        let pixel = Self.map([-2, -3, 48], kind: .pixelDisparity, stereo: Self.geometry)
        let z = try pixel.metricDepth().samples
        #expect(z[0].isNaN && z[1].isNaN && z[2] == 1)
    }

    @Test func aPixelDisparityWithoutItsGeometryIsAnError() {
        #expect(throws: DepthConversionError.noStereoGeometry(sensor: "depth0")) { _ = try Self.map([3], kind: .pixelDisparity).metricDepth() }
        #expect(throws: DepthConversionError.noStereoGeometry(sensor: "depth0")) { _ = try Self.map([3], kind: .depth).converted(to: .pixelDisparity) }
        // Bad input: the CLI exits 2 when an analyzer meets it.
        #expect(DepthConversionError.noStereoGeometry(sensor: "x") is any BadInput)
    }

    @Test func float16SamplesAreReadAndNonFiniteOnesInvalid() throws {
        let bits: [UInt16] = [Float16(1.5).bitPattern, Float16.infinity.bitPattern, Float16.nan.bitPattern, Float16(0.25).bitPattern]
        let map = try DepthMap(sensorID: "d", kind: .depth, width: 2, height: 2, float16Bits: bits)
        #expect(map.values[0, 0] == 1.5 && map.values[1, 1] == 0.25)
        #expect(!map.isValid(x: 1, y: 0) && !map.isValid(x: 0, y: 1))
        #expect(throws: DepthConversionError.sizeMismatch(sensor: "d", expected: 6, got: 4)) {
            _ = try DepthMap(sensorID: "d", kind: .depth, width: 3, height: 2, float16Bits: bits)
        }
    }

    @Test func statisticsCountInvalidPixelsAndTakeTheMedianOfValidDepth() throws {
        let stats = try Self.map([1, .nan, 3, 2, .nan, 4], kind: .depth).depthStatistics()
        #expect(stats.valid == 4 && stats.invalid == 2 && stats.median == 2.5)
        #expect(try Self.map([.nan], kind: .depth).depthStatistics().median == nil)
    }
}
