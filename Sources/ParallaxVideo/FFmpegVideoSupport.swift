import ParallaxDatasets
import ParallaxImage

extension VideoSupport {
    /// Video through FFmpeg (``VideoFile``, ``VideoWriter``), for the folder formats.
    public static let ffmpeg = VideoSupport(
        frameCount: { path in try VideoFile(path: path).packetTimes().count },
        reader: { path, gray in VideoFrames(file: try VideoFile(path: path), pixels: gray ? .gray : .rgb) },
        writer: { path, encoding, width, height, gray in try VideoWriter(path: path, encoding: encoding, width: width, height: height, gray: gray) },
        fileExtension: { VideoWriter.Codec(rawValue: $0)?.fileExtension })

    /// A ``VideoFile``'s frames in presentation order.
    final class VideoFrames: VideoSupport.FrameReader {
        let file: VideoFile
        let pixels: VideoFile.Pixels
        init(file: VideoFile, pixels: VideoFile.Pixels) {
            self.file = file
            self.pixels = pixels
        }
        func nextFrame() throws -> ImageBuffer<UInt8>? { try file.nextFrame(pixels, at: nil) }
    }
}
