/// Analyzers named `PREFIX:ARGUMENT` whose ports and options are known only once the argument
/// is read at run time (`python:detect.py`: the Python file declares them), as opposed to the
/// analyzer types an ``AnalyzerRegistry`` registers with static ports and options.
///
/// The resolver turns the argument into a registry ``AnalyzerRegistry/Entry``, the same value a
/// registered type gives: `parallax plugins python:FILE.py` describes it, a chain makes it with
/// `key=value` options, and the bus runs the instance like any other. It throws, naming the
/// argument (the file) and why, when the argument names no analyzer: the chain's bad input.
public struct AnalyzerResolver: Sendable {
    /// The prefix before the colon (`python`).
    public let prefix: String
    /// What the argument is, for `parallax plugins` (`FILE.py`).
    public let argumentName: String
    /// One line for `parallax plugins`.
    public let summary: String
    /// The entry for `ARGUMENT` (the text after `PREFIX:`); the entry's name is `PREFIX:ARGUMENT`.
    public let resolve: @Sendable (_ argument: String) throws -> AnalyzerRegistry.Entry

    /// A resolver for `prefix:ARGUMENT` names.
    public init(prefix: String, argumentName: String, summary: String,
                resolve: @escaping @Sendable (_ argument: String) throws -> AnalyzerRegistry.Entry) {
        self.prefix = prefix
        self.argumentName = argumentName
        self.summary = summary
        self.resolve = resolve
    }
}
