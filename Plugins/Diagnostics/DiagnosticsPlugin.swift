import ParallaxBus
/// This folder's plugin bundle: stream statistics, IMU integration and frame quality: what to
/// run first on new data. Registered like any package's (``ParallaxPlugin``).
public enum DiagnosticsPlugin: ParallaxPlugin {
    public static let name = "diagnostics"
    public static func register(into registry: inout PluginRegistry) {
        registry.analyzers.register(StreamStatsAnalyzer.self)
        registry.analyzers.register(IMUIntegrator.self)
        registry.analyzers.register(FrameQualityAnalyzer.self)
    }
}
