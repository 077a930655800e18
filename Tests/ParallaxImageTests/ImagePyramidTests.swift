import Testing
import ParallaxMath
@testable import ParallaxImage

@Suite struct ImagePyramidTests {
    static func random(_ w: Int, _ h: Int, seed: UInt64) -> GrayImage {
        var rng = SeededGenerator(seed: seed)
        return GrayImage(width: w, height: h, pixels: (0..<(w * h)).map { _ in Float(rng.next() % 256) })
    }

    /// The textbook definition, border by reflect-101, for comparison.
    static func naivePyrDown(_ s: GrayImage) -> GrayImage {
        let k: [Float] = [1, 4, 6, 4, 1]
        var out = GrayImage(width: (s.width + 1) / 2, height: (s.height + 1) / 2)
        for y in 0..<out.height {
            for x in 0..<out.width {
                var acc: Float = 0
                for j in -2...2 { for i in -2...2 {
                    acc += k[j + 2] * k[i + 2] * s[ImagePyramid.reflect(2 * x + i, s.width), ImagePyramid.reflect(2 * y + j, s.height)]
                } }
                out[x, y] = acc / 256
            }
        }
        return out
    }

    @Test(arguments: [(64, 48), (33, 17), (10, 9)])
    func pyrDownMatchesTheDefinition(width: Int, height: Int) {
        let image = Self.random(width, height, seed: UInt64(width))
        let fast = ImagePyramid.pyrDown(image), slow = Self.naivePyrDown(image)
        #expect(fast.width == slow.width && fast.height == slow.height)
        #expect(zip(fast.pixels, slow.pixels).allSatisfy { abs($0 - $1) < 1e-3 })
    }

    @Test func pyramidLevelsHalveAndStopWhenSmall() {
        let p = ImagePyramid(Self.random(100, 60, seed: 1), maxLevel: 5)
        #expect(p.levels.map(\.width) == [100, 50, 25, 13])
        // Each level equals pyrDown of the one above, margin excluded; the margin is reflected.
        #expect(p.levels[2].interior == ImagePyramid.pyrDown(p.levels[1].interior))
        #expect(p.levels[1][-1, 3] == p.levels[1][1, 3] && p.levels[1][49, -2] == p.levels[1][49, 2])
        #expect(p.levels.map(\.height) == [60, 30, 15, 8])
    }

    @Test func gradientsOfARampAreItsSlope() {
        var ramp = GrayImage(width: 20, height: 10)
        for y in 0..<10 { for x in 0..<20 { ramp[x, y] = Float(3 * x + 2 * y) } }
        let (dx, dy) = Gradients.scharr(ramp)
        // Interior: Scharr/32 of a ramp is exactly the per-pixel slope.
        for y in 1..<9 { for x in 1..<19 { #expect(abs(dx[x, y] - 3) < 1e-5 && abs(dy[x, y] - 2) < 1e-5) } }
        let (sx, _) = Gradients.sobel(ramp)
        #expect(abs(sx[5, 5] - 3 * 8) < 1e-4)
    }

    @Test func bilinearInterpolatesBetweenPixels() {
        var img = GrayImage(width: 3, height: 3)
        img[0, 0] = 0; img[1, 0] = 10; img[0, 1] = 20; img[1, 1] = 30
        #expect(img.bilinear(0.5, 0.5) == 15)
        #expect(img.bilinear(0.25, 0) == 2.5)
        #expect(GrayImage(ImageBuffer(width: 1, height: 1, channels: 3, samples: [255, 255, 255])).pixels[0] == 255)
    }
}
