import CFeatureKernels
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
    ///
    /// The test runs in CFeatureKernels (eight pixels per AVX2 instruction where the processor
    /// has it, a portable loop otherwise; both give the same scores): a quick rejection — any 9
    /// contiguous circle pixels include at least 2 of the 4 compass pixels (0, 4, 8, 12) — then
    /// the 16 comparisons as bit masks, the arc test on the masks and the score summed in circle
    /// order.
    public func scores(_ image: GrayImage) -> GrayImage {
        let w = image.width, h = image.height
        let offsets = Self.circle.map { $0.1 * w + $0.0 }
        let b = max(3, border)
        let count = w * h
        let out = [Float](unsafeUninitializedCapacity: count) { o, initialized in
            image.pixels.withUnsafeBufferPointer { p in
                guard let base = p.baseAddress, let scores = o.baseAddress else { return }
                pxl_fast_scores(base, w, h, b, threshold, offsets, scores)
            }
            initialized = count
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
