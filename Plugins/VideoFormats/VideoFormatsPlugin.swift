import ParallaxBus
/// This folder's plugin bundle: choosing a video format for a chain. Registered like any package's
/// (``ParallaxPlugin``).
public enum VideoFormatsPlugin: ParallaxPlugin {
    public static let name = "video-formats"
    public static func register(into registry: inout PluginRegistry) {
        registry.analyzers.register(VideoFormatAnalyzer.self)
    }
}
