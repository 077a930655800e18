import Testing
import ParallaxImage
import ParallaxMath

@Suite struct DepthFilteringTests {
    /// A 40 × 20 map: 1 m left of column 20, 2 m right of it, with ±1 cm noise (seeded).
    static func step(noise: Float = 0.01) -> ImageBuffer<Float> {
        var rng = SeededGenerator(seed: 9)
        let samples = (0..<(40 * 20)).map { i -> Float in
            let base: Float = i % 40 < 20 ? 1 : 2
            return base + noise * (Float(rng.next() % 2001) / 1000 - 1)
        }
        return ImageBuffer(width: 40, height: 20, samples: samples)
    }

    static func spread(_ image: ImageBuffer<Float>, columns: Range<Int>, target: Float) -> Float {
        var worst: Float = 0
        for y in 0..<image.height { for x in columns { worst = max(worst, abs(image[x, y] - target)) } }
        return worst
    }

    @Test func bilateralSmoothsFlatDepthAndKeepsTheStep() {
        let noisy = Self.step()
        let smooth = DepthFiltering.bilateral(noisy, radius: 3, sigmaSpace: 2, sigmaRange: { _ in 0.03 })
        // Away from the step the noise shrinks; at the step nothing crosses it (no 1.5 m values).
        #expect(Self.spread(smooth, columns: 4..<16, target: 1) < 0.6 * Self.spread(noisy, columns: 4..<16, target: 1))
        #expect(Self.spread(smooth, columns: 17..<20, target: 1) < 0.011 && Self.spread(smooth, columns: 20..<23, target: 2) < 0.011)
    }

    @Test func theGuideKeepsItsEdgesWhereDepthAloneWouldBlend() {
        // Depth 1.00 | 1.02 m (within the range tolerance), the image has an edge at the same place.
        let depth = ImageBuffer(width: 20, height: 10, samples: (0..<200).map { Float($0 % 20 < 10 ? 1.0 : 1.02) })
        let guide = ImageBuffer(width: 20, height: 10, samples: (0..<200).map { UInt8($0 % 20 < 10 ? 20 : 220) })
        let plain = DepthFiltering.bilateral(depth, radius: 3, sigmaSpace: 2, sigmaRange: { _ in 0.05 })
        let joint = DepthFiltering.bilateral(depth, radius: 3, sigmaSpace: 2, sigmaRange: { _ in 0.05 }, guide: guide, sigmaGuide: 10)
        #expect(plain[9, 5] > 1.001)
        #expect(abs(joint[9, 5] - 1) < 1e-4 && abs(joint[10, 5] - 1.02) < 1e-4)
    }

    @Test func smallInnerHolesAreFilledLargeOrBorderOnesAreNot() {
        var samples = (0..<(30 * 20)).map { i in Float(1 + 0.01 * Double(i % 30)) }  // a ramp along x
        for (x, y) in [(10, 10), (11, 10), (10, 11)] { samples[y * 30 + x] = .nan }       // 3 px inside
        for y in 0..<20 { samples[y * 30 + 25] = .nan }                                      // a column to the border
        for y in 2..<8 { for x in 2..<8 { samples[y * 30 + x] = .nan } }                    // 36 px inside
        let filled = DepthFiltering.fillHoles(ImageBuffer(width: 30, height: 20, samples: samples), maxArea: 10)
        #expect(abs(filled[10, 10] - 1.10) < 0.006 && abs(filled[11, 10] - 1.11) < 0.006 && filled[10, 11].isFinite)
        #expect(filled[25, 5].isNaN && filled[4, 4].isNaN)
        #expect(DepthFiltering.fillHoles(ImageBuffer(width: 30, height: 20, samples: samples), maxArea: 100)[4, 4].isFinite)
    }

    @Test func valuesOutsideTheRangeBecomeInvalid() {
        let clamped = DepthFiltering.clamp(ImageBuffer(width: 4, height: 1, samples: [0.2, 1, .infinity, 9]), to: 0.5...5)
        #expect(clamped[0, 0].isNaN && clamped[1, 0] == 1 && clamped[2, 0].isNaN && clamped[3, 0].isNaN)
    }
}
