import CFeatureKernels

/// A Gaussian image pyramid: level 0 is the image, each next level half the size, smoothed
/// with the 5-tap binomial kernel [1 4 6 4 1]/16 before decimation (OpenCV's `pyrDown`),
/// borders reflected. Every level keeps a reflected margin (``BorderedImage``), so filters and
/// tracking windows read past the edges without border arithmetic.
public struct ImagePyramid: Sendable {
    public let levels: [BorderedImage]

    /// `maxLevel + 1` levels (stops early when a level would be smaller than 8 px), each with
    /// a reflected margin of `margin` px (at least 2, what `pyrDown` reads).
    public init(_ image: GrayImage, maxLevel: Int, margin: Int = 2) {
        var levels = [BorderedImage(image, margin: max(2, margin), border: .reflect101)]
        for _ in 0..<maxLevel {
            let last = levels.last!
            guard (last.width + 1) / 2 >= 8, (last.height + 1) / 2 >= 8 else { break }
            levels.append(Self.pyrDown(last, margin: max(2, margin)))
        }
        self.levels = levels
    }

    /// One level down, as a plain image.
    public static func pyrDown(_ src: GrayImage) -> GrayImage {
        pyrDown(BorderedImage(src, margin: 2, border: .reflect101), margin: 0).interior
    }

    /// Blur with [1 4 6 4 1]/16 in x and y, keep every second pixel; the result gets a
    /// reflected margin of `margin` px. Row by row: the vertical pass over the five source rows
    /// around each kept row, then the horizontal pass on every second column; the source's
    /// reflected margin (≥ 2 px) supplies the taps past the edges. In C (`pxl_pyr_down`: AVX2
    /// or portable, the same bits as the Swift loops it replaced).
    static func pyrDown(_ src: BorderedImage, margin: Int) -> BorderedImage {
        precondition(src.margin >= 2, "ImagePyramid.pyrDown: the source needs a margin of at least 2 px")
        let w = src.width, h = src.height, dw = (w + 1) / 2, dh = (h + 1) / 2
        // One vertically filtered row: columns −2 … w + 1.
        var scratch = [Float](repeating: 0, count: w + 4)
        return BorderedImage(width: dw, height: dh, margin: margin, border: .reflect101) { o, stride in
            src.storage.withUnsafeBufferPointer { s in
                scratch.withUnsafeMutableBufferPointer { t in
                    guard let sp = s.baseAddress, let tp = t.baseAddress else { return }
                    pxl_pyr_down(sp + src.index(0, 0), src.stride, w, h, o, stride, tp)
                }
            }
        }
    }

    /// Reflect-101 border (OpenCV's default): −1 → 1, w → w − 2.
    @inline(__always) public static func reflect(_ i: Int, _ n: Int) -> Int {
        if i < 0 { return min(-i, n - 1) }
        if i >= n { return max(2 * n - 2 - i, 0) }
        return i
    }
}
