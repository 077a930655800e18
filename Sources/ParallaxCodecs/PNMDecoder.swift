import Foundation
import ParallaxGeometry
import ParallaxBus
import ParallaxPayloads
/// Binary Netpbm images: P5 (gray) and P6 (RGB), 8-bit (`maxval` ≤ 255) or 16-bit big-endian
/// (`maxval` 256…65535, gray only). The HPatches / Oxford affine-region sequences ship as P6.
///
/// Header: magic, width, height, maxval, separated by whitespace, `#` comments to the end of a
/// line, then exactly one whitespace byte before the samples.
enum PNMDecoder {
    /// Whether `data` starts like a binary PNM (`P5` or `P6` then whitespace).
    static func matches(_ data: Data) -> Bool {
        data.count >= 3 && data[data.startIndex] == UInt8(ascii: "P")
            && (data[data.startIndex + 1] == UInt8(ascii: "5") || data[data.startIndex + 1] == UInt8(ascii: "6"))
            && isSpace(data[data.startIndex + 2])
    }

    static func decode(_ data: Data, path: String, maxPixels: Int = ImageSizeLimit.maxPixels) throws -> DecodedImage {
        let bytes = [UInt8](data)
        let channels = bytes[1] == UInt8(ascii: "6") ? 3 : 1
        var i = 2
        /// The next header number; `what` names it in errors.
        func number(_ what: String) throws -> Int {
            while i < bytes.count {
                if isSpace(bytes[i]) { i += 1 } else if bytes[i] == UInt8(ascii: "#") {
                    while i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D { i += 1 }
                } else { break }
            }
            var value = 0, digits = 0
            while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) {
                value = value * 10 + Int(bytes[i] - UInt8(ascii: "0"))
                digits += 1
                i += 1
                guard value <= 1 << 24 else { throw ImageDecodingError.corrupt(path: path, message: "PNM \(what) too large") }
            }
            guard digits > 0 else { throw ImageDecodingError.corrupt(path: path, message: "PNM header: \(what) missing") }
            return value
        }
        let width = try number("width"), height = try number("height"), maxval = try number("maxval")
        if case let .failure(refusal) = ImageSizeLimit.check(width: width, height: height, limit: maxPixels) {
            throw ImageDecodingError.corrupt(path: path, message: "PNM \(refusal)")
        }
        guard (1...65535).contains(maxval) else { throw ImageDecodingError.corrupt(path: path, message: "PNM maxval \(maxval) outside 1…65535") }
        guard i < bytes.count, isSpace(bytes[i]) else { throw ImageDecodingError.corrupt(path: path, message: "PNM header not followed by whitespace") }
        i += 1
        let wide = maxval > 255
        /// A sample above maxval is not a PNM (the 8-bit rescale trapped on one; found by fuzzing).
        func requireWithinMaxval<S: BinaryInteger>(_ samples: [S]) throws {
            if let k = samples.firstIndex(where: { Int($0) > maxval }) {
                throw ImageDecodingError.corrupt(path: path, message: "PNM sample \(k) is \(samples[k]), above maxval \(maxval)")
            }
        }
        if wide && channels == 3 { throw ImageDecodingError.unsupported(path: path, reason: "16-bit RGB PNM") }
        let count = width * height * channels
        let needed = count * (wide ? 2 : 1)
        guard bytes.count - i >= needed else {
            throw ImageDecodingError.corrupt(path: path, message: "PNM has \(bytes.count - i) sample bytes, \(width)×\(height)×\(channels) needs \(needed)")
        }
        if wide {
            let samples = (0..<count).map { k in UInt16(bytes[i + 2 * k]) << 8 | UInt16(bytes[i + 2 * k + 1]) }
            try requireWithinMaxval(samples)
            return .gray16(ImageBuffer(width: width, height: height, samples: samples))
        }
        var samples = Array(bytes[i..<(i + count)])
        if maxval != 255 {  // rescale to the full 8-bit range
            try requireWithinMaxval(samples)
            for k in samples.indices { samples[k] = UInt8((Int(samples[k]) * 255 + maxval / 2) / maxval) }
        }
        let buffer = ImageBuffer(width: width, height: height, channels: channels, samples: samples)
        return channels == 3 ? .rgb8(buffer) : .gray8(buffer)
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C }
}
