/// Everything plugins provide to a run, as one value: the analyzers, and one part per kind of
/// extension a module above the bus defines (dataset formats and output writers in
/// ParallaxDatasets, evaluations in ParallaxEval, …; ``PluginRegistryPart``). Built-ins register
/// through exactly the path an external package uses (``ParallaxPlugin``), and a program passes
/// the registry it built to what it runs: nothing is kept in a mutable global.
///
/// ```swift
/// var plugins = PluginRegistry()
/// plugins.register(MyPlugin.self)          // analyzers, payload writers, formats, evaluations
/// let analyzers = plugins.analyzers
/// ```
public struct PluginRegistry: Sendable {
    /// The analyzers by name.
    public var analyzers = AnalyzerRegistry()
    /// The other parts, by their type.
    private var parts: [ObjectIdentifier: any PluginRegistryPart] = [:]
    /// The plugins registered, in order (their ``ParallaxPlugin/name``).
    public private(set) var plugins: [String] = []

    /// An empty registry.
    public init() {}

    /// The part of type `Part` (an empty one when nothing was registered in it).
    public subscript<Part: PluginRegistryPart>(part part: Part.Type) -> Part {
        get { parts[ObjectIdentifier(part)] as? Part ?? Part() }
        set { parts[ObjectIdentifier(part)] = newValue }
    }

    /// Registers what `plugin` provides (registering a plugin twice registers it once).
    public mutating func register(_ plugin: any ParallaxPlugin.Type) {
        guard !plugins.contains(plugin.name) else { return }
        plugins.append(plugin.name)
        plugin.register(into: &self)
    }

    /// A copy with `plugins` registered too.
    public func adding(_ plugins: [any ParallaxPlugin.Type]) -> PluginRegistry {
        var copy = self
        for p in plugins { copy.register(p) }
        return copy
    }
}

/// A kind of extension a module above the bus adds to ``PluginRegistry`` (dataset formats,
/// output writers, evaluations): a value that starts empty. The module also gives the registry a
/// named accessor (`registry.datasetFormats`).
public protocol PluginRegistryPart: Sendable {
    init()
}

/// A plugin bundle: what one package or plugin folder adds — analyzers, and through the parts
/// the modules it uses define, dataset formats, output writers for its payloads, evaluations —
/// declared in one place. A payload type carries its own other capabilities (``FrameOverlayDrawable``,
/// JSON through `Codable`, and the MCAP encoding ParallaxDatasets defines).
///
/// ```swift
/// public enum HeatPlugin: ParallaxPlugin {
///     public static let name = "heat"
///     public static func register(into registry: inout PluginRegistry) {
///         registry.analyzers.register(HeatAnalyzer.self)
///         registry.evaluations.register(HeatEvaluation.self)   // with ParallaxEval
///     }
/// }
/// ```
public protocol ParallaxPlugin {
    /// The bundle's name (`feature-tracking`), listed by `parallax plugins`.
    static var name: String { get }
    /// Adds what the bundle provides to `registry`.
    static func register(into registry: inout PluginRegistry)
}
