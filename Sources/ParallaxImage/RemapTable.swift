/// A precomputed resampling: for each destination pixel, the source position it reads
/// (px, row-major), NaN where it reads nothing (OpenCV's `remap` with a float map). Built once
/// (e.g. from a rectification), applied to every frame with bilinear interpolation in fixed
/// point: the weights are rounded to 1/32 px once, so each frame costs four loads and integer
/// arithmetic per pixel and the result does not depend on the platform's floating point.
public struct RemapTable: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// The source image size the table reads.
    public let sourceWidth: Int
    public let sourceHeight: Int
    /// Per destination pixel: the index of the top-left source sample, or −1 (no source).
    private let origins: [Int32]
    /// Per destination pixel: the horizontal and vertical weights of the right and lower samples (0…32).
    private let weights: [SIMD2<UInt8>]

    public enum TableError: Error, Equatable, CustomStringConvertible {
        case sizeMismatch(expected: Int, x: Int, y: Int)
        case sourceSizeMismatch(expected: String, got: String)

        public var description: String {
            switch self {
            case let .sizeMismatch(n, x, y): return "a remap table of \(n) pixels got \(x) x and \(y) y positions"
            case let .sourceSizeMismatch(e, g): return "the remap table reads \(e) images, got \(g)"
            }
        }
    }

    /// A table of `width × height` positions `x`, `y` into images of `sourceWidth × sourceHeight`.
    /// Positions outside the image (more than half a pixel) or not finite read nothing.
    public init(width: Int, height: Int, x: [Float], y: [Float], sourceWidth: Int, sourceHeight: Int) throws {
        guard x.count == width * height, y.count == width * height else {
            throw TableError.sizeMismatch(expected: width * height, x: x.count, y: y.count)
        }
        self.width = width
        self.height = height
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        var origins = [Int32](repeating: -1, count: width * height)
        var weights = [SIMD2<UInt8>](repeating: .zero, count: width * height)
        let maxX = Float(sourceWidth - 1), maxY = Float(sourceHeight - 1)
        for i in 0..<(width * height) {
            let sx = x[i], sy = y[i]
            guard sx.isFinite, sy.isFinite, sx >= -0.5, sy >= -0.5, sx <= maxX + 0.5, sy <= maxY + 0.5, sourceWidth > 1, sourceHeight > 1 else { continue }
            // Clamp to the last cell so that the four samples exist; positions are in 1/32 px.
            let cx = min(max(sx, 0), maxX), cy = min(max(sy, 0), maxY)
            let fx = Int((cx * 32).rounded()), fy = Int((cy * 32).rounded())
            var x0 = fx >> 5, y0 = fy >> 5, wx = fx & 31, wy = fy & 31
            if x0 >= sourceWidth - 1 { x0 = sourceWidth - 2; wx = 32 }
            if y0 >= sourceHeight - 1 { y0 = sourceHeight - 2; wy = 32 }
            origins[i] = Int32(y0 * sourceWidth + x0)
            weights[i] = SIMD2(UInt8(wx), UInt8(wy))
        }
        self.origins = origins
        self.weights = weights
    }

    /// `image` resampled through the table; `fill` where the table reads nothing.
    public func apply(to image: ImageBuffer<UInt8>, fill: UInt8 = 0) throws -> ImageBuffer<UInt8> {
        guard image.width == sourceWidth, image.height == sourceHeight, image.channels == 1 else {
            throw TableError.sourceSizeMismatch(expected: "\(sourceWidth)×\(sourceHeight)×1", got: "\(image.width)×\(image.height)×\(image.channels)")
        }
        var out = [UInt8](repeating: fill, count: width * height)
        let stride = sourceWidth
        image.withUnsafeSamples { src in
            origins.withUnsafeBufferPointer { o in
                weights.withUnsafeBufferPointer { w in
                    out.withUnsafeMutableBufferPointer { dst in
                        for i in 0..<dst.count {
                            let origin = Int(o[i])
                            guard origin >= 0 else { continue }
                            let wx = Int(w[i].x), wy = Int(w[i].y)
                            let a = Int(src[origin]), b = Int(src[origin + 1])
                            let c = Int(src[origin + stride]), d = Int(src[origin + stride + 1])
                            let top = a * (32 - wx) + b * wx, bottom = c * (32 - wx) + d * wx
                            dst[i] = UInt8((top * (32 - wy) + bottom * wy + 512) >> 10)
                        }
                    }
                }
            }
        }
        return ImageBuffer(width: width, height: height, samples: out)
    }

    /// Whether destination pixel `(x, y)` reads a source.
    public func covers(x: Int, y: Int) -> Bool { origins[y * width + x] >= 0 }
}
