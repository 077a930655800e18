@_exported import ParallaxOptions

/// An analyzer's options: a `Codable` struct whose every field has a default, each declared
/// with ``Parameter`` (documentation with unit, valid range, choices) on the field itself:
///
/// ```swift
/// struct Options: AnalyzerOptions {
///     @Parameter("features kept per frame", range: 1...10_000) var maxFeatures = 200
///     var detector = PlaneDetector.Settings()   // a ParameterGroup: its parameters are options too
///     init() {}
/// }
/// ```
///
/// `parallax plugins` lists each field with its default (read by encoding `init()`), and the
/// parameters of each ``ParameterGroup`` field (an algorithm's settings) beside them under their
/// own names. Chains set fields by name from strings (`max_features=200`) or YAML; unknown names
/// are rejected with a did-you-mean, out-of-range values before the analyzer is made.
public protocol AnalyzerOptions: ParameterGroup {
    /// Every field at its default value.
    init()
}

extension AnalyzerOptions {
    /// Throws ``AnalyzerError/invalidOption(analyzer:option:reason:)`` for the first field outside
    /// its declared range (a group's parameters included), or a name declared twice. Chains are
    /// checked before the analyzer is made; call this in your analyzer's `init` so that options
    /// set from Swift are checked too.
    public func checkRanges(analyzer: String) throws {
        if let (option, reason) = OptionCoding.firstProblem(self, defaults: Self()) {
            throw AnalyzerError.invalidOption(analyzer: analyzer, option: option, reason: reason)
        }
    }
}

/// Options for analyzers that have none.
public struct NoOptions: AnalyzerOptions {
    public init() {}
}
