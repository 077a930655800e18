import CFFmpeg
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxFiles

/// Why a video file could not be read. Every case names the file; all are the user's input, not
/// a failure of the run (``BadInput``: the CLI exits 2).
public enum VideoError: Error, BadInput, Equatable, Sendable, CustomStringConvertible {
    /// FFmpeg could not open or parse the container (not a video, or truncated before its header).
    case unreadable(path: String, reason: String)
    /// The container holds no video stream.
    case noVideoStream(path: String)
    /// No decoder for the stream's codec in this FFmpeg build.
    case unsupportedCodec(path: String, codec: String)
    /// The video stream has no frame that decodes.
    case noFrames(path: String)
    /// Decoding failed at a frame (truncated or corrupt data); `time` is its presentation time.
    case corrupt(path: String, time: Timestamp?, reason: String)
    /// A frame's size is not the stream's (the camera stream must keep one size).
    case sizeChanged(path: String, time: Timestamp?, expected: String, found: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "\(path): not a readable video file (\(reason))"
        case let .noVideoStream(path): return "\(path): the file holds no video stream"
        case let .unsupportedCodec(path, codec): return "\(path): no decoder for its video codec '\(codec)' in this FFmpeg"
        case let .noFrames(path): return "\(path): the video stream has no frame that decodes"
        case let .corrupt(path, time, reason):
            return "\(path): " + (time.map { "frame at \($0.nanoseconds) ns" } ?? "video data") + " does not decode (\(reason))"
        case let .sizeChanged(path, time, expected, found):
            return "\(path): the frame" + (time.map { " at \($0.nanoseconds) ns" } ?? "") + " is \(found), the stream's frames are \(expected)"
        }
    }
}

/// A video file opened through FFmpeg (libavformat demuxes, libavcodec decodes, libswscale
/// converts): what its header says, and its frames, decoded one after another in presentation
/// order. Memory stays bounded: one decoded frame at a time (plus the codec's own reference
/// frames). Decoding runs on one thread (`thread_count = 1`), so every run gives the same pixels.
///
/// Times are presentation timestamps read from the packets (``packetTimes()``, in the stream's
/// time base, converted to nanoseconds up to rounding), never frame index / header rate: a
/// header's frame count and rate can be wrong (OpenCV's `tree.avi` claims 444 frames and 68
/// decode; `obama.mp4` claims 158 and 55 decode).
public final class VideoFile {
    /// What the container and stream header claim (not checked against the frames).
    public struct Header: Equatable, Sendable {
        /// Container (`avi`, `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`).
        public var container: String
        /// Codec (`h264`, `mpeg4`, `msmpeg4v3`, `cinepak`).
        public var codec: String
        public var width: Int
        public var height: Int
        /// The stream's frame count, when the header has one.
        public var frameCount: Int?
        /// Average frame rate (Hz), when the header has one.
        public var frameRate: Double?
        /// Duration (s), when the header has one.
        public var duration: Double?
        /// Pixel format of the decoded frames (`yuv420p`, `gray`).
        public var pixelFormat: String
    }

    /// Pixels the frames are converted to.
    public enum Pixels: String, Sendable, CaseIterable {
        /// 8-bit luma.
        case gray
        /// 8-bit RGB, interleaved.
        case rgb
    }

    public let path: String
    public let header: Header
    /// The file's other video streams, which are not read (each "stream K: codec W×H"; cover
    /// pictures are not listed): a reader says so rather than ignoring them in silence.
    public let otherVideoStreams: [String]
    /// The rotation (degrees, counterclockwise, one of ±90 and 180 rounded) the stream's
    /// display matrix asks players to show its frames with (a phone's upright video); nil
    /// without one or for 0°. Frames are read as stored, not turned: a reader says so.
    public let displayRotationDegrees: Double?
    /// The index of the stream that is read, in the container's order.
    public var streamNumber: Int { Int(streamIndex) }
    /// Stream time base (s per tick).
    private let timeBase: AVRational

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private let streamIndex: Int32
    /// The pixel budget the decoder was given (pixels).
    private let maxPixels: Int
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var scaler: OpaquePointer?
    /// The source pixel format and target of ``scaler`` (the size is the header's, checked).
    private var scalerKey: (Int32, Pixels)?
    private var flushed = false
    private var ended = false

    /// FFmpeg's own log is silenced: what goes wrong reaches the user as a ``VideoError``.
    static let silenceLog: Void = av_log_set_level(AV_LOG_QUIET)

    /// Opens `path` and its best video stream's decoder. `maxPixels` is the pixel budget
    /// (``ImageSizeLimit``; the CLI's `--max-image-megapixels`): a stream whose frames are
    /// larger is refused before any frame is decoded.
    public init(path: String, maxPixels: Int = ImageSizeLimit.maxPixels) throws {
        Self.silenceLog
        self.path = path
        var context: UnsafeMutablePointer<AVFormatContext>?
        var codecContext: UnsafeMutablePointer<AVCodecContext>?
        var success = false
        defer {
            if !success {
                if codecContext != nil { avcodec_free_context(&codecContext) }
                if context != nil { avformat_close_input(&context) }
            }
        }
        let opened = avformat_open_input(&context, path, nil, nil)
        guard opened >= 0, let container = context else { throw VideoError.unreadable(path: path, reason: Self.message(opened)) }
        try Self.findStreamInfo(container, path: path, maxPixels: maxPixels)
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(container, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        // Without a decoder, FFmpeg still names the stream: find it to name its codec.
        let videoIndex = index >= 0 ? index : (0..<Int32(container.pointee.nb_streams)).first {
            container.pointee.streams[Int($0)]?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
        } ?? -1
        // A cover picture (an attached picture of a sound file) is no camera stream.
        guard videoIndex >= 0, let stream = container.pointee.streams[Int(videoIndex)],
              stream.pointee.disposition & parallax_av_disposition_attached_pic() == 0 else { throw VideoError.noVideoStream(path: path) }
        let parameters = stream.pointee.codecpar.pointee
        let codecName = String(cString: avcodec_get_name(parameters.codec_id))
        guard index >= 0, let decoder else { throw VideoError.unsupportedCodec(path: path, codec: codecName) }
        let tb = stream.pointee.time_base
        let rate = stream.pointee.avg_frame_rate
        let pixelName = av_get_pix_fmt_name(AVPixelFormat(parameters.format)).map { String(cString: $0) } ?? "unknown"
        let durationTicks = stream.pointee.duration
        let header = Header(container: container.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown", codec: codecName,
                            width: Int(parameters.width), height: Int(parameters.height),
                            frameCount: stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil,
                            frameRate: rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : nil,
                            duration: durationTicks > 0 && tb.den > 0 ? Double(durationTicks) * Double(tb.num) / Double(tb.den)
                                : (container.pointee.duration > 0 ? Double(container.pointee.duration) / Double(AV_TIME_BASE) : nil),
                            pixelFormat: pixelName)
        // The pixel budget (--max-image-megapixels) is checked on the header before a decoder
        // exists, and handed to the decoder (`max_pixels`) so no frame of the stream, whatever
        // its own header says later, is allocated above it.
        if case let .failure(refusal) = ImageSizeLimit.check(width: header.width, height: header.height, limit: maxPixels) {
            throw VideoError.unreadable(path: path, reason: "frame \(refusal)")
        }
        guard header.width <= 1 << 14, header.height <= 1 << 14, tb.num > 0, tb.den > 0 else {
            throw VideoError.unreadable(path: path, reason: "frame size \(header.width)×\(header.height) or time base \(tb.num)/\(tb.den) out of range")
        }
        codecContext = avcodec_alloc_context3(decoder)
        guard let codecContext else { throw VideoError.unreadable(path: path, reason: "out of memory") }
        codecContext.pointee.thread_count = 1
        codecContext.pointee.max_pixels = Int64(maxPixels)
        guard avcodec_parameters_to_context(codecContext, stream.pointee.codecpar) >= 0, avcodec_open2(codecContext, decoder, nil) >= 0 else {
            throw VideoError.unsupportedCodec(path: path, codec: codecName)
        }
        let packet = av_packet_alloc(), frame = av_frame_alloc()
        guard packet != nil, frame != nil else {
            var p = packet, f = frame
            av_packet_free(&p)
            av_frame_free(&f)
            throw VideoError.unreadable(path: path, reason: "out of memory")
        }
        otherVideoStreams = (0..<Int32(container.pointee.nb_streams)).compactMap { k in
            guard k != videoIndex, let other = container.pointee.streams[Int(k)], let p = other.pointee.codecpar,
                  p.pointee.codec_type == AVMEDIA_TYPE_VIDEO, other.pointee.disposition & parallax_av_disposition_attached_pic() == 0 else { return nil }
            return "stream \(k): \(String(cString: avcodec_get_name(p.pointee.codec_id))) \(p.pointee.width)×\(p.pointee.height)"
        }
        let rotation = parallax_display_rotation(stream)
        displayRotationDegrees = rotation.isFinite && abs(rotation) > 0.5 ? rotation : nil
        success = true
        self.header = header
        timeBase = tb
        streamIndex = videoIndex
        self.maxPixels = maxPixels
        format = container
        codec = codecContext
        self.packet = packet
        self.frame = frame
    }

    deinit { close() }

    private func close() {
        if scaler != nil { sws_freeContext(scaler); scaler = nil }
        if frame != nil { av_frame_free(&frame) }
        if packet != nil { av_packet_free(&packet) }
        if codec != nil { avcodec_free_context(&codec) }
        if format != nil { avformat_close_input(&format) }
    }

    /// `ticks` of the stream's time base in nanoseconds (rounded to the nearest).
    func timestamp(ticks: Int64) -> Timestamp {
        Timestamp(nanoseconds: av_rescale_q_rnd(ticks, timeBase, AVRational(num: 1, den: 1_000_000_000), AV_ROUND_NEAR_INF))
    }

    /// The presentation times of the stream's packets that carry data, in presentation order,
    /// read without decoding (the container's index and packet headers): what a reader can list
    /// before decoding. A packet with no data (an AVI "drop" chunk) is no frame, nor one marked
    /// for discarding.
    public func packetTimes() throws -> [Timestamp] {
        guard let format, let packet else { return [] }
        var times: [Timestamp] = []
        var fallback: Int64 = 0
        while true {
            let status = av_read_frame(format, packet)
            if status == parallax_averror_eof() { break }
            guard status >= 0 else { throw VideoError.corrupt(path: path, time: times.last, reason: Self.message(status)) }
            defer { av_packet_unref(packet) }
            // A packet the container marks for discarding (outside an MP4 edit list) is decoded
            // as a reference for others but never shown.
            guard packet.pointee.stream_index == streamIndex, packet.pointee.size > 0, packet.pointee.flags & AV_PKT_FLAG_DISCARD == 0 else { continue }
            let pts = packet.pointee.pts != parallax_av_nopts_value() ? packet.pointee.pts : packet.pointee.dts
            let ticks = pts != parallax_av_nopts_value() ? pts : fallback
            // Both come from the container: a duration near Int64.max must not trap.
            let (next, overflow) = ticks.addingReportingOverflow(max(1, packet.pointee.duration))
            guard !overflow else { throw VideoError.corrupt(path: path, time: times.last, reason: "packet time \(ticks) + duration \(packet.pointee.duration) overflows") }
            fallback = next
            times.append(timestamp(ticks: ticks))
        }
        return times.sorted()
    }

    /// The next decoded frame in presentation order, or nil at the end. `time` is the time the
    /// caller gives this frame (``packetTimes()``), for errors: FFmpeg's own guess can be a frame
    /// late (AVI's packed B-frames), and is not used.
    public func nextFrame(_ pixels: Pixels, at time: Timestamp?) throws -> ImageBuffer<UInt8>? {
        try nextFrame(pixels, at: time, lumaShortcut: true)
    }

    /// ``nextFrame(_:at:)``; `lumaShortcut` false converts gray through swscale too (tests
    /// compare the two).
    func nextFrame(_ pixels: Pixels, at time: Timestamp?, lumaShortcut: Bool) throws -> ImageBuffer<UInt8>? {
        guard let format, let codec, let packet, let frame, !ended else { return nil }
        while true {
            let received = avcodec_receive_frame(codec, frame)
            if received >= 0 {
                defer { av_frame_unref(frame) }
                let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
                guard width == header.width, height == header.height else {
                    throw VideoError.sizeChanged(path: path, time: time, expected: "\(header.width)×\(header.height)", found: "\(width)×\(height)")
                }
                if lumaShortcut, pixels == .gray, let gray = Self.lumaPlane(of: frame) { return gray }
                return try convert(frame, to: pixels, time: time)
            }
            if received == parallax_averror_eof() { ended = true; return nil }
            guard received == parallax_averror_eagain() else { throw VideoError.corrupt(path: path, time: time, reason: Self.message(received)) }
            // The decoder wants input.
            if flushed { ended = true; return nil }
            let status = av_read_frame(format, packet)
            if status == parallax_averror_eof() {
                avcodec_send_packet(codec, nil)
                flushed = true
                continue
            }
            guard status >= 0 else { throw VideoError.corrupt(path: path, time: time, reason: Self.message(status)) }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex, packet.pointee.size > 0 else { continue }
            let sent = avcodec_send_packet(codec, packet)
            guard sent >= 0 || sent == parallax_averror_eagain() else {
                // FFmpeg refuses a frame over its max_pixels with EINVAL and no word more: a
                // frame whose own header is larger than the stream's says so.
                let hint = sent == -EINVAL ? "; a frame larger than the pixel budget of \(Double(maxPixels) / 1e6) MP "
                    + "(--max-image-megapixels) is refused this way" : ""
                throw VideoError.corrupt(path: path, time: time, reason: Self.message(sent) + hint)
            }
        }
    }

    /// `frame` as `pixels`, through a cached swscale context.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>, to pixels: Pixels, time: Timestamp?) throws -> ImageBuffer<UInt8> {
        // The caller checked the size against the header's.
        let width = frame.pointee.width, height = frame.pointee.height, source = frame.pointee.format
        if scalerKey.map({ $0 != (source, pixels) }) ?? true {
            if scaler != nil { sws_freeContext(scaler) }
            scaler = sws_getContext(width, height, AVPixelFormat(source), width, height, pixels == .gray ? AV_PIX_FMT_GRAY8 : AV_PIX_FMT_RGB24,
                                    Int32(SWS_BICUBIC), nil, nil, nil)
            scalerKey = (source, pixels)
        }
        guard let scaler else { throw VideoError.corrupt(path: path, time: time, reason: "no conversion from its pixel format") }
        let channels = pixels == .gray ? 1 : 3
        // swscale writes whole SIMD blocks: a row of `width × channels` bytes may be written up to
        // its next 16/32/64-byte boundary and the last row past its end. So it writes into an
        // FFmpeg buffer of FFmpeg's own linesize and alignment (av_image_alloc), and the rows are
        // copied out from there, never into a Swift array of exactly `width × channels` per row.
        let target = AlignedImageBuffer(width: Int(width), height: Int(height), channels: channels)
        guard let target else { throw VideoError.corrupt(path: path, time: time, reason: "out of memory for a \(width)×\(height) frame") }
        let rows = withUnsafePointer(to: &frame.pointee.data) { data in
            data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                withUnsafePointer(to: &frame.pointee.linesize) { sizes in
                    sizes.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                        target.scale(with: scaler, from: planes, strides: strides, height: height)
                    }
                }
            }
        }
        guard rows == height else { throw VideoError.corrupt(path: path, time: time, reason: "pixel conversion failed") }
        return target.image()
    }

    /// Pixel formats whose first plane is the full-size 8-bit luma.
    static let lumaFirstFormats = Set([AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P, AV_PIX_FMT_NV12, AV_PIX_FMT_NV21].map(\.rawValue))
        .union(fullRangeFormats)
    /// Of those, the ones whose luma spans 0…255 whatever the frame's range says.
    static let fullRangeFormats = Set([AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_GRAY8].map(\.rawValue))

    /// Limited-range luma (16…235) stretched to 0…255, rounded, as swscale's conversion to gray does.
    static let limitedToFull: [UInt8] = (0..<256).map { UInt8(max(0, min(255, ((Double($0) - 16) * 255 / 219).rounded()))) }

    /// The gray image of a frame whose first plane is its luma: that plane, stretched to full
    /// range when the stream is limited-range (most video) — no colour conversion, a copy through
    /// a table. `nil` for other pixel formats (swscale converts those).
    static func lumaPlane(of frame: UnsafeMutablePointer<AVFrame>) -> ImageBuffer<UInt8>? {
        guard lumaFirstFormats.contains(frame.pointee.format), let plane = frame.pointee.data.0 else { return nil }
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height), stride = Int(frame.pointee.linesize.0)
        guard stride >= width else { return nil }
        let full = fullRangeFormats.contains(frame.pointee.format) || frame.pointee.color_range == AVCOL_RANGE_JPEG
        var samples = [UInt8](repeating: 0, count: width * height)
        limitedToFull.withUnsafeBufferPointer { table in
            samples.withUnsafeMutableBufferPointer { out in
                guard let base = out.baseAddress else { return }
                for y in 0..<height {
                    let row = plane + y * stride
                    if full {
                        (base + y * width).update(from: row, count: width)
                    } else {
                        for x in 0..<width { out[y * width + x] = table[Int(row[x])] }
                    }
                }
            }
        }
        return ImageBuffer(width: width, height: height, channels: 1, samples: samples)
    }

    /// `avformat_find_stream_info`, which decodes the first frames of every stream to learn
    /// what the headers leave out, under the pixel budget: each stream's probing decoder gets
    /// `max_pixels` (``ImageSizeLimit``), so a tiny file declaring a 16000×16000 stream is
    /// refused by the probe instead of allocating its frames. A stream whose header already
    /// declares a size over the budget is refused before any probing.
    static func findStreamInfo(_ container: UnsafeMutablePointer<AVFormatContext>, path: String, maxPixels: Int) throws {
        let count = Int(container.pointee.nb_streams)
        for k in 0..<count {
            guard let parameters = container.pointee.streams[k]?.pointee.codecpar.pointee,
                  parameters.codec_type == AVMEDIA_TYPE_VIDEO, parameters.width > 0, parameters.height > 0 else { continue }
            if case let .failure(refusal) = ImageSizeLimit.check(width: Int(parameters.width), height: Int(parameters.height), limit: maxPixels) {
                throw VideoError.unreadable(path: path, reason: "stream \(k): frame \(refusal)")
            }
        }
        var options = [OpaquePointer?](repeating: nil, count: max(count, 1))
        defer { for k in options.indices { av_dict_free(&options[k]) } }
        for k in 0..<count { av_dict_set_int(&options[k], "max_pixels", Int64(maxPixels), 0) }
        let found = count > 0 ? options.withUnsafeMutableBufferPointer { avformat_find_stream_info(container, $0.baseAddress) }
            : avformat_find_stream_info(container, nil)
        guard found >= 0 else { throw VideoError.unreadable(path: path, reason: Self.message(found)) }
    }

    /// FFmpeg's message for an error code.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
