import ParallaxBus
import ParallaxPayloads
import ParallaxImage
import ParallaxFiles

/// Video decoding and encoding for the folder formats, which live below FFmpeg: the video
/// target (ParallaxVideo) provides an implementation through its plugin bundle
/// (``PluginRegistry/videoSupport``, handed to readers in ``DatasetOptions/videoSupport``), so a
/// Parallax folder can keep a camera stream as one video file (`video: cam0/data.mkv`) and
/// `parallax convert --video CODEC` can write one. Without it such a stream is an error that says
/// so.
public struct VideoSupport: Sendable {
    /// A video's frames, decoded one after another in presentation order.
    public protocol FrameReader: AnyObject {
        /// The next frame, or nil after the last.
        func nextFrame() throws -> ImageBuffer<UInt8>?
    }

    /// Encodes frames of one size and pixel kind, in time order, into a video file that appears
    /// whole at its path when finished.
    public protocol FrameWriter: AnyObject {
        /// Appends `image` shown at `time` (strictly after the previous frame's time).
        func write(_ image: ImageBuffer<UInt8>, at time: Timestamp) throws
        /// Flushes the encoder and moves the file into place.
        func finish() throws
    }

    /// How a camera stream is encoded: a codec name the implementation knows (`ffv1`, `h264`,
    /// `mjpeg`), and its quality (codec-specific: x264's CRF, JPEG's q; nil = the codec's
    /// default).
    public struct Encoding: Sendable, Equatable {
        public var codec: String
        public var quality: Int?
        public init(codec: String, quality: Int? = nil) {
            self.codec = codec
            self.quality = quality
        }
    }

    /// The number of frames the video at a path holds (its packets with data, without decoding).
    public var frameCount: @Sendable (_ path: String) throws -> Int
    /// Opens the video at a path to decode, as gray (`true`) or RGB frames.
    public var reader: @Sendable (_ path: String, _ gray: Bool) throws -> any FrameReader
    /// Starts a video at a path for frames of the given size, gray (`true`) or RGB.
    public var writer: @Sendable (_ path: String, _ encoding: Encoding, _ width: Int, _ height: Int, _ gray: Bool) throws -> any FrameWriter
    /// The file extension (container) a codec is written in (`mkv`, `mp4`), or nil for a codec
    /// the implementation does not know.
    public var fileExtension: @Sendable (_ codec: String) -> String?

    public init(frameCount: @escaping @Sendable (String) throws -> Int,
                reader: @escaping @Sendable (String, Bool) throws -> any FrameReader,
                writer: @escaping @Sendable (String, Encoding, Int, Int, Bool) throws -> any FrameWriter,
                fileExtension: @escaping @Sendable (String) -> String?) {
        self.frameCount = frameCount
        self.reader = reader
        self.writer = writer
        self.fileExtension = fileExtension
    }

    /// Why video could not be used here.
    public struct Unavailable: Error, BadInput, CustomStringConvertible {
        public var path: String
        public var description: String {
            "\(path): a video stream, but this program was built without video support (the ParallaxVideo target, FFmpeg)"
        }
    }

    /// `support`, or an error naming `path` when there is none.
    public static func require(_ support: VideoSupport?, for path: String) throws -> VideoSupport {
        guard let support else { throw Unavailable(path: path) }
        return support
    }
}
