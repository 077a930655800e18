import ParallaxBus
/// This folder's plugin bundle: tracking a boxed object from frame to frame. Registered like any
/// package's (``ParallaxPlugin``).
public enum ObjectTrackingPlugin: ParallaxPlugin {
    public static let name = "object-tracking"
    public static func register(into registry: inout PluginRegistry) {
        registry.analyzers.register(TrackObjectAnalyzer.self)
    }
}
