/// A `GrayImage` stored inside a margin of `margin` pixels on every side, so that windows and
/// filter taps reaching past the image edge are read without bounds checks or border
/// arithmetic (how OpenCV's pyramidal LK pads its pyramid and derivative images).
public struct BorderedImage: Sendable {
    /// How the margin is filled.
    public enum Border: Sendable {
        /// Mirrored without repeating the edge pixel (OpenCV's `BORDER_REFLECT_101`): −1 → 1.
        case reflect101
        /// Zeros (for derivative images: no gradient outside the image).
        case zero
    }

    /// Size of the image proper (px).
    public let width: Int
    public let height: Int
    /// Margin on each side (px).
    public let margin: Int
    /// Floats per stored row: `width + 2 · margin`.
    public let stride: Int
    /// Rows of `stride` floats, `height + 2 · margin` of them; pixel `(x, y)` at ``index(_:_:)``.
    public internal(set) var storage: [Float]

    /// `image` copied into the middle of a margin filled by `border`.
    public init(_ image: GrayImage, margin: Int, border: Border) {
        self.init(width: image.width, height: image.height, margin: margin, border: border) { interior, stride in
            image.pixels.withUnsafeBufferPointer { src in
                guard let s = src.baseAddress else { return }
                for y in 0..<image.height { (interior + y * stride).initialize(from: s + y * image.width, count: image.width) }
            }
        }
    }

    /// An image whose interior `write` fills completely, given a pointer to pixel (0, 0) and
    /// the row stride; then the margin is filled by `border`. No zero fill first: every float
    /// is written exactly once.
    init(width: Int, height: Int, margin: Int, border: Border, write: (UnsafeMutablePointer<Float>, Int) -> Void) {
        precondition(margin >= 0 && width > 0 && height > 0, "BorderedImage: empty image or negative margin")
        self.width = width
        self.height = height
        self.margin = margin
        let stride = width + 2 * margin, count = stride * (height + 2 * margin)
        self.stride = stride
        storage = [Float](unsafeUninitializedCapacity: count) { out, initialized in
            write(out.baseAddress! + margin * stride + margin, stride)
            initialized = count
        }
        fillMargin(border)
    }

    /// Fills the margin from the interior (reflect-101) or with zeros; writes every margin float.
    public mutating func fillMargin(_ border: Border) {
        guard margin > 0 else { return }
        let w = width, h = height, m = margin, stride = stride
        storage.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in 0..<h {
                let row = base + (y + m) * stride + m
                if border == .zero {
                    (row - m).update(repeating: 0, count: m)
                    (row + w).update(repeating: 0, count: m)
                } else if m < w {  // mirror: −x ↔ x, (w − 1) + x ↔ (w − 1) − x
                    for x in 1...m {
                        row[-x] = row[x]
                        row[w - 1 + x] = row[w - 1 - x]
                    }
                } else {
                    for x in 1...m {
                        row[-x] = row[ImagePyramid.reflect(-x, w)]
                        row[w - 1 + x] = row[ImagePyramid.reflect(w - 1 + x, w)]
                    }
                }
            }
            for y in 1...m {
                let above = base + (m - y) * stride, below = base + (m + h - 1 + y) * stride
                if border == .zero {
                    above.update(repeating: 0, count: stride)
                    below.update(repeating: 0, count: stride)
                } else {
                    above.update(from: base + (m + ImagePyramid.reflect(-y, h)) * stride, count: stride)
                    below.update(from: base + (m + ImagePyramid.reflect(h - 1 + y, h)) * stride, count: stride)
                }
            }
        }
    }

    /// Storage index of pixel `(x, y)`; valid for `−margin ≤ x < width + margin` (likewise y).
    @inlinable public func index(_ x: Int, _ y: Int) -> Int { (y + margin) * stride + x + margin }

    /// Pixel `(x, y)`, inside the image or its margin.
    @inlinable public subscript(x: Int, y: Int) -> Float { storage[index(x, y)] }

    /// The image without its margin.
    public var interior: GrayImage {
        if margin == 0 { return GrayImage(width: width, height: height, pixels: storage) }
        var pixels: [Float] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height { pixels += storage[index(0, y)..<index(width, y)] }
        return GrayImage(width: width, height: height, pixels: pixels)
    }
}
