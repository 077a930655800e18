import ParallaxImage
import ParallaxMath

/// FAST-9 corners (Rosten & Drummond): a pixel is a corner when 9 contiguous pixels of the
/// 16-pixel Bresenham circle of radius 3 are all brighter than it by more than `threshold`, or
/// all darker. Score: the sum of absolute differences over the circle pixels beyond the
/// threshold; 3×3 non-maximum suppression; then strongest first with `minDistance`, like
/// ``ShiTomasiDetector``.
public struct FASTDetector: Sendable {
    /// Intensity difference (gray levels); default 20.
    public var threshold: Float = 20
    public var maxCorners = 200
    public var minDistance: Float = 10
    /// Pixels this close to the border are ignored (px, at least 3); default 4.
    public var border = 4

    public init() {}

    /// The circle offsets (dx, dy), clockwise from the top.
    static let circle: [(Int, Int)] = [(0, -3), (1, -3), (2, -2), (3, -1), (3, 0), (3, 1), (2, 2), (1, 3),
                                       (0, 3), (-1, 3), (-2, 2), (-3, 1), (-3, 0), (-3, -1), (-2, -2), (-1, -3)]

    /// Score image: 0 where the segment test fails.
    public func scores(_ image: GrayImage) -> GrayImage {
        let w = image.width, h = image.height
        var out = [Float](repeating: 0, count: w * h)
        let offsets = Self.circle.map { $0.1 * w + $0.0 }
        let b = max(3, border)
        let threshold = threshold
        image.pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                offsets.withUnsafeBufferPointer { off in
                    guard let base = p.baseAddress, let scores = o.baseAddress else { return }
                    let north = off[0], east = off[4], south = off[8], west = off[12]
                    for y in b..<max(b, h &- b) {
                        for x in b..<max(b, w &- b) {
                            let i = y &* w &+ x
                            let c = base[i]
                            // Quick rejection: any 9 contiguous circle pixels include at least 2 of
                            // the 4 compass pixels (0, 4, 8, 12), so fewer than 2 passing compass
                            // pixels rule it out.
                            let hi = c + threshold, lo = c - threshold
                            let n = base[i &+ north], e = base[i &+ east], s = base[i &+ south], wv = base[i &+ west]
                            let brighter = (n > hi ? 1 : 0) &+ (e > hi ? 1 : 0) &+ (s > hi ? 1 : 0) &+ (wv > hi ? 1 : 0)
                            let darker = (n < lo ? 1 : 0) &+ (e < lo ? 1 : 0) &+ (s < lo ? 1 : 0) &+ (wv < lo ? 1 : 0)
                            guard brighter >= 2 || darker >= 2 else { continue }
                            var bright: UInt32 = 0, dark: UInt32 = 0
                            var score: Float = 0
                            // Branch-free: the comparisons become flags, the score terms maxima.
                            for k in 0..<16 {
                                let v = base[i &+ off[k]]
                                bright |= UInt32(v > hi ? 1 : 0) &<< UInt32(k)
                                dark |= UInt32(v < lo ? 1 : 0) &<< UInt32(k)
                                score += max(v - hi, 0) + max(lo - v, 0)
                            }
                            if Self.hasArc(bright) || Self.hasArc(dark) { scores[i] = score }
                        }
                    }
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// Whether `mask` (bit k = circle pixel k passed) has 9 contiguous set bits, wrapping.
    @inline(__always) static func hasArc(_ mask: UInt32) -> Bool {
        let m = mask | mask << 16
        var run = m
        for k in 1..<9 { run &= m >> k }
        return run != 0
    }

    /// Corners, strongest first, at least `minDistance` apart and from `occupied`.
    public func detect(_ image: GrayImage, occupied: [Vector2] = []) -> [ShiTomasiDetector.Corner] {
        var selector = ShiTomasiDetector()
        selector.maxCorners = maxCorners
        selector.minDistance = minDistance
        selector.quality = 1e-6  // any positive FAST score is a corner
        return selector.select(scores(image), occupied: occupied)
    }
}
