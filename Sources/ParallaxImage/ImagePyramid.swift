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
    /// reflected margin of `margin` px. The vertical pass runs first, over whole contiguous
    /// rows (it vectorizes) but only the kept ones; the horizontal pass then touches half the
    /// rows. The source's reflected margin (≥ 2 px) supplies the taps past the edges.
    static func pyrDown(_ src: BorderedImage, margin: Int) -> BorderedImage {
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

    /// Reflect-101 border (OpenCV's default): −1 → 1, w → w − 2.
    @inline(__always) public static func reflect(_ i: Int, _ n: Int) -> Int {
        if i < 0 { return min(-i, n - 1) }
        if i >= n { return max(2 * n - 2 - i, 0) }
        return i
    }
}
