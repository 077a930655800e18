import Foundation
import CFFmpeg
import ParallaxBus
import ParallaxPayloads
import ParallaxFiles
import ParallaxDatasets
import ParallaxImage

/// Encodes a camera stream into a video file through FFmpeg (libavcodec encodes, libavformat
/// muxes, libswscale converts RGB to the codec's pixel format). Frames of one size, gray or RGB,
/// in time order. The file is written beside its path (`NAME.partial`) and moved into place by
/// ``finish()``: a run that stops half-way leaves no half video under the name.
///
/// Times in the container are the frames' times minus the first frame's, in the container's
/// resolution (Matroska: 1 ms; MP4: the codec's 1 µs): players show the right rate. Exact
/// nanosecond times live in a Parallax folder's `data.csv` beside the video.
///
/// Encoding runs on one thread, so the same frames give the same bytes every run.
public final class VideoWriter: VideoSupport.FrameWriter {
    /// The codecs Parallax writes.
    public enum Codec: String, Sendable, CaseIterable {
        /// FFV1 in Matroska: lossless (gray as 8-bit luma, RGB as 32-bit BGR0), pixels read back
        /// exactly. About a third to a half of PNG's size for camera images.
        case ffv1
        /// H.264 (x264) in MP4: lossy, small. Quality is x264's CRF (0–51, lower is better;
        /// default 18, visually near-lossless); gray stays 8-bit luma (4:0:0), RGB becomes
        /// YUV 4:2:0.
        case h264

        /// The container a codec is written in.
        public var fileExtension: String {
            switch self {
            case .ffv1: return "mkv"
            case .h264: return "mp4"
            }
        }
    }

    /// Why a video could not be written (an option or a frame the writer cannot take: bad input;
    /// FFmpeg failing on the disk: not).
    public enum WriteError: Error, Equatable, Sendable, CustomStringConvertible {
        case unsupportedCodec(String)
        case badQuality(codec: String, quality: Int, range: ClosedRange<Int>)
        case badSize(path: String, width: Int, height: Int)
        case frameMismatch(path: String, time: Timestamp, expected: String, found: String)
        case timeNotIncreasing(path: String, time: Timestamp, previous: Timestamp)
        case failed(path: String, reason: String)
        /// The target cannot be written (``OutputPath/checkFileTarget(_:option:)``): bad input.
        case refused(String)

        /// Whether the frames or options given are at fault (the CLI's exit 2), not the writing.
        public var isBadInput: Bool {
            if case .failed = self { return false }
            return true
        }

        public var description: String {
            switch self {
            case let .unsupportedCodec(name):
                return "unknown video codec '\(name)' (\(Codec.allCases.map(\.rawValue).joined(separator: ", ")))"
            case let .badQuality(codec, quality, range):
                return "\(codec) quality \(quality) is outside \(range.lowerBound)…\(range.upperBound)"
            case let .badSize(path, width, height):
                return "\(path): cannot encode \(width)×\(height) frames (both sides must be 2…16384)"
            case let .frameMismatch(path, time, expected, found):
                return "\(path): the frame at \(time.nanoseconds) ns is \(found), the video's frames are \(expected)"
            case let .timeNotIncreasing(path, time, previous):
                return "\(path): the frame at \(time.nanoseconds) ns does not come after the previous one (\(previous.nanoseconds) ns) in the container's resolution"
            case let .failed(path, reason): return "\(path): writing the video failed (\(reason))"
            case let .refused(reason): return reason
            }
        }
    }

    public let path: String
    public let codec: Codec
    public let width: Int
    public let height: Int
    public let gray: Bool
    private let partial: String
    /// Where the video is written until ``finish(commit:)`` moves it to its name (`NAME.partial`).
    public var stagedPath: String { partial }

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    /// The RGB frame handed to ``scaler`` (colour output only).
    private var rgbSource: AlignedImageBuffer?
    private var origin: Timestamp?
    private var lastTicks: Int64?
    private var lastTime: Timestamp?
    /// The newest interval between frames (codec ticks): the duration given to packets the
    /// encoder leaves without one (MP4 ends its edit list at the last packet's end: without a
    /// duration the last frame would fall outside it).
    private var interval: Int64 = 0
    private var finished = false

    /// The codec's time base: microseconds.
    private static let timeBase = AVRational(num: 1, den: 1_000_000)

    /// The container tag (`comment`) every video Parallax writes carries, as provenance.
    public static let authorTag = "written by parallax"

    /// A video of `codec`: a staged one (perhaps cut short by a kill, with no index yet) begins
    /// with its container's signature (Matroska's EBML id; MP4's `ftyp` box).
    public static func fileKind(_ codec: Codec) -> OutputPath.FileKind {
        let matroska = codec.fileExtension == "mkv"
        return OutputPath.FileKind(name: matroska ? "a Matroska video" : "an MP4 video",
                                   begun: { path in hasSignature(OutputPath.head(path, count: 8), matroska: matroska) })
    }

    /// Whether `head` (a file's first 8 bytes) starts a Matroska file or, when `matroska` is
    /// false, an MP4 one.
    private static func hasSignature(_ head: [UInt8], matroska: Bool) -> Bool {
        if matroska { return head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) }
        return head.count >= 8 && Array(head[4..<8]) == Array("ftyp".utf8)
    }

    /// Starts a video at `path` for `width` × `height` frames, gray or RGB. `quality` is the
    /// codec's (``Codec``); nil takes its default.
    public init(path: String, codec: Codec, width: Int, height: Int, gray: Bool, quality: Int? = nil) throws {
        _ = VideoFile.silenceLog
        self.path = path
        self.codec = codec
        self.width = width
        self.height = height
        self.gray = gray
        partial = OutputPath.staged(path)
        do { try OutputPath.checkFileTarget(path, option: nil, kind: Self.fileKind(codec)) } catch { throw WriteError.refused("\(error)") }
        guard (2...16384).contains(width), (2...16384).contains(height) else {
            throw WriteError.badSize(path: path, width: width, height: height)
        }
        var success = false
        defer { if !success { release(); try? FileManager.default.removeItem(atPath: partial) } }

        let encoderName = codec == .ffv1 ? "ffv1" : "libx264"
        guard let videoCodec = avcodec_find_encoder_by_name(encoderName) else { throw WriteError.failed(path: path, reason: "this FFmpeg has no \(encoderName) encoder") }
        guard let container = av_guess_format(nil, "x." + codec.fileExtension, nil) else { throw WriteError.failed(path: path, reason: "no \(codec.fileExtension) muxer") }
        var context: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&context, container, nil, partial) >= 0, let context else {
            throw WriteError.failed(path: path, reason: "out of memory")
        }
        format = context
        // No random segment id, no library version in the file: same frames, same bytes.
        context.pointee.flags |= AVFMT_FLAG_BITEXACT
        guard let newStream = avformat_new_stream(context, nil), let codecContext = avcodec_alloc_context3(videoCodec) else {
            throw WriteError.failed(path: path, reason: "out of memory")
        }
        stream = newStream
        encoder = codecContext
        codecContext.pointee.width = Int32(width)
        codecContext.pointee.height = Int32(height)
        codecContext.pointee.time_base = Self.timeBase
        codecContext.pointee.thread_count = 1
        codecContext.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        switch codec {
        case .ffv1:
            codecContext.pointee.pix_fmt = gray ? AV_PIX_FMT_GRAY8 : AV_PIX_FMT_BGR0
            if let quality { throw WriteError.badQuality(codec: codec.rawValue, quality: quality, range: 0...0) }
        case .h264:
            // 4:2:0 halves the chroma in both directions and needs even sides; frames of an odd
            // width or height keep their chroma whole (4:4:4, x264's High 4:4:4 profile).
            let subsampled = width % 2 == 0 && height % 2 == 0
            codecContext.pointee.pix_fmt = gray ? AV_PIX_FMT_GRAY8 : subsampled ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_YUV444P
            // Gray frames are full-range luma: said so in the stream, or decoders (which give
            // monochrome H.264 as YUV) would take 0…255 for video's 16…235.
            if gray { codecContext.pointee.color_range = AVCOL_RANGE_JPEG }
            let crf = quality ?? 18
            guard (0...51).contains(crf) else { throw WriteError.badQuality(codec: codec.rawValue, quality: crf, range: 0...51) }
            av_opt_set(codecContext.pointee.priv_data, "crf", "\(crf)", 0)
            av_opt_set(codecContext.pointee.priv_data, "preset", "medium", 0)
            // No B-frames: packets in presentation order, so every reader (and MP4's edit list)
            // sees each frame at its own time.
            codecContext.pointee.max_b_frames = 0
        }
        if context.pointee.oformat.pointee.flags & parallax_avfmt_globalheader() != 0 {
            codecContext.pointee.flags |= parallax_codec_flag_global_header()
        }
        var status = avcodec_open2(codecContext, videoCodec, nil)
        guard status >= 0 else { throw WriteError.failed(path: path, reason: "opening \(encoderName): \(VideoFile.message(status))") }
        status = avcodec_parameters_from_context(newStream.pointee.codecpar, codecContext)
        guard status >= 0 else { throw WriteError.failed(path: path, reason: VideoFile.message(status)) }
        newStream.pointee.time_base = Self.timeBase
        if context.pointee.oformat.pointee.flags & parallax_avfmt_nofile() == 0 {
            status = avio_open(&context.pointee.pb, partial, AVIO_FLAG_WRITE)
            guard status >= 0 else { throw WriteError.failed(path: path, reason: "cannot create \(partial): \(VideoFile.message(status))") }
        }
        av_dict_set(&context.pointee.metadata, "comment", Self.authorTag, 0)
        status = avformat_write_header(context, nil)
        guard status >= 0 else { throw WriteError.failed(path: path, reason: VideoFile.message(status)) }
        guard let f = av_frame_alloc(), let p = av_packet_alloc() else { throw WriteError.failed(path: path, reason: "out of memory") }
        frame = f
        packet = p
        f.pointee.format = codecContext.pointee.pix_fmt.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        status = av_frame_get_buffer(f, 0)
        guard status >= 0 else { throw WriteError.failed(path: path, reason: VideoFile.message(status)) }
        if !gray {
            scaler = sws_getContext(Int32(width), Int32(height), AV_PIX_FMT_RGB24, Int32(width), Int32(height), codecContext.pointee.pix_fmt,
                                    Int32(SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT), nil, nil, nil)
            guard scaler != nil else { throw WriteError.failed(path: path, reason: "no conversion from RGB") }
            rgbSource = AlignedImageBuffer(width: width, height: height, channels: 3)
            guard rgbSource != nil else { throw WriteError.failed(path: path, reason: "out of memory for a \(width)×\(height) frame") }
        }
        success = true
    }

    /// ``init(path:codec:width:height:gray:quality:)`` by the codec's name.
    public convenience init(path: String, encoding: VideoSupport.Encoding, width: Int, height: Int, gray: Bool) throws {
        guard let codec = Codec(rawValue: encoding.codec) else { throw WriteError.unsupportedCodec(encoding.codec) }
        try self.init(path: path, codec: codec, width: width, height: height, gray: gray, quality: encoding.quality)
    }

    deinit {
        if !finished {
            release()
            try? FileManager.default.removeItem(atPath: partial)
        }
    }

    private func release() {
        if scaler != nil { sws_freeContext(scaler); scaler = nil }
        if frame != nil { av_frame_free(&frame) }
        if packet != nil { av_packet_free(&packet) }
        if encoder != nil { avcodec_free_context(&encoder) }
        if let format {
            if format.pointee.oformat.pointee.flags & parallax_avfmt_nofile() == 0 { avio_closep(&format.pointee.pb) }
            avformat_free_context(format)
            self.format = nil
        }
    }

    public func write(_ image: ImageBuffer<UInt8>, at time: Timestamp) throws {
        guard let encoder, let frame, !finished else { throw WriteError.failed(path: path, reason: "the writer is finished") }
        let channels = gray ? 1 : 3
        guard image.width == width, image.height == height, image.channels == channels else {
            throw WriteError.frameMismatch(path: path, time: time, expected: "\(width)×\(height)×\(channels)", found: "\(image.width)×\(image.height)×\(image.channels)")
        }
        let origin = self.origin ?? time
        self.origin = origin
        let ticks = av_rescale_q_rnd(time.nanoseconds &- origin.nanoseconds, AVRational(num: 1, den: 1_000_000_000), Self.timeBase, AV_ROUND_NEAR_INF)
        if let lastTicks, let lastTime, ticks <= lastTicks { throw WriteError.timeNotIncreasing(path: path, time: time, previous: lastTime) }
        var status = av_frame_make_writable(frame)
        guard status >= 0 else { throw WriteError.failed(path: path, reason: VideoFile.message(status)) }
        if gray, let plane = frame.pointee.data.0 {
            let stride = Int(frame.pointee.linesize.0)
            image.samples.withUnsafeBufferPointer { samples in
                guard let base = samples.baseAddress else { return }
                for y in 0..<height { (plane + y * stride).update(from: base + y * width, count: width) }
            }
        } else {
            // swscale reads its source in whole SIMD blocks: the RGB rows go through an
            // FFmpeg-allocated buffer (``AlignedImageBuffer``), never straight from the array.
            guard let scaler, let source = rgbSource else { throw WriteError.failed(path: path, reason: "no conversion from RGB") }
            source.copyRows(from: image)
            let rows = withUnsafeMutablePointer(to: &frame.pointee.data) { data in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                    withUnsafePointer(to: &frame.pointee.linesize) { sizes in
                        sizes.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                            source.scale(with: scaler, into: planes, strides: strides)
                        }
                    }
                }
            }
            guard rows == Int32(height) else { throw WriteError.failed(path: path, reason: "converting the frame at \(time.nanoseconds) ns from RGB failed") }
        }
        frame.pointee.pts = ticks
        if let lastTicks { interval = ticks - lastTicks }
        status = avcodec_send_frame(encoder, frame)
        guard status >= 0 else { throw WriteError.failed(path: path, reason: "encoding the frame at \(time.nanoseconds) ns: \(VideoFile.message(status))") }
        lastTicks = ticks
        lastTime = time
        try drain()
    }

    /// Writes the packets the encoder has ready.
    private func drain() throws {
        guard let encoder, let packet, let format, let stream else { return }
        while true {
            let received = avcodec_receive_packet(encoder, packet)
            if received == parallax_averror_eagain() || received == parallax_averror_eof() { return }
            guard received >= 0 else { throw WriteError.failed(path: path, reason: VideoFile.message(received)) }
            if packet.pointee.duration <= 0 { packet.pointee.duration = interval }
            av_packet_rescale_ts(packet, encoder.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            let status = av_interleaved_write_frame(format, packet)
            guard status >= 0 else { throw WriteError.failed(path: path, reason: VideoFile.message(status)) }
        }
    }

    /// Finishes the video (the encoder's last frames, the container's index) and, with
    /// `commit` (default), moves it to its name; without (an interrupted conversion), it stays a
    /// whole, playable file under ``stagedPath`` and an earlier file under the name is kept.
    public func finish() throws { try finish(commit: true) }

    /// ``finish()``, or with `commit` false the whole video left under ``stagedPath``.
    public func finish(commit: Bool) throws {
        guard !finished else { return }
        guard let encoder, let format else { throw WriteError.failed(path: path, reason: "the writer is closed") }
        var status = avcodec_send_frame(encoder, nil)
        guard status >= 0 else { throw WriteError.failed(path: path, reason: VideoFile.message(status)) }
        try drain()
        status = av_write_trailer(format)
        guard status >= 0 else { throw WriteError.failed(path: path, reason: VideoFile.message(status)) }
        release()
        finished = true
        guard commit else { return }
        // One rename (never onto a folder); on failure the finished video stays as the partial file.
        do { try OutputPath.commit(partial, to: path) } catch let error as OutputPath.CommitError {
            throw WriteError.failed(path: path, reason: "\(error.reason); the video is kept as '\(partial)'")
        }
    }
}
