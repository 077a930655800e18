import ParallaxBus
/// This folder's plugin bundle: faces and their landmarks (dlib). Registered like any package's
/// (``ParallaxPlugin``).
public enum FaceLandmarksPlugin: ParallaxPlugin {
    public static let name = "face-landmarks"
    public static func register(into registry: inout PluginRegistry) {
        registry.analyzers.register(FaceLandmarksAnalyzer.self)
    }
}
