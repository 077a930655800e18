import ParallaxBus
/// This folder's plugin bundle: reference pictures found and tracked in the frames. Registered like
/// any package's (``ParallaxPlugin``).
public enum ImageTrackingPlugin: ParallaxPlugin {
    public static let name = "image-tracking"
    public static func register(into registry: inout PluginRegistry) {
        registry.analyzers.register(ImageTrackAnalyzer.self)
        registry.analyzers.register(ImageDetectAnalyzer.self)
    }
}
