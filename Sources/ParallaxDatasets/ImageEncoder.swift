import CImageCodecs
import Foundation
import ParallaxCore

/// Lossless PNG writing with libpng's simplified API (for dataset conversion and debug images).
public enum ImageEncoder {
    /// Writes an 8-bit gray (1 channel) or RGB (3 channels) image.
    public static func writePNG(_ image: ImageBuffer<UInt8>, to path: String) throws {
        precondition(image.channels == 1 || image.channels == 3, "PNG writer: 1 or 3 channels")
        var png = header(image.width, image.height)
        png.format = image.channels == 3 ? UInt32(PNG_FORMAT_FLAG_COLOR) : 0
        try image.withUnsafeSamples { p in
            guard png_image_write_to_file(&png, path, 0, p.baseAddress, Int32(image.width * image.channels), nil) != 0 else {
                throw ImageDecodingError.corrupt(path: path, message: "cannot write PNG: \(message(&png))")
            }
        }
    }

    /// An 8-bit gray (1 channel) or RGB (3 channels) image as PNG bytes (`name` for errors).
    public static func pngData(_ image: ImageBuffer<UInt8>, name: String) throws -> Data {
        precondition(image.channels == 1 || image.channels == 3, "PNG writer: 1 or 3 channels")
        var png = header(image.width, image.height)
        png.format = image.channels == 3 ? UInt32(PNG_FORMAT_FLAG_COLOR) : 0
        let stride = Int32(image.width * image.channels)
        return try image.withUnsafeSamples { p in
            // First the size libpng needs, then the bytes.
            var size = 0
            guard png_image_write_to_memory(&png, nil, &size, 0, p.baseAddress, stride, nil) != 0, size > 0 else {
                throw ImageDecodingError.corrupt(path: name, message: "cannot encode PNG: \(message(&png))")
            }
            var bytes = Data(count: size)
            let ok = bytes.withUnsafeMutableBytes { out in png_image_write_to_memory(&png, out.baseAddress, &size, 0, p.baseAddress, stride, nil) }
            guard ok != 0 else { throw ImageDecodingError.corrupt(path: name, message: "cannot encode PNG: \(message(&png))") }
            return bytes.prefix(size)
        }
    }

    /// Writes a 16-bit gray image with its raw values (no gamma conversion).
    public static func writePNG16(_ image: ImageBuffer<UInt16>, to path: String) throws {
        var png = header(image.width, image.height)
        png.format = UInt32(PNG_FORMAT_FLAG_LINEAR)  // PNG_FORMAT_LINEAR_Y
        try image.withUnsafeSamples { p in
            guard png_image_write_to_file(&png, path, 0, p.baseAddress, Int32(image.width), nil) != 0 else {
                throw ImageDecodingError.corrupt(path: path, message: "cannot write PNG: \(message(&png))")
            }
        }
    }

    private static func header(_ width: Int, _ height: Int) -> png_image {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(width)
        png.height = UInt32(height)
        return png
    }

    private static func message(_ image: inout png_image) -> String { ImageDecoder.message(of: &image) }
}
