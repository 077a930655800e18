/// A Gaussian image pyramid: level 0 is the image, each next level half the size, smoothed
/// with the 5-tap binomial kernel [1 4 6 4 1]/16 before decimation (OpenCV's `pyrDown`),
/// borders reflected.
public struct ImagePyramid: Sendable {
    public let levels: [GrayImage]

    /// `maxLevel + 1` levels (stops early when a level would be smaller than 8 px).
    public init(_ image: GrayImage, maxLevel: Int) {
        var levels = [image]
        for _ in 0..<maxLevel {
            let last = levels.last!
            guard (last.width + 1) / 2 >= 8, (last.height + 1) / 2 >= 8 else { break }
            levels.append(Self.pyrDown(last))
        }
        self.levels = levels
    }

    /// Blur with [1 4 6 4 1]/16 in x and y, keep every second pixel. The vertical pass runs
    /// first, over whole contiguous rows but only the kept ones (it vectorizes); the horizontal
    /// pass then touches half the rows.
    static func pyrDown(_ src: GrayImage) -> GrayImage {
        let w = src.width, h = src.height
        let dw = (w + 1) / 2, dh = (h + 1) / 2
        // Both buffers are written in full: allocated without a zero fill.
        let tmp = [Float](unsafeUninitializedCapacity: w * dh) { t, initialized in
            src.pixels.withUnsafeBufferPointer { s in
                guard let sp = s.baseAddress, let tp = t.baseAddress else { return }
                for y in 0..<dh {
                    let c = 2 &* y
                    let r0 = sp + reflect(c &- 2, h) &* w, r1 = sp + reflect(c &- 1, h) &* w, r2 = sp + c &* w
                    let r3 = sp + reflect(c &+ 1, h) &* w, r4 = sp + reflect(c &+ 2, h) &* w
                    let o = tp + y &* w
                    for x in 0..<w { o[x] = r0[x] + r4[x] + 4 * (r1[x] + r3[x]) + 6 * r2[x] }
                }
            }
            initialized = w * dh
        }
        let out = [Float](unsafeUninitializedCapacity: dw * dh) { o, initialized in
            tmp.withUnsafeBufferPointer { t in
                guard let tp = t.baseAddress, let op = o.baseAddress else { return }
                // Output columns whose five taps 2x−2 … 2x+2 are all inside the row.
                let interiorEnd = max(1, min(dw, (w &- 3) / 2 &+ 1))
                for y in 0..<dh {
                    let row = tp + y &* w, orow = op + y &* dw
                    @inline(__always) func edge(_ x: Int) {
                        let c = 2 &* x
                        let xm2 = reflect(c &- 2, w), xm1 = reflect(c &- 1, w), xp1 = reflect(c &+ 1, w), xp2 = reflect(c &+ 2, w)
                        orow[x] = (row[xm2] + row[xp2] + 4 * (row[xm1] + row[xp1]) + 6 * row[c]) * (1 / 256)
                    }
                    edge(0)
                    for x in 1..<max(1, interiorEnd) {
                        let c = 2 &* x
                        orow[x] = (row[c &- 2] + row[c &+ 2] + 4 * (row[c &- 1] + row[c &+ 1]) + 6 * row[c]) * (1 / 256)
                    }
                    for x in max(1, interiorEnd)..<dw { edge(x) }
                }
            }
            initialized = dw * dh
        }
        return GrayImage(width: dw, height: dh, pixels: out)
    }

    /// Reflect-101 border (OpenCV's default): −1 → 1, w → w − 2.
    @inline(__always) public static func reflect(_ i: Int, _ n: Int) -> Int {
        if i < 0 { return min(-i, n - 1) }
        if i >= n { return max(2 * n - 2 - i, 0) }
        return i
    }
}
