import ParallaxBus
extension EvaluationRegistry: PluginRegistryPart {}

extension PluginRegistry {
    /// The evaluations by name (``EvaluationRegistry``).
    public var evaluations: EvaluationRegistry {
        get { self[part: EvaluationRegistry.self] }
        set { self[part: EvaluationRegistry.self] = newValue }
    }
}

/// The evaluations of ParallaxEval, as a plugin bundle: registered the way any package's are.
public enum StandardEvaluationsPlugin: ParallaxPlugin {
    public static let name = "evaluations"
    public static func register(into registry: inout PluginRegistry) {
        for name in EvaluationRegistry.standard.names {
            if let type = EvaluationRegistry.standard.type(named: name) { registry.evaluations.register(type) }
        }
    }
}
