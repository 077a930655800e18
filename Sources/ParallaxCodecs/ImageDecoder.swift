import CImageCodecs
import Foundation
import ParallaxGeometry
import ParallaxBus
import ParallaxPayloads
import ParallaxFiles
/// Why an image file could not be decoded. Names the file.
public enum ImageDecodingError: Error, BadInput, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String)
    case corrupt(path: String, message: String)
    case unsupported(path: String, reason: String)
    /// The image is not the size its camera's calibration was made for: its intrinsics would
    /// be wrong for every pixel.
    case notTheCalibratedSize(path: String, width: Int, height: Int, calibratedWidth: Int, calibratedHeight: Int)

    /// Checks that an image of `width` × `height` fits `calibration` (nil: nothing to check).
    public static func checkSize(path: String, width: Int, height: Int, calibration: CameraCalibration?) throws {
        guard let m = calibration?.model, m.width != width || m.height != height else { return }
        throw notTheCalibratedSize(path: path, width: width, height: height, calibratedWidth: m.width, calibratedHeight: m.height)
    }

    public var description: String {
        switch self {
        case let .unreadable(path): return "\(path): cannot read image file"
        case let .corrupt(path, message): return "\(path): corrupt or truncated image (\(message))"
        case let .unsupported(path, reason): return "\(path): unsupported image (\(reason))"
        case let .notTheCalibratedSize(path, w, h, cw, ch):
            // The calibration may come from sensor.yaml, calib.txt, KITTI's calib files or --calibration.
            return "\(path): the image is \(w)×\(h) px but its camera's calibration is for \(cw)×\(ch) px (the resolution the dataset's calibration states)"
        }
    }
}

/// A decoded image, in the layout the file holds.
public enum DecodedImage: Sendable {
    /// 8-bit gray (1 channel).
    case gray8(ImageBuffer<UInt8>)
    /// 8-bit RGB (3 interleaved channels).
    case rgb8(ImageBuffer<UInt8>)
    /// 16-bit gray, raw values (depth PNGs: TUM stores 5000 units per metre).
    case gray16(ImageBuffer<UInt16>)

    /// Width × height in pixels.
    public var size: (width: Int, height: Int) {
        switch self {
        case let .gray8(i), let .rgb8(i): return (i.width, i.height)
        case let .gray16(i): return (i.width, i.height)
        }
    }
}

/// PNG (libpng's simplified `png_image` API, no setjmp), JPEG (libturbojpeg) and binary PNM
/// (P5/P6, ``PNMDecoder``) decoding.
///
/// PNG: samples as stored, whatever gamma or colour profile the file declares (``PNGColorChunks``);
/// 8-bit gray/RGB stay 8-bit (alpha dropped, palettes expanded); 16-bit gray stays 16-bit with
/// raw values (depth is data, not light); 16-bit colour is scaled to 8 bits. JPEG: gray or RGB.
public enum ImageDecoder {
    /// Decodes `path`, choosing the codec by content (PNG, JPEG or binary PNM signature).
    public static func decode(path: String) throws -> DecodedImage {
        guard let data = FileContents.data(atPath: path) else { throw ImageDecodingError.unreadable(path: path) }
        return try decode(data: data, name: path)
    }

    /// Decodes an image held in memory (`name` says where it came from, for errors); a header
    /// declaring more than `maxPixels` pixels is refused before the image is allocated.
    public static func decode(data: Data, name path: String, maxPixels: Int = ImageSizeLimit.maxPixels) throws -> DecodedImage {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try decodePNG(data, path: path, maxPixels: maxPixels) }
        if data.starts(with: [0xFF, 0xD8]) { return try decodeJPEG(data, path: path, maxPixels: maxPixels) }
        if PNMDecoder.matches(data) { return try PNMDecoder.decode(data, path: path, maxPixels: maxPixels) }
        throw ImageDecodingError.unsupported(path: path, reason: "not PNG, JPEG or binary PNM (P5/P6)")
    }

    /// Decodes a camera image (gray, or RGB) to 8 bits: 8-bit images as stored, 16-bit ones
    /// scaled (``scaledTo8Bit(_:)``, as 16-bit colour is and OpenCV's `imread` does: TUM VI's
    /// `_16` sequences store their frames as 16-bit gray PNGs).
    public static func decode8Bit(path: String) throws -> ImageBuffer<UInt8> {
        switch try decode(path: path) {
        case let .gray8(image), let .rgb8(image): return image
        case let .gray16(wide): return scaledTo8Bit(wide)
        }
    }

    /// A 16-bit image as light, 8 bits per sample: `round(v · 255 / 65535)`, the full 16-bit range
    /// onto the full 8-bit one (a camera whose 10 or 12 bits sit at the bottom of the 16 reads dark).
    public static func scaledTo8Bit(_ wide: ImageBuffer<UInt16>) -> ImageBuffer<UInt8> {
        ImageBuffer(width: wide.width, height: wide.height, channels: wide.channels,
                    samples: wide.samples.map { UInt8((UInt32($0) * 255 + 32767) / 65535) })
    }

    /// Decodes to 8-bit gray, converting color (luma) as needed; 16-bit images are scaled to 8 bits.
    public static func decodeGray8(path: String) throws -> ImageBuffer<UInt8> {
        let image = try decode8Bit(path: path)
        return image.luma
    }

    static func decodePNG(_ file: Data, path: String, maxPixels: Int = ImageSizeLimit.maxPixels) throws -> DecodedImage {
        // Samples as stored: no gamma or colour-profile conversion (``PNGColorChunks``).
        let data = PNGColorChunks.removing(from: file)
        // libpng keeps the pointer it is given and reads the pixels from it in
        // png_image_finish_read: both calls happen while the bytes are pinned.
        return try data.withUnsafeBytes { raw in
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                throw ImageDecodingError.corrupt(path: path, message: message(of: &image))
            }
            defer { png_image_free(&image) }
            let width = Int(image.width), height = Int(image.height)
            if case let .failure(refusal) = ImageSizeLimit.check(width: width, height: height, limit: maxPixels) {
                throw ImageDecodingError.corrupt(path: path, message: "PNG \(refusal)")
            }
            let isColor = image.format & UInt32(PNG_FORMAT_FLAG_COLOR) != 0
            let is16 = image.format & UInt32(PNG_FORMAT_FLAG_LINEAR) != 0
            let hasAlpha = image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
            if is16 && !isColor {
                // libpng removes an alpha channel from linear output by compositing on black:
                // a translucent depth pixel would come back scaled. Depth images have none.
                guard !hasAlpha else {
                    throw ImageDecodingError.unsupported(path: path, reason: "16-bit gray with an alpha channel: its values would be blended; save the depth without alpha")
                }
                image.format = UInt32(PNG_FORMAT_FLAG_LINEAR)  // PNG_FORMAT_LINEAR_Y
                var samples = [UInt16](repeating: 0, count: width * height)
                try finish(&image, into: &samples, rowStride: width, path: path)
                return .gray16(ImageBuffer(width: width, height: height, samples: samples))
            }
            if is16 {
                // 16-bit colour: read as stored (linear output of a file without colour chunks
                // is no conversion) and scaled to 8 bits, as OpenCV's imread(…, IMREAD_COLOR)
                // does; libpng's own 16 → 8-bit path would apply the sRGB curve.
                image.format = UInt32(PNG_FORMAT_FLAG_LINEAR | PNG_FORMAT_FLAG_COLOR)  // PNG_FORMAT_LINEAR_RGB
                var wide = [UInt16](repeating: 0, count: width * height * 3)
                try finish(&image, into: &wide, rowStride: width * 3, path: path)
                return .rgb8(scaledTo8Bit(ImageBuffer(width: width, height: height, channels: 3, samples: wide)))
            }
            image.format = isColor ? UInt32(PNG_FORMAT_FLAG_COLOR) : 0  // PNG_FORMAT_RGB or PNG_FORMAT_GRAY
            let channels = isColor ? 3 : 1
            var samples = [UInt8](repeating: 0, count: width * height * channels)
            try finish(&image, into: &samples, rowStride: width * channels, path: path)
            let buffer = ImageBuffer(width: width, height: height, channels: channels, samples: samples)
            return isColor ? .rgb8(buffer) : .gray8(buffer)
        }
    }

    private static func finish<T>(_ image: inout png_image, into samples: inout [T], rowStride: Int, path: String) throws {
        let done = samples.withUnsafeMutableBytes { out in png_image_finish_read(&image, nil, out.baseAddress, Int32(rowStride), nil) }
        guard done != 0 else { throw ImageDecodingError.corrupt(path: path, message: message(of: &image)) }
    }

    /// libpng's error text of a failed `png_image` call.
    static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }

    static func decodeJPEG(_ data: Data, path: String, maxPixels: Int = ImageSizeLimit.maxPixels) throws -> DecodedImage {
        guard let handle = tjInitDecompress() else { throw ImageDecodingError.unsupported(path: path, reason: "libturbojpeg failed to initialize") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = data.withUnsafeBytes { raw in
            tjDecompressHeader3(handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count), &width, &height, &subsampling, &colorspace)
        }
        guard header == 0, width > 0, height > 0 else {
            throw ImageDecodingError.corrupt(path: path, message: String(cString: tjGetErrorStr2(handle)))
        }
        if case let .failure(refusal) = ImageSizeLimit.check(width: Int(width), height: Int(height), limit: maxPixels) {
            throw ImageDecodingError.corrupt(path: path, message: "JPEG \(refusal)")
        }
        let gray = colorspace == Int32(TJCS_GRAY.rawValue)
        let channels = gray ? 1 : 3
        var samples = [UInt8](repeating: 0, count: Int(width) * Int(height) * channels)
        let result = data.withUnsafeBytes { raw in
            samples.withUnsafeMutableBufferPointer { out in
                tjDecompress2(handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count), out.baseAddress,
                              width, 0, height, Int32(gray ? TJPF_GRAY.rawValue : TJPF_RGB.rawValue),
                              // A progressive JPEG of thousands of scans decodes for minutes:
                              // turbojpeg's guard for untrusted input stops it (its docs).
                              Int32(TJFLAG_LIMITSCANS | TJFLAG_STOPONWARNING))
            }
        }
        // Warnings (e.g. premature end of data) still leave a fully written buffer: treat as corrupt.
        guard result == 0 else { throw ImageDecodingError.corrupt(path: path, message: String(cString: tjGetErrorStr2(handle))) }
        let buffer = ImageBuffer(width: Int(width), height: Int(height), channels: channels, samples: samples)
        return gray ? .gray8(buffer) : .rgb8(buffer)
    }
}
