import Foundation

/// A PNG's colour-management chunks (`gAMA`, `sRGB`, `iCCP`, `cHRM`), which Parallax removes
/// before decoding so that samples come back as stored, as OpenCV's `imread` gives them.
///
/// libpng's simplified API honours these chunks: asked for linear 16-bit output it converts a
/// file with `gAMA 1/2.2` (ImageMagick writes one by default), so a depth PNG's 1000 came back
/// as 7, silently wrong metres; 8-bit files with a gamma other than sRGB's were converted too.
/// Depth is data, not light, and a camera frame's calibration and features were measured on
/// the stored values. The chunks are ancillary, each with its own CRC, so the PNG without them
/// stays valid (the critical chunks are untouched).
enum PNGColorChunks {
    /// The chunk types removed.
    static let removed: Set<[UInt8]> = [Array("gAMA".utf8), Array("sRGB".utf8), Array("iCCP".utf8), Array("cHRM".utf8)]

    /// `png` without its colour-management chunks; `png` itself when it has none or when its
    /// chunk layout is broken (libpng then reports the damage).
    static func removing(from png: Data) -> Data {
        // Read in place (this runs on every frame of a PNG dataset): the file is copied only
        // when it has a chunk to remove.
        png.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Data in
            guard bytes.count > 8 else { return png }
            var offset = 8
            var kept: [Range<Int>] = [0..<8]
            var found = false
            while offset + 12 <= bytes.count {
                let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                // PNG limits a chunk to 2^31 - 1 bytes; the end must lie within the file.
                guard length < 1 << 31, length <= bytes.count - offset - 12 else { return png }
                let end = offset + 12 + length
                let type = Array(bytes[offset + 4..<offset + 8])
                if removed.contains(type) { found = true } else { kept.append(offset..<end) }
                offset = end
                if type == Array("IEND".utf8) { break }
            }
            guard found else { return png }
            if offset < bytes.count { kept.append(offset..<bytes.count) }
            var out = Data(capacity: bytes.count)
            for range in kept { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range])) }
            return out
        }
    }
}
