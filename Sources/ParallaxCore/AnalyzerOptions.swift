/// An analyzer's options: a `Codable` struct whose every field has a default.
///
/// `parallax plugins` lists each field with its default (read by encoding `init()`) and the
/// text in ``documentation`` (say the unit there). Chains set fields by name from strings
/// (`max_features=200`) or YAML; unknown names are rejected with a did-you-mean.
public protocol AnalyzerOptions: Codable, Sendable {
    /// Every field at its default value.
    init()
    /// One line per field: what it means, with its unit. Keys are the field names.
    static var documentation: [String: String] { get }
}

extension AnalyzerOptions {
    public static var documentation: [String: String] { [:] }
}

/// Options for analyzers that have none.
public struct NoOptions: AnalyzerOptions {
    public init() {}
}
