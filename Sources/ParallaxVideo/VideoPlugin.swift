import ParallaxBus
import ParallaxDatasets

/// Video through FFmpeg, as a plugin bundle: video files as a dataset format (asked before the
/// folder formats), and the video implementation the Parallax folder format reads and writes
/// `video:` streams with.
public enum VideoPlugin: ParallaxPlugin {
    public static let name = "video"
    public static func register(into registry: inout PluginRegistry) {
        registry.datasetFormats.register(VideoFileFormat.self)
        registry.videoSupport = .ffmpeg
    }
}
