import Foundation

/// Analyzers by registry name, and how to build one from textual options.
///
/// Registration is explicit (`registry.register(IMUIntegrator.self)`); the umbrella module
/// lists the built-ins. Options are set by name from strings, as a chain file or pipeline
/// string gives them; names may be written `snake_case` (documented form) or `camelCase`.
public struct AnalyzerRegistry {
    /// What `parallax plugins` shows about one option.
    public struct OptionInfo: Sendable, Equatable {
        /// `snake_case` name.
        public let name: String
        /// Default value as JSON text.
        public let defaultValue: String
        /// Documentation with unit (from ``AnalyzerOptions/documentation``).
        public let documentation: String
    }

    /// One registered analyzer type.
    public struct Entry {
        public let name: String
        public let summary: String
        public let options: [OptionInfo]
        /// Inputs and outputs with default options.
        public let defaultInputs: [PortDescription]
        public let defaultOutputs: [PortDescription]
        let make: (_ options: [String: String], _ instanceName: String?) throws -> AnalyzerInstance
    }

    private(set) var entries: [String: Entry] = [:]

    /// An empty registry.
    public init() {}

    /// Registered names, sorted.
    public var names: [String] { entries.keys.sorted() }

    /// The entry for `name`, if registered.
    public func entry(_ name: String) -> Entry? { entries[name] }

    /// Registers `type` under `type.name` (a later registration of the same name replaces it).
    public mutating func register<A: Analyzer>(_ type: A.Type) {
        let defaults = OptionCoding.defaults(of: A.Options.self)
        let docs = Dictionary(A.Options.documentation.map { (OptionCoding.snakeCase($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
        let options = defaults.keys.sorted().map { key in
            OptionInfo(name: key, defaultValue: OptionCoding.jsonText(defaults[key]!), documentation: docs[key] ?? "")
        }
        let probe = try? A(options: A.Options())
        entries[A.name] = Entry(
            name: A.name, summary: A.summary, options: options,
            defaultInputs: probe?.inputs ?? [], defaultOutputs: probe?.outputs ?? [],
            make: { values, instanceName in
                let opts = try OptionCoding.decode(A.Options.self, analyzer: A.name, values: values)
                let analyzer = try A(options: opts)
                return AnalyzerInstance(analyzer, name: instanceName, optionSummary: values)
            })
    }

    /// Builds an analyzer by name. Throws ``ChainError`` with a did-you-mean for unknown
    /// analyzer or option names and a clear reason for bad values.
    public func make(_ name: String, options: [String: String], instanceName: String? = nil,
                     location: ChainLocation? = nil) throws -> AnalyzerInstance {
        guard let entry = entries[name] else {
            throw ChainError.unknownAnalyzer(name: name, suggestion: Spelling.closest(to: name, in: names), location: location)
        }
        let known = Set(entry.options.map(\.name))
        for key in options.keys.sorted() where !known.contains(OptionCoding.snakeCase(key)) {
            throw ChainError.unknownOption(analyzer: name, option: key,
                                           suggestion: Spelling.closest(to: OptionCoding.snakeCase(key), in: known.sorted()),
                                           location: location)
        }
        do {
            return try entry.make(options, instanceName)
        } catch let error as OptionCoding.ValueError {
            throw ChainError.invalidOptionValue(analyzer: name, option: error.option, value: error.value, reason: error.reason, location: location)
        } catch let error as AnalyzerError {
            if case let .invalidOption(_, option, reason) = error {
                throw ChainError.invalidOptionValue(analyzer: name, option: option, value: options[option] ?? "", reason: reason, location: location)
            }
            throw error
        }
    }
}
