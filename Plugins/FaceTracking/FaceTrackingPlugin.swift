import ParallaxBus
/// This folder's plugin bundle: head pose and gaze from face landmarks. Registered like any
/// package's (``ParallaxPlugin``).
public enum FaceTrackingPlugin: ParallaxPlugin {
    public static let name = "face-tracking"
    public static func register(into registry: inout PluginRegistry) {
        registry.analyzers.register(FacePoseAnalyzer.self)
        registry.analyzers.register(GazeAnalyzer.self)
    }
}
