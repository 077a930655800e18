import CImageCodecs
import Foundation
import ParallaxCore

/// Why an image file could not be decoded.
public enum ImageDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String)
    case corrupt(path: String, message: String)

    public var description: String {
        switch self {
        case let .unreadable(path): return "\(path): cannot read image file"
        case let .corrupt(path, message): return "\(path): corrupt or unsupported PNG (\(message))"
        }
    }
}

/// PNG decoding with libpng's simplified `png_image` API (no setjmp).
public enum PNGDecoder {
    /// Decodes an 8-bit gray image (color images are converted to gray by libpng).
    public static func decodeGray8(path: String) throws -> ImageBuffer<UInt8> {
        guard let data = FileManager.default.contents(atPath: path) else { throw ImageDecodingError.unreadable(path: path) }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let ok = data.withUnsafeBytes { raw in png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) }
        guard ok != 0 else { throw ImageDecodingError.corrupt(path: path, message: message(of: &image)) }
        image.format = UInt32(PNG_FORMAT_GRAY)
        let width = Int(image.width), height = Int(image.height)
        var samples = [UInt8](repeating: 0, count: width * height)
        let finished = data.withUnsafeBytes { _ in
            samples.withUnsafeMutableBytes { out in png_image_finish_read(&image, nil, out.baseAddress, Int32(width), nil) }
        }
        guard finished != 0 else {
            let text = message(of: &image)
            png_image_free(&image)
            throw ImageDecodingError.corrupt(path: path, message: text)
        }
        return ImageBuffer(width: width, height: height, samples: samples)
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
