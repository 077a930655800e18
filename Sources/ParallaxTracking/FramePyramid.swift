import ParallaxImage

/// One frame for the tracker: the gray image and, made only when a window needs them, its
/// half-size levels (OpenCV's `pyrDown`), so that a window far larger than the template is
/// read from a level where bilinear sampling does not alias.
public struct FramePyramid: Sendable {
    /// Level 0 is the frame; level `L` is `2^L` times smaller.
    public private(set) var levels: [GrayImage]

    public init(_ image: GrayImage) { levels = [image] }

    public var width: Int { levels[0].width }
    public var height: Int { levels[0].height }

    /// Level `level`, made (and kept) on first use; the last level there is when the image
    /// gets too small to halve (below 8 px).
    mutating func level(_ level: Int) -> (image: GrayImage, level: Int) {
        while levels.count <= level {
            guard let last = levels.last, last.width >= 16, last.height >= 16 else { break }
            levels.append(ImagePyramid.pyrDown(last))
        }
        let l = min(level, levels.count - 1)
        return (levels[l], l)
    }

    /// The window of `windowWidth × windowHeight` px centred at `(cx, cy)` (frame px, pixel
    /// centres at integers), resampled to `width × height` px bilinearly from the level whose
    /// step is the largest power of two not above the window's scale; outside the frame the
    /// border pixels repeat.
    public mutating func window(centerX cx: Double, centerY cy: Double, windowWidth: Double, windowHeight: Double,
                                width: Int, height: Int) -> GrayImage {
        let scale = min(windowWidth / Double(width), windowHeight / Double(height))
        var wanted = 0
        while wanted < 6, scale >= Double(2 << wanted) { wanted += 1 }
        let (image, level) = self.level(wanted)
        let step = Double(1 << level)
        let sx = windowWidth / Double(width) / step, sy = windowHeight / Double(height) / step
        // Destination pixel x's centre lies at cx − W/2 + (x + ½)·W/width in the frame (pixel
        // centres at integers); level L's pixel j sits on the frame's pixel 2^L·j.
        let x0 = (cx - windowWidth / 2 + 0.5 * windowWidth / Double(width)) / step
        let y0 = (cy - windowHeight / 2 + 0.5 * windowHeight / Double(height)) / step
        let maxX = Float(image.width - 1), maxY = Float(image.height - 1)
        var out = [Float](repeating: 0, count: width * height)
        let iw = image.width
        image.pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<height {
                    let fy = min(max(Float(y0 + Double(y) * sy), 0), maxY)
                    let yi = min(Int(fy), max(image.height - 2, 0)), yj = min(yi + 1, image.height - 1)
                    let wy = fy - Float(yi)
                    for x in 0..<width {
                        let fx = min(max(Float(x0 + Double(x) * sx), 0), maxX)
                        let xi = min(Int(fx), max(iw - 2, 0)), xj = min(xi + 1, iw - 1)
                        let wx = fx - Float(xi)
                        let top = p[yi * iw + xi] + (p[yi * iw + xj] - p[yi * iw + xi]) * wx
                        let bottom = p[yj * iw + xi] + (p[yj * iw + xj] - p[yj * iw + xi]) * wx
                        o[y * width + x] = top + (bottom - top) * wy
                    }
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }
}
