import Testing
import VisionTestSupport
import ParallaxImage
import ParallaxMath
@testable import ParallaxVision

@Suite struct ShiTomasiDetectorTests {
    /// The minimum eigenvalue by definition: Sobel products summed over the block, borders
    /// reflected, straight from the formula.
    static func naiveScores(_ image: GrayImage, blockSize: Int, border: Int) -> [Float] {
        let (dx, dy) = Gradients.sobel(image)
        let w = image.width, h = image.height, r = blockSize / 2
        var out = [Float](repeating: 0, count: w * h)
        for y in border..<(h - border) {
            for x in border..<(w - border) {
                var a: Float = 0, b: Float = 0, c: Float = 0
                for v in -r...r { for u in -r...r {
                    let i = ImagePyramid.reflect(y + v, h) * w + ImagePyramid.reflect(x + u, w)
                    a += dx.pixels[i] * dx.pixels[i]; b += dx.pixels[i] * dy.pixels[i]; c += dy.pixels[i] * dy.pixels[i]
                } }
                out[y * w + x] = (a + c) / 2 - (((a - c) / 2) * ((a - c) / 2) + b * b).squareRoot()
            }
        }
        return out
    }

    @Test(arguments: [3, 5])
    func scoresAreTheMinimumEigenvalue(blockSize: Int) {
        let image = render(width: 64, height: 48) { ($0, $1) }
        var detector = ShiTomasiDetector()
        detector.blockSize = blockSize
        detector.border = 2
        let fast = detector.scores(image).pixels, slow = Self.naiveScores(image, blockSize: blockSize, border: 2)
        let scale = slow.map(abs).max()!
        #expect(zip(fast, slow).allSatisfy { abs($0 - $1) <= 1e-5 * scale })
    }

    /// The fused 3×3 path and the general box-sum path add the same terms in the same order.
    @Test func fusedThreeByThreeEqualsTheGeneralPathExactly() {
        let image = render(width: 50, height: 40) { ($0 * 1.3, $1 * 0.7) }
        let (dx, dy) = Gradients.sobel(image)
        let fused = ShiTomasiDetector.minimumEigenvalues3(dx: dx, dy: dy, border: 1).pixels
        let w = image.width, h = image.height
        let products = (0..<(w * h)).map { i in (dx.pixels[i] * dx.pixels[i], dx.pixels[i] * dy.pixels[i], dy.pixels[i] * dy.pixels[i]) }
        let a = ShiTomasiDetector.boxSum(products.map(\.0), width: w, height: h, radius: 1)
        let b = ShiTomasiDetector.boxSum(products.map(\.1), width: w, height: h, radius: 1)
        let c = ShiTomasiDetector.boxSum(products.map(\.2), width: w, height: h, radius: 1)
        for y in 1..<(h - 1) { for x in 1..<(w - 1) {
            let i = y * w + x
            #expect(fused[i] == ShiTomasiDetector.minimumEigenvalue(a[i], b[i], c[i]))
        } }
    }

    /// Scores from a prepared LK image read its Scharr template gradients: the minimum
    /// eigenvalue of their 3×3 sums, zero within the border.
    @Test func preparedScoresUseTheTemplateGradients() {
        let image = render(width: 64, height: 48) { ($0 * 1.1, $1 * 0.9) }
        let lk = PyramidalLucasKanade()
        let prepared = lk.prepare(image)
        var detector = ShiTomasiDetector()
        detector.border = 3
        let scores = detector.scores(prepared).pixels
        let (dx, dy) = Gradients.scharr(image)
        let w = image.width, h = image.height
        var expected = [Float](repeating: 0, count: w * h)
        for y in 3..<(h - 3) { for x in 3..<(w - 3) {
            var a: Float = 0, b: Float = 0, c: Float = 0
            for v in -1...1 { for u in -1...1 {
                let i = (y + v) * w + x + u
                a += dx.pixels[i] * dx.pixels[i]; b += dx.pixels[i] * dy.pixels[i]; c += dy.pixels[i] * dy.pixels[i]
            } }
            expected[y * w + x] = ShiTomasiDetector.minimumEigenvalue(a, b, c)
        } }
        // Float sums in another order: equal up to rounding relative to the largest score.
        let scale = expected.max()!
        #expect(scale > 0)
        #expect(zip(scores, expected).allSatisfy { abs($0 - $1) <= 1e-5 * scale })
        #expect(zip(scores, expected).allSatisfy { ($0 == 0) == ($1 == 0) })
        // Without template gradients, Sobel as for a plain image.
        #expect(detector.scores(lk.prepare(image, gradients: false)) == detector.scores(image))
    }
}
