

/// A single-channel `Float` image, row-major, the working type of image algorithms
/// (intensities in 0…255 when converted from 8-bit).
public struct GrayImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [Float]

    /// An image filled with `value`.
    public init(width: Int, height: Int, value: Float = 0) {
        self.width = width
        self.height = height
        pixels = [Float](repeating: value, count: width * height)
    }

    /// An image over `pixels` (count must be `width · height`).
    public init(width: Int, height: Int, pixels: [Float]) {
        precondition(pixels.count == width * height, "GrayImage: pixel count does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// From an 8-bit image (gray, or RGB converted with BT.601 luma).
    public init(_ image: ImageBuffer<UInt8>) {
        width = image.width
        height = image.height
        if image.channels == 1 {
            // A plain loop over raw buffers vectorizes; `map` with a closure did not (a tracker
            // converts every frame).
            let n = image.width * image.height
            pixels = [Float](unsafeUninitializedCapacity: n) { out, initialized in
                image.samples.withUnsafeBufferPointer { s in
                    for i in 0..<n { out[i] = Float(s[i]) }
                }
                initialized = n
            }
        } else {
            pixels = (0..<(image.width * image.height)).map { i in
                0.299 * Float(image.samples[3 * i]) + 0.587 * Float(image.samples[3 * i + 1]) + 0.114 * Float(image.samples[3 * i + 2])
            }
        }
    }

    /// Pixel `(x, y)`.
    @inlinable public subscript(x: Int, y: Int) -> Float {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Bilinear interpolation at `(x, y)` (pixel centres at integers); the caller keeps
    /// `0 ≤ x < width − 1`, `0 ≤ y < height − 1`.
    @inlinable public func bilinear(_ x: Float, _ y: Float) -> Float {
        let x0 = Int(x), y0 = Int(y)
        let fx = x - Float(x0), fy = y - Float(y0)
        let i = y0 * width + x0
        return pixels.withUnsafeBufferPointer { p in
            let a = p[i], b = p[i + 1], c = p[i + width], d = p[i + width + 1]
            return (a + (b - a) * fx) * (1 - fy) + (c + (d - c) * fx) * fy
        }
    }
}
