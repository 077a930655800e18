import ParallaxImage
import ParallaxMath

extension ORBExtractor {
    /// ORB descriptors of `image` (full resolution) at given `pixels` — corners another detector
    /// found (KLT's), so points tracked by one can be matched by descriptor later — each oriented
    /// by its intensity centroid as ``extract(_:)`` does; `nil` for a pixel nearer than
    /// ``border`` (at least 20 px) to the image's edge, where the pattern does not fit.
    public func describe(_ image: GrayImage, at pixels: [Vector2]) -> [BinaryDescriptor?] {
        guard !pixels.isEmpty else { return [] }
        let smoothed = image.gaussianBlurred(sigma: 2, radius: 3)
        let m = margin
        return pixels.map { p in
            guard p.x.isFinite, p.y.isFinite else { return nil }
            let x = Int(p.x.rounded()), y = Int(p.y.rounded())
            guard x >= m, y >= m, x < image.width - m, y < image.height - m else { return nil }
            let angle = Self.orientation(image, x: x, y: y)
            return Self.describe(smoothed, x: x, y: y, angle: angle, pattern: .standard)
        }
    }
}
