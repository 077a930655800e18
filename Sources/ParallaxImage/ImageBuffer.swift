/// A 2D array of pixels with copy-on-write storage (rows contiguous, no padding).
///
/// Copies share one buffer until one of them writes, so an image fanned out to ten
/// analyzers is stored once. `Pixel` is `UInt8` for 8-bit images (gray, or RGB interleaved
/// with `channels == 3`), `UInt16` for raw depth, `Float` for metric depth.
public struct ImageBuffer<Pixel: Sendable & Equatable>: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Interleaved channels per pixel (1 gray, 3 RGB).
    public let channels: Int
    /// Row-major samples, `width * height * channels` of them.
    public private(set) var samples: [Pixel]

    /// An image over `samples`; the count must be `width * height * channels`.
    public init(width: Int, height: Int, channels: Int = 1, samples: [Pixel]) {
        precondition(width >= 0 && height >= 0 && channels >= 1 && samples.count == width * height * channels,
                     "ImageBuffer: \(samples.count) samples do not fill \(width)×\(height)×\(channels)")
        self.width = width
        self.height = height
        self.channels = channels
        self.samples = samples
    }

    /// An image filled with `value`.
    public init(width: Int, height: Int, channels: Int = 1, repeating value: Pixel) {
        self.init(width: width, height: height, channels: channels,
                  samples: [Pixel](repeating: value, count: width * height * channels))
    }

    /// The sample at column `x`, row `y`, channel `c`.
    public subscript(x: Int, y: Int, c: Int = 0) -> Pixel {
        get { samples[(y * width + x) * channels + c] }
        set { samples[(y * width + x) * channels + c] = newValue }
    }

    /// Read access to the contiguous samples.
    public func withUnsafeSamples<R>(_ body: (UnsafeBufferPointer<Pixel>) throws -> R) rethrows -> R {
        try samples.withUnsafeBufferPointer(body)
    }

    /// Whether two images share the same storage (no copy happened).
    public func sharesStorage(with other: ImageBuffer) -> Bool {
        samples.withUnsafeBufferPointer { a in other.samples.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }
}
