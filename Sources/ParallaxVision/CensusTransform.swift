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
        // The image padded once by the window's half sizes (the nearest border pixel repeated,
        // and to whole blocks at the right), each value XOR 0x80 so that an unsigned "darker"
        // is one signed comparison: the inner loop needs no checks.
        let paddedWidth = blocks * lanes + 2 * rx, paddedHeight = h + 2 * ry
        var padded = [Int8](repeating: 0, count: paddedWidth * paddedHeight)
        // The neighbours' offsets in the padded image, row-major, the centre skipped.
        var offsets: [Int] = []
        for wy in 0..<windowHeight { for wx in 0..<windowWidth where wy != ry || wx != rx { offsets.append(wy * paddedWidth + wx) } }
        let offsetCount = offsets.count
        image.withUnsafeSamples { source in
            out.withUnsafeMutableBufferPointer { destination in
                padded.withUnsafeMutableBufferPointer { paddedBuffer in
                    offsets.withUnsafeBufferPointer { offsets in
                        guard let src = source.baseAddress, let dst = destination.baseAddress, let pixels = paddedBuffer.baseAddress,
                              let offsets = offsets.baseAddress else { return }
                        for py in 0..<paddedHeight {
                            let line = src + min(max(py - ry, 0), h - 1) * w * image.channels
                            let row = pixels + py * paddedWidth
                            for px in 0..<paddedWidth { row[px] = Int8(bitPattern: line[min(max(px - rx, 0), w - 1) * image.channels] ^ 0x80) }
                        }
                        // Per block: one byte vector per 8 neighbours (pixel i in lane i), then
                        // transposed into 16 words (pixel i's bytes in word i).
                        for y in 0..<h {
                            for block in 0..<blocks {
                                let corner = pixels + y * paddedWidth + block * lanes
                                let centre = load(corner + ry * paddedWidth + rx)
                                /// Byte `g`: neighbours 8g …< 8g + 8, the first in the most significant bit used.
                                func byte(_ g: Int) -> SIMD16<UInt8> {
                                    var byte = SIMD16<UInt8>(repeating: 0)
                                    for k in min(8 * g, offsetCount)..<min(8 * g + 8, offsetCount) {
                                        byte = (byte &+ byte) | SIMD16<UInt8>(repeating: 0).replacing(with: 1, where: load(corner + offsets[k]) .< centre)
                                    }
                                    return byte
                                }
                                let bytes = (byte(0), byte(1), byte(2), byte(3), byte(4), byte(5), byte(6), byte(7))
                                let words = transpose(bytes)
                                UnsafeMutableRawPointer(dst + y * w + block * lanes).storeBytes(of: words, as: SIMD16<UInt64>.self)
                            }
                        }
                    }
                }
            }
        }
        out.removeLast(out.count - w * h)
        return out
    }

    /// Eight byte vectors (byte `g` of 16 pixels each) as 16 words: pixel `i`'s bytes `0…7`, in
    /// three rounds of interleaving (8-, 16- and 32-bit units).
    @inline(__always) private static func transpose(_ b: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>,
                                                          SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>)) -> SIMD16<UInt64> {
        // Bytes 2j and 2j+1 of pixels 0…7 (low) and 8…15 (high), as 16-bit units.
        let p01 = interleave(b.0, b.1), p23 = interleave(b.2, b.3), p45 = interleave(b.4, b.5), p67 = interleave(b.6, b.7)
        // Bytes 0…3 and 4…7 of pixels 0…3, 4…7, 8…11, 12…15, as 32-bit units.
        let q0 = interleave(p01.low, p23.low), q1 = interleave(p01.high, p23.high)
        let r0 = interleave(p45.low, p67.low), r1 = interleave(p45.high, p67.high)
        // The words of pixels 0…1, 2…3, …, 14…15.
        let s0 = interleave(q0.low, r0.low), s1 = interleave(q0.high, r0.high)
        let s2 = interleave(q1.low, r1.low), s3 = interleave(q1.high, r1.high)
        let halves = (SIMD8<UInt64>(lowHalf: SIMD4(lowHalf: s0.low, highHalf: s0.high), highHalf: SIMD4(lowHalf: s1.low, highHalf: s1.high)),
                      SIMD8<UInt64>(lowHalf: SIMD4(lowHalf: s2.low, highHalf: s2.high), highHalf: SIMD4(lowHalf: s3.low, highHalf: s3.high)))
        return SIMD16(lowHalf: halves.0, highHalf: halves.1)
    }

    /// The lanes of `a` and `b` alternating (bytes), as the low and high halves in 16-bit units.
    @inline(__always) private static func interleave(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> (low: SIMD8<UInt16>, high: SIMD8<UInt16>) {
        let low = SIMD16<UInt8>(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
        let high = SIMD16<UInt8>(a[8], b[8], a[9], b[9], a[10], b[10], a[11], b[11], a[12], b[12], a[13], b[13], a[14], b[14], a[15], b[15])
        return (unsafeBitCast(low, to: SIMD8<UInt16>.self), unsafeBitCast(high, to: SIMD8<UInt16>.self))
    }

    /// The same in 16-bit units, giving 32-bit units.
    @inline(__always) private static func interleave(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> (low: SIMD4<UInt32>, high: SIMD4<UInt32>) {
        let low = SIMD8<UInt16>(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3])
        let high = SIMD8<UInt16>(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
        return (unsafeBitCast(low, to: SIMD4<UInt32>.self), unsafeBitCast(high, to: SIMD4<UInt32>.self))
    }

    /// The same in 32-bit units, giving words.
    @inline(__always) private static func interleave(_ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>) -> (low: SIMD2<UInt64>, high: SIMD2<UInt64>) {
        (unsafeBitCast(SIMD4<UInt32>(a[0], b[0], a[1], b[1]), to: SIMD2<UInt64>.self), unsafeBitCast(SIMD4<UInt32>(a[2], b[2], a[3], b[3]), to: SIMD2<UInt64>.self))
    }

    @inline(__always) private static func load(_ p: UnsafeMutablePointer<Int8>) -> SIMD16<Int8> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Int8>.self)
    }
}
