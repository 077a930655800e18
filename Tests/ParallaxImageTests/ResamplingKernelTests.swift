import CFeatureKernels
import Foundation
import Testing
@testable import ParallaxImage
import ParallaxMath

/// `resized` and `gaussianBlurred` run in CFeatureKernels since issue 47; their results must be
/// bit-identical to the Swift loops they replaced (kept below as the reference) on every path
/// (AVX2 where the machine has it, and the portable one).
@Suite(.serialized) struct ResamplingKernelTests {
    /// A non-integer, textured image with a size that is no multiple of 8 (vector tails).
    static func texture(width: Int, height: Int, seed: UInt64) -> GrayImage {
        var rng = SeededGenerator(seed: seed)
        var pixels = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let wave = 60 * sinf(Float(x) * 0.21) * cosf(Float(y) * 0.17) + 40 * sinf(Float(x + 2 * y) * 0.05)
                pixels[y * width + x] = 128 + wave + Float(rng.nextGaussian() * 9.3)
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    static let images = [texture(width: 101, height: 67, seed: 1), texture(width: 640, height: 480, seed: 2),
                         texture(width: 9, height: 5, seed: 3), texture(width: 1, height: 7, seed: 4)]

    static func bits(_ image: GrayImage) -> [UInt32] { image.pixels.map(\.bitPattern) }

    static func onEveryPath(_ body: () -> Void) {
        // 0: as detected; 2: AVX2 at most (the AVX-512 paths' fallbacks); 1: portable.
        for mode in [Int32(0), 2, 1] {
            pxl_kernels_force_portable(mode)
            body()
        }
        pxl_kernels_force_portable(0)
    }

    @Test func resizedEqualsTheSwiftLoopItReplaced() {
        Self.onEveryPath {
            for image in Self.images {
                for (dw, dh) in [(Int(Double(image.width) / 1.2), Int(Double(image.height) / 1.2)), (image.width * 2, image.height + 3), (1, 1), (3, 2)]
                where dw > 0 && dh > 0 {
                    let got = image.resized(width: dw, height: dh), want = Self.referenceResized(image, width: dw, height: dh)
                    #expect(got.width == dw && got.height == dh)
                    #expect(Self.bits(got) == Self.bits(want), "\(image.width)×\(image.height) → \(dw)×\(dh), portable: \(pxl_kernels_features() == 0)")
                }
            }
        }
    }

    @Test func gaussianBlurredEqualsTheSwiftLoopItReplaced() {
        Self.onEveryPath {
            for image in Self.images {
                for (sigma, radius) in [(Float(2), 3), (1, 1), (3.5, 9), (0.8, 0)] {
                    let got = image.gaussianBlurred(sigma: sigma, radius: radius)
                    let want = Self.referenceBlurred(image, sigma: sigma, radius: radius)
                    #expect(Self.bits(got) == Self.bits(want), "\(image.width)×\(image.height) σ \(sigma) r \(radius)")
                }
            }
        }
    }

    @Test func blurIsNotTheIdentity() {
        // Guards the comparison above against two identical no-ops.
        let image = Self.images[1]
        #expect(Self.bits(image.gaussianBlurred(sigma: 2, radius: 3)) != Self.bits(image))
        #expect(image.resized(width: 533, height: 400).pixels.count == 533 * 400)
    }

    // MARK: The Swift loops before issue 47 (reference)

    static func referenceResized(_ image: GrayImage, width dw: Int, height dh: Int) -> GrayImage {
        let width = image.width, height = image.height
        let sx = Float(width) / Float(dw), sy = Float(height) / Float(dh)
        var x0s = [Int](repeating: 0, count: dw), fxs = [Float](repeating: 0, count: dw)
        for x in 0..<dw {
            let fx = min(max((Float(x) + 0.5) * sx - 0.5, 0), Float(width - 1))
            x0s[x] = min(Int(fx), max(width - 2, 0))
            fxs[x] = width > 1 ? fx - Float(x0s[x]) : 0
        }
        var out = [Float](repeating: 0, count: dw * dh)
        let w = width, h = height, p = image.pixels
        for y in 0..<dh {
            let fy = min(max((Float(y) + 0.5) * sy - 0.5, 0), Float(h - 1))
            let y0 = min(Int(fy), max(h - 2, 0)), y1 = min(y0 + 1, h - 1)
            let wy = h > 1 ? fy - Float(y0) : 0
            let r0 = y0 * w, r1 = y1 * w
            for x in 0..<dw {
                let x0 = x0s[x], x1 = min(x0 + 1, w - 1), wx = fxs[x]
                let top = p[r0 + x0] + (p[r0 + x1] - p[r0 + x0]) * wx
                let bottom = p[r1 + x0] + (p[r1 + x1] - p[r1 + x0]) * wx
                out[y * dw + x] = top + (bottom - top) * wy
            }
        }
        return GrayImage(width: dw, height: dh, pixels: out)
    }

    static func referenceBlurred(_ image: GrayImage, sigma: Float, radius: Int) -> GrayImage {
        var kernel = (-radius...radius).map { i in Float(exp(-0.5 * Double(i * i) / Double(sigma * sigma))) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        let w = image.width, h = image.height, p = image.pixels
        var tmp = [Float](repeating: 0, count: w * h), out = tmp
        for y in 0..<h {
            for (k, weight) in kernel.enumerated() {
                let src = ImagePyramid.reflect(y + k - radius, h) * w
                for x in 0..<w { tmp[y * w + x] += weight * p[src + x] }
            }
        }
        var padded = [Float](repeating: 0, count: w + 2 * radius)
        for y in 0..<h {
            for i in 0..<(w + 2 * radius) { padded[i] = tmp[y * w + ImagePyramid.reflect(i - radius, w)] }
            for (k, weight) in kernel.enumerated() {
                for x in 0..<w { out[y * w + x] += weight * padded[k + x] }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }
}
