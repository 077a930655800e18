import CImageCodecs
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ParallaxBus
import ParallaxFiles
import ParallaxPayloads
/// Lossless PNG writing with libpng's simplified API (for dataset conversion and debug images).
public enum ImageEncoder {
    /// Writes an 8-bit gray (1 channel) or RGB (3 channels) image.
    public static func writePNG(_ image: ImageBuffer<UInt8>, to path: String) throws {
        precondition(image.channels == 1 || image.channels == 3, "PNG writer: 1 or 3 channels")
        var png = header(image.width, image.height)
        png.format = image.channels == 3 ? UInt32(PNG_FORMAT_FLAG_COLOR) : 0
        let bytes = try image.withUnsafeSamples { p in try encode(&png, p.baseAddress, rowStride: image.width * image.channels, path: path) }
        try writeFile(bytes, to: path)
    }

    /// An 8-bit gray or RGB image as JPEG bytes (libturbojpeg; `quality` 1…100, 4:2:0 chroma
    /// for colour; `name` for errors): a few ms for 752×480, where PNG's deflate takes ~85 (the MH_01 clip's frames).
    public static func jpegData(_ image: ImageBuffer<UInt8>, quality: Int, name: String) throws -> Data {
        precondition(image.channels == 1 || image.channels == 3, "JPEG writer: 1 or 3 channels")
        guard let handle = tjInitCompress() else { throw ImageDecodingError.corrupt(path: name, message: "libturbojpeg failed to initialize") }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { if buffer != nil { tjFree(buffer) } }
        let gray = image.channels == 1
        let status = image.withUnsafeSamples { p in
            tjCompress2(handle, p.baseAddress, Int32(image.width), Int32(image.width * image.channels), Int32(image.height),
                        gray ? Int32(TJPF_GRAY.rawValue) : Int32(TJPF_RGB.rawValue), &buffer, &size,
                        gray ? Int32(TJSAMP_GRAY.rawValue) : Int32(TJSAMP_420.rawValue), Int32(max(1, min(100, quality))), 0)
        }
        guard status == 0, let buffer else { throw ImageDecodingError.corrupt(path: name, message: "cannot encode JPEG: \(String(cString: tjGetErrorStr2(handle)))") }
        return Data(bytes: buffer, count: Int(size))
    }

    /// Writes a 16-bit gray image with its raw values (no gamma conversion).
    public static func writePNG16(_ image: ImageBuffer<UInt16>, to path: String) throws {
        var png = header(image.width, image.height)
        png.format = UInt32(PNG_FORMAT_FLAG_LINEAR)  // PNG_FORMAT_LINEAR_Y
        let bytes = try image.withUnsafeSamples { p in try encode(&png, p.baseAddress, rowStride: image.width, path: path) }
        try writeFile(bytes, to: path)
    }

    /// Why an image file could not be written: the file system's reason (a full disk, a file
    /// over `ulimit -f`): a failed run (exit 1), not a bad input.
    public struct WriteError: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot write '\(path)': \(reason)" }
    }

    /// The PNG bytes of the image `png` describes (libpng encodes in memory, so that a failure to
    /// write is the system's, with its reason, rather than libpng's "Write Error").
    private static func encode(_ png: inout png_image, _ samples: UnsafeRawPointer?, rowStride: Int, path: String) throws -> [UInt8] {
        var size = 0
        guard png_image_write_to_memory(&png, nil, &size, 0, samples, Int32(rowStride), nil) != 0, size > 0 else {
            throw WriteError(path: path, reason: "libpng cannot encode it: \(message(&png))")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        let done = bytes.withUnsafeMutableBytes { out in png_image_write_to_memory(&png, out.baseAddress, &size, 0, samples, Int32(rowStride), nil) }
        guard done != 0 else { throw WriteError(path: path, reason: "libpng cannot encode it: \(message(&png))") }
        return Array(bytes.prefix(size))
    }

    /// Writes `bytes` to `path` (created or truncated) with write(2).
    private static func writeFile(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        if let code = bytes.withUnsafeBytes({ FileDescriptorWrite.all(fd, $0) }) {
            throw WriteError(path: path, reason: String(cString: strerror(code)))
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
