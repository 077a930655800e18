import ParallaxImage

/// The census transform (Zabih & Woodfill): each pixel becomes a bit string saying which of its
/// neighbours in a window are darker than it. Two pixels' census distance (the Hamming distance
/// of their strings) is a matching cost that ignores gain and offset between two cameras and
/// degrades gracefully at depth edges, the usual cost of semi-global matching.
public enum CensusTransform {
    /// Largest window (in pixels) whose bits fit a `UInt64` (63 neighbours).
    public static let maxBits = 64

    /// The census of each pixel of `image` (8-bit gray, row-major; of several channels the first): bit `k` is set when the
    /// `k`-th neighbour (row-major over the `width × height` window around the pixel, the centre
    /// skipped) is darker than the centre. Outside the image the nearest border pixel stands in.
    /// The window's sides are odd and it holds at most 64 pixels (9 × 7 by default: 62 bits).
    public static func transform(_ image: ImageBuffer<UInt8>, windowWidth: Int = 9, windowHeight: Int = 7) -> [UInt64] {
        precondition(windowWidth % 2 == 1 && windowHeight % 2 == 1 && windowWidth * windowHeight <= maxBits,
                     "CensusTransform: the window must have odd sides and at most 64 pixels")
        let w = image.width, h = image.height
        guard w > 0, h > 0 else { return [] }
        let rx = windowWidth / 2, ry = windowHeight / 2
        var out = [UInt64](repeating: 0, count: w * h)
        // Rows padded by the window's half width on each side, so the inner loop needs no checks.
        let paddedWidth = w + 2 * rx
        var padded = [UInt8](repeating: 0, count: paddedWidth * windowHeight)
        image.withUnsafeSamples { source in
            out.withUnsafeMutableBufferPointer { destination in
                padded.withUnsafeMutableBufferPointer { window in
                    guard let src = source.baseAddress, let dst = destination.baseAddress, let rows = window.baseAddress else { return }
                    for y in 0..<h {
                        // The window's rows (clamped at the top and bottom), each padded at its ends.
                        for wy in 0..<windowHeight {
                            let line = src + min(max(y + wy - ry, 0), h - 1) * w * image.channels
                            let row = rows + wy * paddedWidth
                            for x in 0..<paddedWidth { row[x] = line[min(max(x - rx, 0), w - 1) * image.channels] }
                        }
                        let centreRow = rows + ry * paddedWidth + rx
                        for x in 0..<w {
                            let centre = centreRow[x]
                            var bits: UInt64 = 0
                            for wy in 0..<windowHeight {
                                let row = rows + wy * paddedWidth + x
                                for wx in 0..<windowWidth where wy != ry || wx != rx {
                                    bits = (bits << 1) | (row[wx] < centre ? 1 : 0)
                                }
                            }
                            dst[y * w + x] = bits
                        }
                    }
                }
            }
        }
        return out
    }
}
