import ParallaxImage

/// The census transform (Zabih & Woodfill): each pixel becomes a bit string saying which of its
/// neighbours in a window are darker than it. Two pixels' census distance (the Hamming distance
/// of their strings) is a matching cost that ignores gain and offset between two cameras and
/// degrades gracefully at depth edges, the usual cost of semi-global matching.
public enum CensusTransform {
    /// Largest window (in pixels) whose bits fit a `UInt64` (63 neighbours).
    public static let maxBits = 64

    /// The census of each pixel of `image` (8-bit gray, row-major; of several channels the first): one bit
    /// per neighbour in the `width × height` window around the pixel (row-major, the centre
    /// skipped), set when that neighbour is darker than the centre. Neighbours `8g …< 8g + 8`
    /// fill byte `g` (bits `8g …< 8g + 8`), the first of them the byte's most significant used
    /// bit. Outside the image the nearest border pixel stands in. The window's sides are odd and
    /// it holds at most 64 pixels (9 × 7 by default: 62 bits).
    ///
    /// Sixteen pixels at a time (SIMD): each neighbour is one vector comparison.
    public static func transform(_ image: ImageBuffer<UInt8>, windowWidth: Int = 9, windowHeight: Int = 7) -> [UInt64] {
        precondition(windowWidth % 2 == 1 && windowHeight % 2 == 1 && windowWidth * windowHeight <= maxBits,
                     "CensusTransform: the window must have odd sides and at most 64 pixels")
        let w = image.width, h = image.height
        guard w > 0, h > 0 else { return [] }
        let rx = windowWidth / 2, ry = windowHeight / 2
        let lanes = 16
        let blocks = (w + lanes - 1) / lanes
        // Whole blocks of 16 are written, the row's last one partly beyond `w`: room for it.
        var out = [UInt64](repeating: 0, count: (h - 1) * w + blocks * lanes)
        // Rows padded by the window's half width on each side (and to whole blocks at the end),
        // so the inner loop needs no checks.
        let paddedWidth = blocks * lanes + 2 * rx
        var padded = [UInt8](repeating: 0, count: paddedWidth * windowHeight)
        // The neighbours' offsets in the padded rows, row-major, the centre skipped.
        var offsets: [Int] = []
        for wy in 0..<windowHeight { for wx in 0..<windowWidth where wy != ry || wx != rx { offsets.append(wy * paddedWidth + wx) } }
        image.withUnsafeSamples { source in
            out.withUnsafeMutableBufferPointer { destination in
                padded.withUnsafeMutableBufferPointer { window in
                    offsets.withUnsafeBufferPointer { offsets in
                        guard let src = source.baseAddress, let dst = destination.baseAddress, let rows = window.baseAddress else { return }
                        for y in 0..<h {
                            // The window's rows (clamped at the top and bottom), each padded at its ends.
                            for wy in 0..<windowHeight {
                                let line = src + min(max(y + wy - ry, 0), h - 1) * w * image.channels
                                let row = rows + wy * paddedWidth
                                for x in 0..<paddedWidth { row[x] = line[min(max(x - rx, 0), w - 1) * image.channels] }
                            }
                            for block in 0..<blocks {
                                let x = block * lanes
                                let centre = load(rows + ry * paddedWidth + rx + x)
                                var bits = SIMD16<UInt64>(repeating: 0)
                                var byte = SIMD16<UInt8>(repeating: 0)
                                for (k, offset) in offsets.enumerated() {
                                    let darker = load(rows + offset + x) .< centre
                                    byte = (byte &+ byte) | SIMD16<UInt8>(repeating: 0).replacing(with: 1, where: darker)
                                    if k % 8 == 7 || k == offsets.count - 1 {
                                        bits |= SIMD16<UInt64>(truncatingIfNeeded: byte) &<< UInt64(8 * (k / 8))
                                        byte = SIMD16<UInt8>(repeating: 0)
                                    }
                                }
                                UnsafeMutableRawPointer(dst + y * w + x).storeBytes(of: bits, as: SIMD16<UInt64>.self)
                            }
                        }
                    }
                }
            }
        }
        out.removeLast(out.count - w * h)
        return out
    }

    @inline(__always) private static func load(_ p: UnsafeMutablePointer<UInt8>) -> SIMD16<UInt8> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self)
    }
}
