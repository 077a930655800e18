import ParallaxBus
/// This folder's plugin bundle: stereo depth, point clouds, planes, hit tests and measurements,
/// depth filters. Registered like any package's (``ParallaxPlugin``).
public enum DepthPlugin: ParallaxPlugin {
    public static let name = "depth"
    public static func register(into registry: inout PluginRegistry) {
        registry.analyzers.register(StereoDepthAnalyzer.self)
        registry.analyzers.register(PointCloudAnalyzer.self)
        registry.analyzers.register(PlanesAnalyzer.self)
        registry.analyzers.register(HitTestAnalyzer.self)
        registry.analyzers.register(MeasureAnalyzer.self)
        registry.analyzers.register(DepthColorizeAnalyzer.self)
        registry.analyzers.register(DepthFilterAnalyzer.self)
        registry.analyzers.register(DepthRegisterAnalyzer.self)
    }
}
