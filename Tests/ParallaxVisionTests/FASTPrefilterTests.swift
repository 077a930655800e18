import CFeatureKernels
import Foundation
import Testing
import ParallaxImage
import ParallaxMath
import VisionTestSupport
@testable import ParallaxVision

/// The FAST scores on AVX2 come from an 8-bit prefilter (floor of each pixel, threshold
/// floor(t)) followed by the float segment test where it passed; images with values outside
/// [0, 256) and thresholds outside [1, 128) take the float test alone. Every case must give the
/// scores of the Swift loop before issue 47 (``ORBKernelsTests/referenceFASTScores``) bit for bit,
/// and `pxl_fast_nms` (which suppresses only the listed positive scores) the survivors of the full
/// scan.
@Suite(.serialized) struct FASTPrefilterTests {
    /// Images that probe the prefilter's bounds: integer levels (v = c ± t exactly, which the
    /// 8-bit test passes and the float test rejects), fractions just below 256 and at 0, rows
    /// whose interior is no multiple of 32 pixels (a float tail), and images the prefilter must
    /// refuse (a value of 256, a negative one) or tolerate (NaN).
    static let images: [(name: String, image: GrayImage)] = {
        var rng = SeededGenerator(seed: 471)
        func uniform(_ n: Int, _ f: (UInt64) -> Float) -> [Float] { (0..<n).map { _ in f(rng.next()) } }
        let w = 157, h = 83
        let levels = uniform(w * h) { Float($0 % 6) * 10 }  // 0, 10, …, 50: many exact ties at t = 10, 20
        let fractions = uniform(w * h) { Float($0 % 25_600) / 100 }  // 0 … 255.99
        let extremes = uniform(w * h) { $0 % 2 == 0 ? 0 : 255.999 }
        var tooBright = fractions
        tooBright[w * 40 + 70] = 256
        var negative = fractions
        negative[w * 30 + 20] = -0.25
        var withNaN = fractions
        for k in stride(from: 5, to: w * h, by: 97) { withNaN[k] = .nan }
        let office = GrayImage(width: officeImage.width, height: officeImage.height, pixels: officeImage.pixels.map { $0 * 0.8 + 12.7 })
        return [("levels", GrayImage(width: w, height: h, pixels: levels)),
                ("fractions", GrayImage(width: w, height: h, pixels: fractions)),
                ("extremes", GrayImage(width: w, height: h, pixels: extremes)),
                ("a value of 256", GrayImage(width: w, height: h, pixels: tooBright)),
                ("a negative value", GrayImage(width: w, height: h, pixels: negative)),
                ("NaN", GrayImage(width: w, height: h, pixels: withNaN)),
                ("office", office)]
    }()

    static let thresholds: [Float] = [0.5, 1, 1.5, 10, 20, 33.3, 127.9, 128, 200]

    @Test func scoresEqualTheSwiftLoop() {
        ORBKernelsTests.onEveryPath { path in
            for (name, image) in Self.images {
                for threshold in Self.thresholds {
                    for border in [3, 4, 20] {
                        var fast = FASTDetector()
                        fast.threshold = threshold
                        fast.border = border
                        let got = fast.scores(image).pixels.map(\.bitPattern)
                        let want = ORBKernelsTests.referenceFASTScores(image, threshold: threshold, border: border).map(\.bitPattern)
                        #expect(got == want, "\(name), threshold \(threshold), border \(border), \(path)")
                    }
                }
            }
        }
    }

    @Test func suppressionOfTheListedScoresEqualsTheFullScan() {
        ORBKernelsTests.onEveryPath { path in
            for (name, image) in Self.images {
                for threshold in Self.thresholds {
                    for (fastBorder, nmsBorder) in [(3, 3), (20, 20), (4, 9), (9, 4)] {
                        let w = image.width, h = image.height
                        let want = Self.referenceSuppression(
                            ORBKernelsTests.referenceFASTScores(image, threshold: threshold, border: fastBorder), w, h, nmsBorder)
                        let got = Self.fastNMS(image, threshold: threshold, fastBorder: fastBorder, nmsBorder: nmsBorder)
                        #expect(got.map(\.0) == want.map(\.0) && got.map(\.1.bitPattern) == want.map(\.1.bitPattern),
                                "\(name), threshold \(threshold), borders \(fastBorder)/\(nmsBorder), \(path)")
                    }
                }
            }
        }
        #expect(Self.fastNMS(Self.images[6].image, threshold: 20, fastBorder: 20, nmsBorder: 20).count > 100)
    }

    /// `pxl_fast_nms`'s survivors (index, score), raster order.
    static func fastNMS(_ image: GrayImage, threshold: Float, fastBorder: Int, nmsBorder: Int) -> [(Int, Float)] {
        let w = image.width, h = image.height, capacity = w * h
        let offsets = FASTDetector.circle.map { $0.1 * w + $0.0 }
        var rows = [Float](repeating: 0, count: 3 * w), columns = [Int32](repeating: 0, count: 3 * w)
        var bytes = [Int8](repeating: 0, count: w * h), indices = [Int64](repeating: 0, count: capacity)
        var values = [Float](repeating: 0, count: capacity)
        let n = image.pixels.withUnsafeBufferPointer { p in
            pxl_fast_nms(p.baseAddress, w, h, fastBorder, threshold, offsets, nmsBorder, &rows, &columns, &bytes, &indices, &values, capacity)
        }
        return (0..<min(n, capacity)).map { (Int(indices[$0]), values[$0]) }
    }

    /// The 3×3 suppression of the Swift code before issue 47: positive, > the four neighbours
    /// before in raster order, ≥ the four after.
    static func referenceSuppression(_ s: [Float], _ w: Int, _ h: Int, _ border: Int) -> [(Int, Float)] {
        var out: [(Int, Float)] = []
        for y in border..<max(border, h - border) {
            for x in border..<max(border, w - border) {
                let i = y * w + x, v = s[i]
                guard v > 0, v > s[i - w - 1], v > s[i - w], v > s[i - w + 1], v > s[i - 1],
                      v >= s[i + 1], v >= s[i + w - 1], v >= s[i + w], v >= s[i + w + 1] else { continue }
                out.append((i, v))
            }
        }
        return out
    }
}
