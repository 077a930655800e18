/// One analyzer in a running graph: the type-erased analyzer plus its instance name.
///
/// Instance names default to the analyzer's registry name; give two instances of one analyzer
/// distinct names (`as:` in a chain).
public final class AnalyzerInstance {
    /// Name in the chain (unique within a bus).
    public let name: String
    /// The analyzer's registry name.
    public let typeName: String
    /// Declared inputs.
    public let inputs: [PortDescription]
    /// Declared outputs.
    public let outputs: [PortDescription]
    /// The options as given, for the run report (`key=value`, sorted).
    public let optionSummary: [String: String]
    var analyzer: any Analyzer

    /// Wraps `analyzer` under `name`.
    public init(_ analyzer: some Analyzer, name: String? = nil, optionSummary: [String: String] = [:]) {
        self.analyzer = analyzer
        self.typeName = type(of: analyzer).name
        self.name = name ?? type(of: analyzer).name
        self.inputs = analyzer.inputs
        self.outputs = analyzer.outputs
        self.optionSummary = optionSummary
    }

    func open(_ context: inout AnalyzerContext) throws { try analyzer.open(context: &context) }
    func process(_ input: AnalyzerInput, _ context: inout AnalyzerContext) throws { try analyzer.process(input, context: &context) }
    func close(_ context: inout AnalyzerContext) throws { try analyzer.close(context: &context) }
}
