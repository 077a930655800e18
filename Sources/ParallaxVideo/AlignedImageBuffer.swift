import CFFmpeg
import ParallaxImage

/// An 8-bit packed image (gray or RGB24) in a buffer FFmpeg allocated with its own line size and
/// alignment (`av_image_alloc`, 64-byte aligned rows, FFmpeg's padding after the last row): the
/// only kind of buffer Parallax hands to `sws_scale`, as source or destination.
///
/// swscale's SIMD paths read and write whole vector blocks: a row of `width × channels` bytes
/// may be touched up to its next 16-, 32- or 64-byte boundary, and the last row past its end.
/// A Swift array of exactly `width × channels` bytes per row is therefore no valid swscale
/// buffer (a 360-pixel-wide RGB frame, 1080 bytes a row, corrupted the heap). Rows are copied
/// between this buffer and an ``ImageBuffer`` instead: one copy per frame, ~0.1 ms for VGA.
final class AlignedImageBuffer {
    let width: Int
    let height: Int
    /// 1 (`GRAY8`) or 3 (`RGB24`).
    let channels: Int
    /// Bytes from one row to the next (≥ `width × channels`, a multiple of 64).
    let stride: Int
    private var planes: [UnsafeMutablePointer<UInt8>?] = [nil, nil, nil, nil]
    private var strides: [Int32] = [0, 0, 0, 0]
    /// ``planes`` as swscale's source argument (made once, not per frame).
    private var sourcePlanes: [UnsafePointer<UInt8>?] = [nil, nil, nil, nil]

    /// The FFmpeg pixel format of `channels` 8-bit samples per pixel.
    static func pixelFormat(channels: Int) -> AVPixelFormat { channels == 1 ? AV_PIX_FMT_GRAY8 : AV_PIX_FMT_RGB24 }

    /// A `width × height` buffer of `channels` (1 or 3) samples per pixel; nil when the size is
    /// not positive, does not fit FFmpeg's limits (`av_image_check_size`) or memory runs out.
    init?(width: Int, height: Int, channels: Int) {
        guard channels == 1 || channels == 3, width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
              av_image_check_size(UInt32(width), UInt32(height), 0, nil) >= 0 else { return nil }
        self.width = width
        self.height = height
        self.channels = channels
        let size = av_image_alloc(&planes, &strides, Int32(width), Int32(height), Self.pixelFormat(channels: channels), 64)
        guard size >= 0, planes[0] != nil, Int(strides[0]) >= width * channels else {
            if planes[0] != nil { av_freep(&planes) }
            return nil
        }
        stride = Int(strides[0])
        sourcePlanes = planes.map { $0.map { UnsafePointer($0) } }
    }

    deinit {
        // av_image_alloc makes one allocation, held by the first plane.
        if planes[0] != nil { av_freep(&planes) }
    }

    /// `sws_scale` from the given source planes into this buffer; the number of rows written
    /// (`height` when the conversion succeeded).
    func scale(with scaler: OpaquePointer, from source: UnsafePointer<UnsafePointer<UInt8>?>, strides sourceStrides: UnsafePointer<Int32>,
               height sourceHeight: Int32) -> Int32 {
        sws_scale(scaler, source, sourceStrides, 0, sourceHeight, &planes, &strides)
    }

    /// `sws_scale` from this buffer into the given destination planes (an `AVFrame`'s, which
    /// FFmpeg allocated with its own padding); the number of rows written.
    func scale(with scaler: OpaquePointer, into destination: UnsafePointer<UnsafeMutablePointer<UInt8>?>,
               strides destinationStrides: UnsafePointer<Int32>) -> Int32 {
        sws_scale(scaler, sourcePlanes, strides, 0, Int32(height), destination, destinationStrides)
    }

    /// Copies the rows of `image` (same size and channels) into this buffer.
    func copyRows(from image: ImageBuffer<UInt8>) {
        guard image.width == width, image.height == height, image.channels == channels, let base = planes[0] else { return }
        let rowBytes = width * channels
        image.samples.withUnsafeBufferPointer { samples in
            guard let source = samples.baseAddress, samples.count >= rowBytes * height else { return }
            for y in 0..<height { (base + y * stride).update(from: source + y * rowBytes, count: rowBytes) }
        }
    }

    /// The buffer's rows as a tightly packed ``ImageBuffer``.
    func image() -> ImageBuffer<UInt8> {
        let rowBytes = width * channels
        var samples = [UInt8](repeating: 0, count: rowBytes * height)
        if let base = planes[0] {
            samples.withUnsafeMutableBufferPointer { out in
                guard let target = out.baseAddress else { return }
                for y in 0..<height { (target + y * rowBytes).update(from: base + y * stride, count: rowBytes) }
            }
        }
        return ImageBuffer(width: width, height: height, channels: channels, samples: samples)
    }
}
