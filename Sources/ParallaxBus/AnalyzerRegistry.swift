import Foundation
import ParallaxFiles
import ParallaxOptions

/// Analyzers by registry name, and how to build one from textual options.
///
/// Registration is explicit (`registry.register(IMUIntegrator.self)`); the umbrella module
/// lists the built-ins. Options are set by name from strings, as a chain file or pipeline
/// string gives them; names may be written `snake_case` (documented form) or `camelCase`.
public struct AnalyzerRegistry: Sendable {
    /// What `parallax plugins` shows about one option.
    public struct OptionInfo: Sendable, Equatable {
        /// `snake_case` name.
        public let name: String
        /// Default value as JSON text (`none` when unset).
        public let defaultValue: String
        /// Documentation with unit (from the field's ``Parameter``, on the options or in one of
        /// their ``ParameterGroup``s).
        public let documentation: String
        /// The value's type (`integer`, `number or none`, `list of text (a,b,c)`), when declared.
        public let type: String?
        /// The valid range or rule (`1…10000`), when declared.
        public let range: String?
        /// The allowed values, for enumerations.
        public let choices: [String]?
        /// Where the default comes from when the data says (``Analyzer/optionsFromData``); `nil`:
        /// the default is the default.
        public let fromData: String?

        /// An option described at run time (an ``AnalyzerResolver``'s analyzer).
        public init(name: String, defaultValue: String, documentation: String, type: String?, range: String?, choices: [String]?,
                    fromData: String? = nil) {
            self.name = name
            self.defaultValue = defaultValue
            self.documentation = documentation
            self.type = type
            self.range = range
            self.choices = choices
            self.fromData = fromData
        }
    }

    /// One registered analyzer type.
    public struct Entry: Sendable {
        public let name: String
        public let summary: String
        public let options: [OptionInfo]
        /// Inputs and outputs with default options.
        public let defaultInputs: [PortDescription]
        public let defaultOutputs: [PortDescription]
        /// Why the analyzer cannot be made with its default options (its ports then depend on
        /// options the user must give); `nil` when it can.
        public let defaultsProblem: String?
        /// What it asks of its inputs' producers (``Analyzer/upstreamPreferences``).
        public let upstreamPreferences: [UpstreamPreference]
        /// The name an instance takes when the chain gives it none, where that is not the
        /// entry's name (a `python:FILE.py` instance is named after its class's `name`).
        public var defaultInstanceName: String?
        let make: @Sendable (_ options: [String: String], _ instanceName: String?, _ remap: [String: String]) throws -> AnalyzerInstance
        /// Decodes `options` as ``make`` does (types, ranges, rules) without making the analyzer.
        let decode: @Sendable (_ options: [String: String]) throws -> Void

        /// An entry described at run time (an ``AnalyzerResolver``'s): `make` builds an instance
        /// from the chain's options (`instanceName`, port `remap` as the chain gives them),
        /// `decode` checks the options as `make` would, without making anything.
        public init(name: String, summary: String, options: [OptionInfo], defaultInputs: [PortDescription], defaultOutputs: [PortDescription],
                    defaultsProblem: String? = nil, upstreamPreferences: [UpstreamPreference] = [],
                    make: @escaping @Sendable (_ options: [String: String], _ instanceName: String?, _ remap: [String: String]) throws -> AnalyzerInstance,
                    decode: @escaping @Sendable (_ options: [String: String]) throws -> Void) {
            self.name = name
            self.summary = summary
            self.options = options
            self.defaultInputs = defaultInputs
            self.defaultOutputs = defaultOutputs
            self.defaultsProblem = defaultsProblem
            self.upstreamPreferences = upstreamPreferences
            self.make = make
            self.decode = decode
        }
    }

    private(set) var entries: [String: Entry] = [:]
    /// Resolvers of `PREFIX:ARGUMENT` names, by prefix.
    private(set) var resolvers: [String: AnalyzerResolver] = [:]

    /// The resolvers, sorted by prefix (for `parallax plugins`).
    public var resolverList: [AnalyzerResolver] { resolvers.keys.sorted().compactMap { resolvers[$0] } }

    /// Adds `resolver` for names `resolver.prefix:ARGUMENT` (replacing one of the same prefix).
    public mutating func register(resolver: AnalyzerResolver) { resolvers[resolver.prefix] = resolver }

    /// The resolver `name` (`PREFIX:ARGUMENT`) is for, with the argument; `nil` for a registered
    /// name or one without a registered prefix.
    public func resolver(for name: String) -> (resolver: AnalyzerResolver, argument: String)? {
        guard entries[name] == nil, let colon = name.firstIndex(of: ":") else { return nil }
        let argument = String(name[name.index(after: colon)...])
        guard let r = resolvers[String(name[..<colon])], !argument.isEmpty else { return nil }
        return (r, argument)
    }

    /// The entry for `name`: a registered one, or one a resolver makes for `PREFIX:ARGUMENT`
    /// (which may read files or start a process: call it when describing or making). `nil` for
    /// an unknown name; throws the resolver's error (naming its argument) when it cannot.
    public func resolvedEntry(_ name: String) throws -> Entry? {
        if let entry = entries[name] { return entry }
        guard let (resolver, argument) = resolver(for: name) else { return nil }
        return try resolver.resolve(argument)
    }

    /// A pipeline writes `python:FILE` where `name:instance` names an instance: when `name` is a
    /// resolver's prefix (and no registered analyzer), the analyzer is `name:ARGUMENT` and the
    /// instance name follows a second colon (`python:detect.py:left`), if given.
    public func splittingResolverName(_ name: String, instanceName: String?) -> (analyzer: String, instanceName: String?) {
        guard entries[name] == nil, resolvers[name] != nil, let rest = instanceName, !rest.isEmpty else { return (name, instanceName) }
        if let colon = rest.lastIndex(of: ":"), colon != rest.startIndex, rest.index(after: colon) != rest.endIndex {
            return (name + ":" + rest[..<colon], String(rest[rest.index(after: colon)...]))
        }
        return (name + ":" + rest, nil)
    }

    /// An empty registry.
    public init() {}

    /// Registered names, sorted.
    public var names: [String] { entries.keys.sorted() }

    /// The entry for `name`, if registered.
    public func entry(_ name: String) -> Entry? { entries[name] }

    /// Registers `type` under `type.name` (a later registration of the same name replaces it).
    public mutating func register<A: Analyzer>(_ type: A.Type) {
        let options = OptionCoding.options(of: A.Options()).map { o in
            OptionInfo(name: o.name, defaultValue: OptionCoding.jsonText(o.defaultValue), documentation: o.declaration?.documentation ?? "",
                       type: o.declaration?.typeDescription, range: o.declaration?.rangeText, choices: o.declaration?.choices,
                       fromData: A.optionsFromData[o.name])
        }
        // The defaults are validated like any user value: an analyzer whose defaults are invalid
        // is listed with the reason instead of with ports it would never have.
        var problem: String?
        var probe: A?
        do {
            probe = try A(options: try OptionCoding.decode(A.Options.self, defaults: A.Options(), values: [:]))
        } catch let error as OptionCoding.ValueError {
            problem = "option '\(error.option)': \(error.reason)"
        } catch {
            problem = "\(error)"
        }
        entries[A.name] = Entry(
            name: A.name, summary: A.summary, options: options,
            defaultInputs: probe?.inputs ?? [], defaultOutputs: probe?.outputs ?? [], defaultsProblem: problem,
            upstreamPreferences: A.upstreamPreferences,
            make: { values, instanceName, remap in
                let opts = try OptionCoding.decode(A.Options.self, defaults: A.Options(), values: values)
                let analyzer = try A(options: opts)
                let effective = Dictionary(OptionCoding.options(of: opts).map { ($0.name, OptionCoding.valueText($0.defaultValue)) }, uniquingKeysWith: { a, _ in a })
                return try AnalyzerInstance(analyzer, name: instanceName, optionSummary: values, effectiveOptions: effective,
                                            givenOptions: Set(values.keys.map(OptionCoding.snakeCase)), remapping: remap)
            },
            decode: { values in _ = try OptionCoding.decode(A.Options.self, defaults: A.Options(), values: values) })
    }

    /// Checks `options` of analyzer `name` as ``make(_:options:instanceName:remap:location:)``
    /// would (types, ranges, rules), without making it: what a command can refuse before it
    /// writes anything. Checks made by the analyzer itself (options that must agree) are not.
    public func checkValues(_ name: String, options: [String: String], location: ChainLocation? = nil) throws(ChainError) {
        guard let entry = entries[name] else { return }
        do {
            try entry.decode(options)
        } catch let error as OptionCoding.ValueError {
            throw ChainError.invalidOptionValue(analyzer: name, option: error.option, value: error.value, reason: error.reason, location: location)
        } catch {
            throw ChainError.syntax(message: "\(error)", location: location)
        }
    }

    /// Builds an analyzer by name. Throws ``ChainError`` with a did-you-mean for unknown
    /// analyzer or option names and a clear reason for bad values.
    /// A resolver's name (`python:FILE`, or `python` with the file as `instanceName`, as a
    /// pipeline parses it) is resolved first; its failure is the chain's (``ChainError/syntax``
    /// with the resolver's message, which names the argument and why).
    public func make(_ name: String, options: [String: String], instanceName: String? = nil, remap: [String: String] = [:],
                     location: ChainLocation? = nil) throws -> AnalyzerInstance {
        let (name, instanceName) = splittingResolverName(name, instanceName: instanceName)
        let resolved: Entry?
        // A resolver's error names its argument (the file) and why: the message as it is.
        do { resolved = try resolvedEntry(name) } catch let error as ChainError { throw error } catch {
            throw ChainError.syntax(message: "\(error)", location: location)
        }
        guard let entry = resolved else {
            throw ChainError.unknownAnalyzer(name: name, suggestion: Spelling.closest(to: name, in: names), location: location)
        }
        let known = Set(entry.options.map(\.name))
        for key in options.keys.sorted() where !known.contains(OptionCoding.snakeCase(key)) {
            throw ChainError.unknownOption(analyzer: name, option: key,
                                           suggestion: Spelling.closest(to: OptionCoding.snakeCase(key), in: known.sorted()),
                                           location: location)
        }
        do {
            return try entry.make(options, instanceName, remap)
        } catch let error as AnalyzerInstance.RemapError {
            if case let .unknownPort(_, port, ports) = error {
                throw ChainError.unknownPort(analyzer: name, port: port, suggestion: Spelling.closest(to: port, in: ports), location: location)
            }
            throw ChainError.syntax(message: error.description, location: location)
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
