import CFeatureKernels
import Testing
@testable import ParallaxImage

/// The pyramid step and the 3×3 derivatives run in CFeatureKernels since issue 47
/// (`image_kernels.c`); on every path (AVX2 where the machine has it, and the portable one)
/// their results must be bit-identical to the Swift loops they replaced, kept below as the
/// reference: the levels and gradient images LK prepares, margins included.
@Suite(.serialized) struct ImageKernelsTests {
    /// Textured non-integer images, sizes odd and even, below and above one 8-float vector.
    static let images = [ResamplingKernelTests.texture(width: 752, height: 480, seed: 5), ResamplingKernelTests.texture(width: 101, height: 67, seed: 6),
                         ResamplingKernelTests.texture(width: 17, height: 9, seed: 7), ResamplingKernelTests.texture(width: 9, height: 5, seed: 8),
                         ResamplingKernelTests.texture(width: 1, height: 3, seed: 9)]

    static func bits(_ image: BorderedImage) -> [UInt32] { image.storage.map(\.bitPattern) }

    @Test func pyramidLevelsEqualTheSwiftLoops() {
        for image in Self.images {
            for margin in [2, 15] {
                // The reference pyramid, level by level from the same level 0.
                var want = [BorderedImage(image, margin: margin, border: .reflect101)]
                while want.count < 5, let last = want.last, last.width > 1 || last.height > 1 {
                    want.append(Self.referencePyrDown(last, margin: margin))
                }
                ResamplingKernelTests.onEveryPath {
                    for (k, level) in want.enumerated().dropFirst() {
                        let got = ImagePyramid.pyrDown(want[k - 1], margin: margin)
                        #expect(got.width == level.width && got.height == level.height)
                        #expect(Self.bits(got) == Self.bits(level), "\(image.width)×\(image.height) level \(k), margin \(margin)")
                    }
                    let pyramid = ImagePyramid(image, maxLevel: 3, margin: margin)
                    #expect(pyramid.levels.count == 4 || image.width < 64 || image.height < 64)
                    for (k, level) in pyramid.levels.enumerated() { #expect(Self.bits(level) == Self.bits(want[k])) }
                }
            }
        }
    }

    @Test func derivativesEqualTheSwiftLoops() {
        for image in Self.images {
            let source = BorderedImage(image, margin: 3, border: .reflect101)
            let scharr = Self.referenceDerivative(source, smooth: (3, 10, 3), scale: 1 / 32, margin: 15)
            let sobel = Self.referenceDerivative(source, smooth: (1, 2, 1), scale: 1, margin: 0)
            #expect((image.width == 1 || scharr.dx.storage.contains { $0 != 0 }) && scharr.dy.storage.contains { $0 != 0 }, "some gradient")
            ResamplingKernelTests.onEveryPath {
                let (dx, dy) = Gradients.scharr(source, margin: 15)
                #expect(Self.bits(dx) == Self.bits(scharr.dx) && Self.bits(dy) == Self.bits(scharr.dy), "Scharr \(image.width)×\(image.height)")
                let (sx, sy) = Gradients.sobel(source)
                #expect(sx.pixels.map(\.bitPattern) == sobel.dx.interior.pixels.map(\.bitPattern), "Sobel \(image.width)×\(image.height)")
                #expect(sy.pixels.map(\.bitPattern) == sobel.dy.interior.pixels.map(\.bitPattern))
            }
        }
    }

    // The Swift loops before issue 47, verbatim.

    static func referencePyrDown(_ src: BorderedImage, margin: Int) -> BorderedImage {
        precondition(src.margin >= 2, "ImagePyramid.pyrDown: the source needs a margin of at least 2 px")
        let w = src.width, dw = (w + 1) / 2, dh = (src.height + 1) / 2
        // Vertical pass over columns −2 … w + 1 (what the horizontal taps read).
        let span = w + 4
        let tmp = [Float](unsafeUninitializedCapacity: span * dh) { t, initialized in
            src.storage.withUnsafeBufferPointer { s in
                guard let sp = s.baseAddress, let tp = t.baseAddress else { return }
                for y in 0..<dh {
                    let r2 = sp + src.index(-2, 2 &* y), r1 = r2 - src.stride, r0 = r1 - src.stride
                    let r3 = r2 + src.stride, r4 = r3 + src.stride
                    let o = tp + y &* span
                    for x in 0..<span { o[x] = r0[x] + r4[x] + 4 * (r1[x] + r3[x]) + 6 * r2[x] }
                }
            }
            initialized = span * dh
        }
        return BorderedImage(width: dw, height: dh, margin: margin, border: .reflect101) { o, stride in
            tmp.withUnsafeBufferPointer { t in
                guard let tp = t.baseAddress else { return }
                // Eight outputs at a time: output x needs columns 2x − 2 … 2x + 2, i.e. the even
                // and odd columns of three overlapping 16-float loads (`evenHalf`, `oddHalf`).
                let vectorEnd = dw >= 9 ? (dw - 1) / 8 * 8 : 0  // reads stay within column w + 1
                for y in 0..<dh {
                    let row = tp + y &* span + 2, orow = o + y &* stride  // row[c] is column c
                    var x = 0
                    while x < vectorEnd {
                        let before = UnsafeRawPointer(row + (2 &* x &- 2)).loadUnaligned(as: SIMD16<Float>.self)
                        let here = UnsafeRawPointer(row + 2 &* x).loadUnaligned(as: SIMD16<Float>.self)
                        let after = UnsafeRawPointer(row + (2 &* x &+ 2)).loadUnaligned(as: SIMD16<Float>.self)
                        let sum = before.evenHalf + after.evenHalf + 4 * (before.oddHalf + here.oddHalf) + 6 * here.evenHalf
                        UnsafeMutableRawPointer(orow + x).storeBytes(of: sum * (1 / 256), as: SIMD8<Float>.self)
                        x &+= 8
                    }
                    while x < dw {
                        let c = 2 &* x
                        orow[x] = (row[c &- 2] + row[c &+ 2] + 4 * (row[c &- 1] + row[c &+ 1]) + 6 * row[c]) * (1 / 256)
                        x &+= 1
                    }
                }
            }
        }
    }


    static func referenceDerivative(_ image: BorderedImage, smooth k: (Float, Float, Float), scale: Float,
                           margin: Int) -> (dx: BorderedImage, dy: BorderedImage) {
        precondition(image.margin >= 1, "Gradients: the source needs a margin of at least 1 px")
        let w = image.width, h = image.height
        var smoothed = [Float](repeating: 0, count: w + 2), difference = [Float](repeating: 0, count: w + 2)
        var dy: BorderedImage?
        let dx = BorderedImage(width: w, height: h, margin: margin, border: .zero) { outX, outStride in
            dy = BorderedImage(width: w, height: h, margin: margin, border: .zero) { outY, _ in
                image.storage.withUnsafeBufferPointer { p in
                    smoothed.withUnsafeMutableBufferPointer { vb in
                        difference.withUnsafeMutableBufferPointer { db in
                            guard let base = p.baseAddress, let v = vb.baseAddress, let d = db.baseAddress else { return }
                            for y in 0..<h {
                                // Column −1 at index 0.
                                let mid = base + image.index(-1, y), up = mid - image.stride, down = mid + image.stride
                                for x in 0..<(w &+ 2) {
                                    v[x] = k.0 * up[x] + k.1 * mid[x] + k.2 * down[x]
                                    d[x] = down[x] - up[x]
                                }
                                let rowX = outX + y &* outStride, rowY = outY + y &* outStride
                                for x in 0..<w {
                                    rowX[x] = (v[x &+ 2] - v[x]) * scale
                                    rowY[x] = (k.0 * d[x] + k.1 * d[x &+ 1] + k.2 * d[x &+ 2]) * scale
                                }
                            }
                        }
                    }
                }
            }
        }
        guard let dy else { preconditionFailure("dy not written") }
        return (dx, dy)
    }

}
