import ParallaxBus

extension OutputWriterRegistry: PluginRegistryPart {}

extension PluginRegistry {
    /// Which output streams get a file of their own, and how (``OutputWriterRegistry``).
    public var outputWriters: OutputWriterRegistry {
        get { self[part: OutputWriterRegistry.self] }
        set { self[part: OutputWriterRegistry.self] = newValue }
    }
}

/// The output writers of ParallaxOutputs (trajectories as TUM, tracked objects as OTB, images and
/// depth as PNG, point clouds as PLY, fixations, image anchors), as a plugin bundle: registered
/// the way any package's are.
public enum StandardOutputsPlugin: ParallaxPlugin {
    public static let name = "outputs"
    public static func register(into registry: inout PluginRegistry) {
        registry.outputWriters.merge(OutputWriterRegistry.standard)
    }
}
