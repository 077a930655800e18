import ParallaxBus
/// This folder's plugin bundle: feature tracks (KLT) and descriptor matches (ORB). Registered like
/// any package's (``ParallaxPlugin``).
public enum FeatureTrackingPlugin: ParallaxPlugin {
    public static let name = "feature-tracking"
    public static func register(into registry: inout PluginRegistry) {
        registry.analyzers.register(KLTAnalyzer.self)
        registry.analyzers.register(ORBMatchAnalyzer.self)
    }
}
