import ParallaxBus
/// This folder's plugin bundle: landmarks triangulated from feature tracks and poses. Registered
/// like any package's (``ParallaxPlugin``).
public enum TriangulationPlugin: ParallaxPlugin {
    public static let name = "triangulation"
    public static func register(into registry: inout PluginRegistry) {
        registry.analyzers.register(TriangulationAnalyzer.self)
    }
}
