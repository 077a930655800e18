import ParallaxBus
/// This folder's plugin bundle: visual-inertial odometry (MSCKF) and world maps. Registered like
/// any package's (``ParallaxPlugin``).
public enum VisualInertialOdometryPlugin: ParallaxPlugin {
    public static let name = "vio"
    public static func register(into registry: inout PluginRegistry) {
        registry.analyzers.register(VIOAnalyzer.self)
    }
}
