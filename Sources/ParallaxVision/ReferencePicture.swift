import ParallaxImage
import ParallaxMath

/// A known picture to find in camera frames (a poster, a marker, a card), with its physical
/// width: its ORB features, and the metric position of each of its pixels. Rejected at the
/// start, with the reason, when it has too little texture to be found (as ARKit rejects such
/// reference images): fewer than ``minimumFeatures`` distinctive points, or points in fewer
/// than ``minimumCells`` of the 3 × 3 cells of the picture (a logo on a blank sheet).
public struct ReferencePicture: Sendable {
    public static let minimumFeatures = 40
    public static let minimumCells = 4

    /// Why a picture cannot be a reference.
    public enum Rejection: Error, Equatable, Sendable, CustomStringConvertible {
        case notPositive(width: Double)
        case tooSmall(width: Int, height: Int)
        case tooLittleTexture(features: Int, cells: Int)

        public var description: String {
            switch self {
            case let .notPositive(width): return "its physical width must be > 0 m (got \(width))"
            case let .tooSmall(w, h): return "it is \(w)×\(h) px: at least 64 px on each side is needed"
            case let .tooLittleTexture(features, cells):
                return "too little texture to be found: \(features) distinctive points in \(cells) of its 9 cells "
                    + "(at least \(ReferencePicture.minimumFeatures) points spread over \(ReferencePicture.minimumCells) cells are needed)"
            }
        }
    }

    public let name: String
    public let image: GrayImage
    /// Physical size (m).
    public let physicalWidth: Double
    public var physicalHeight: Double { physicalWidth * Double(image.height) / Double(image.width) }
    /// Its ORB features, at its own size and halvings of it (positions in its own pixels).
    public let features: [ORBFeature]

    public init(name: String, image: GrayImage, physicalWidth: Double, extractor: ORBExtractor = ReferencePicture.extractor) throws {
        guard physicalWidth.isFinite, physicalWidth > 0 else { throw Rejection.notPositive(width: physicalWidth) }
        guard image.width >= 64, image.height >= 64 else { throw Rejection.tooSmall(width: image.width, height: image.height) }
        self.name = name
        self.image = image
        self.physicalWidth = physicalWidth
        // Described at its own size and at every halving down to about 50 px wide, so it is
        // found from near and from far (one ORB pyramid spans 1.2⁷ ≈ 3.6×; a poster seen across
        // a room can be 10× smaller than its file). The halvings are framed by a band of their
        // mean gray as wide as ORB's margin, so points near their edges are kept: a small
        // version would otherwise lose most of its area to the margin.
        var all = extractor.extract(image)
        var factor = 2
        while image.width / factor >= 48, image.height / factor >= 32 {
            let small = image.resized(width: image.width / factor, height: image.height / factor)
            let sx = Double(image.width) / Double(small.width), sy = Double(image.height) / Double(small.height)
            var level = extractor
            level.maxFeatures = max(200, extractor.maxFeatures / 2)
            all += Self.features(framed: small, extractor: level).map { f in
                var g = f
                g.pixel = Vector2((f.pixel.x + 0.5) * sx - 0.5, (f.pixel.y + 0.5) * sy - 0.5)
                g.scale = f.scale * Float(sx)
                return g
            }
            factor *= 2
        }
        features = all
        var cells = Set<Int>()
        for f in features {
            let cx = min(2, max(0, Int(3 * (f.pixel.x + 0.5) / Double(image.width))))
            let cy = min(2, max(0, Int(3 * (f.pixel.y + 0.5) / Double(image.height))))
            cells.insert(cy * 3 + cx)
        }
        guard features.count >= Self.minimumFeatures, cells.count >= Self.minimumCells else {
            throw Rejection.tooLittleTexture(features: features.count, cells: cells.count)
        }
    }

    /// ORB features of `image` framed by a band of its mean gray (ORB's margin wide), in the
    /// image's own pixels; those in the band or on the image's edge (where the band made the
    /// corner) are dropped.
    static func features(framed image: GrayImage, extractor: ORBExtractor) -> [ORBFeature] {
        let band = extractor.margin
        let w = image.width + 2 * band, h = image.height + 2 * band
        let mean = image.pixels.reduce(0, +) / Float(max(1, image.pixels.count))
        var padded = [Float](repeating: mean, count: w * h)
        for y in 0..<image.height {
            for x in 0..<image.width { padded[(y + band) * w + x + band] = image.pixels[y * image.width + x] }
        }
        return extractor.extract(GrayImage(width: w, height: h, pixels: padded)).compactMap { f in
            var g = f
            g.pixel -= Vector2(Double(band), Double(band))
            let inset = 3 * Double(f.scale)
            guard g.pixel.x >= inset, g.pixel.y >= inset, g.pixel.x <= Double(image.width - 1) - inset, g.pixel.y <= Double(image.height - 1) - inset else { return nil }
            return g
        }
    }

    /// The extractor reference pictures are described with: 1000 features over 8 levels.
    public static let extractor: ORBExtractor = {
        var e = ORBExtractor()
        e.maxFeatures = 1000
        return e
    }()

    /// A picture pixel (pixel centres at integers) on the picture's plane (m; origin at its
    /// centre, x right, y down).
    public func metric(_ pixel: Vector2) -> Vector2 {
        Vector2(((pixel.x + 0.5) / Double(image.width) - 0.5) * physicalWidth, ((pixel.y + 0.5) / Double(image.height) - 0.5) * physicalHeight)
    }

    /// Its corners in picture pixels: top-left, top-right, bottom-right, bottom-left (the
    /// image's outer edges).
    public var cornerPixels: [Vector2] {
        let w = Double(image.width), h = Double(image.height)
        return [Vector2(-0.5, -0.5), Vector2(w - 0.5, -0.5), Vector2(w - 0.5, h - 0.5), Vector2(-0.5, h - 0.5)]
    }
}
