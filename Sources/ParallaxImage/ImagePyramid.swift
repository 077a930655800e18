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
            guard last.width / 2 >= 8, last.height / 2 >= 8 else { break }
            levels.append(Self.pyrDown(last))
        }
        self.levels = levels
    }

    /// Blur with [1 4 6 4 1]/16 in x and y, keep every second pixel.
    static func pyrDown(_ src: GrayImage) -> GrayImage {
        let w = src.width, h = src.height
        let dw = (w + 1) / 2, dh = (h + 1) / 2
        // Horizontal pass at the decimated columns, all rows.
        var tmp = [Float](repeating: 0, count: dw * h)
        src.pixels.withUnsafeBufferPointer { s in
            tmp.withUnsafeMutableBufferPointer { t in
                for y in 0..<h {
                    let row = y * w
                    for x in 0..<dw {
                        let c = 2 * x
                        if c >= 2 && c + 2 < w {
                            let q = row + c
                            t[y * dw + x] = (s[q - 2] + s[q + 2] + 4 * (s[q - 1] + s[q + 1]) + 6 * s[q]) * (1 / 16)
                        } else {
                            let xm2 = reflect(c - 2, w), xm1 = reflect(c - 1, w), xp1 = reflect(c + 1, w), xp2 = reflect(c + 2, w)
                            t[y * dw + x] = (s[row + xm2] + s[row + xp2] + 4 * (s[row + xm1] + s[row + xp1]) + 6 * s[row + c]) * (1 / 16)
                        }
                    }
                }
            }
        }
        var out = [Float](repeating: 0, count: dw * dh)
        tmp.withUnsafeBufferPointer { t in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<dh {
                    let c = 2 * y
                    let r0 = reflect(c - 2, h) * dw, r1 = reflect(c - 1, h) * dw, r2 = c * dw, r3 = reflect(c + 1, h) * dw, r4 = reflect(c + 2, h) * dw
                    for x in 0..<dw {
                        o[y * dw + x] = (t[r0 + x] + t[r4 + x] + 4 * (t[r1 + x] + t[r3 + x]) + 6 * t[r2 + x]) * (1 / 16)
                    }
                }
            }
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
