import ParallaxFiles
import ParallaxOptions

/// One `--set ANALYZER.OPTION=VALUE`: an option of one analyzer of a chain, set from the command
/// line without editing the chain (`parallax run chains/vio-map.yaml D --out o --set vio.map=place.pxmap`).
///
/// - `ANALYZER` names the analyzer as the chain does: by its instance name when it has one
///   (`as:` in YAML, `klt:left` in a pipeline), else by its analyzer name (`klt`). Two analyzers
///   of one kind need instance names of their own anyway (the bus refuses two instances of one
///   name), so an instance name always names one analyzer; an analyzer name that fits several
///   (`klt` in `klt:left ! klt:right`) is refused with the names to use instead.
/// - `OPTION` is one of the analyzer's options (`parallax plugins ANALYZER`), `snake_case` or
///   `camelCase`; a misspelt one gets a did-you-mean.
/// - `VALUE` is read as in a pipeline: text, a number, `none`, a list (`a,b` or `[a, b]`), a
///   mapping (`{x: 1, y: 2, width: 3, height: 4}`); `@stream` wires the port named `OPTION` to
///   another stream (`--set klt.frames=@cam1`). It replaces what the chain gave, and is
///   type- and range-checked exactly as the chain's own values are, when the chain is made.
///
/// The text is split at its first `=` and the name before it at its last `.` (instance names
/// may hold dots; option names do not).
public struct OptionOverride: Sendable, Equatable, CustomStringConvertible {
    /// The analyzer's instance name, or its analyzer name.
    public var analyzer: String
    /// The option (or, with an `@` value, the port) to set.
    public var option: String
    /// The value as text, read as the chain's own values are.
    public var value: String

    public init(analyzer: String, option: String, value: String) {
        self.analyzer = analyzer
        self.option = option
        self.value = value
    }

    /// Reads `ANALYZER.OPTION=VALUE`; throws ``ChainError/override(_:_:)`` saying what is missing.
    public init(parsing text: String) throws(ChainError) {
        guard let eq = text.firstIndex(of: "=") else {
            throw .override(text, .syntax(message: "expected ANALYZER.OPTION=VALUE (e.g. vio.map=place.pxmap), found no '='", location: nil))
        }
        let name = text[..<eq]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else {
            throw .override(text, .syntax(message: "expected ANALYZER.OPTION=VALUE (e.g. vio.map=place.pxmap): name the analyzer, a '.', then its option", location: nil))
        }
        self.init(analyzer: String(name[..<dot]), option: String(name[name.index(after: dot)...]), value: String(text[text.index(after: eq)...]))
    }

    /// `ANALYZER.OPTION=VALUE`, as given.
    public var description: String { "\(analyzer).\(option)=\(value)" }
}

extension Chain {
    /// The chain with `overrides` set: each replaces the option (or port wiring, for an `@`
    /// value) its analyzer was given. Names are checked here against the chain and `registry`
    /// (an analyzer not in the chain, an analyzer name that fits several, an unknown option:
    /// each with a did-you-mean or the names to use); values when the chain is made
    /// (``instantiate(registry:sourceStreams:)``), as the chain's own are. Every error is a
    /// ``ChainError/override(_:_:)`` naming the `--set` at fault.
    public func applying(_ overrides: [OptionOverride], registry: AnalyzerRegistry) throws(ChainError) -> Chain {
        // `python:FILE:NAME` from a pipeline: the instance is NAME, for `--set NAME.option=…`.
        var chain = resolvingAnalyzerNames(registry: registry)
        // Each node's overrides by option, to refuse one option set twice.
        var given: [Int: Set<String>] = [:]
        for o in overrides {
            let index = try chain.node(for: o, registry: registry)
            let node = chain.nodes[index]
            let key = OptionCoding.snakeCase(o.option)
            guard given[index, default: []].insert(key).inserted else {
                throw .override(o.description, .syntax(message: "'\(o.analyzer).\(o.option)' is set twice: give one value", location: nil))
            }
            if o.value.hasPrefix("@") {
                // A port's wiring, as `port=@stream` in a pipeline (the port is checked when made).
                guard o.value.count > 1 else { throw .override(o.description, .syntax(message: "'@' names no stream", location: nil)) }
                chain.nodes[index].options = node.options.filter { OptionCoding.snakeCase($0.key) != key }
                chain.nodes[index].remap = node.remap.filter { $0.key != o.option }
                chain.nodes[index].remap[o.option] = String(o.value.dropFirst())
            } else {
                // A resolver's analyzer (`python:FILE`) is asked for its options too; one that
                // cannot say is refused, with why, when the chain is made.
                if let entry = registry.entry(node.analyzer) ?? (try? registry.resolvedEntry(node.analyzer)) ?? nil {
                    let known = entry.options.map(\.name)
                    // A port named without `@`: say how to wire it.
                    if !known.contains(key), (entry.defaultInputs + entry.defaultOutputs).contains(where: { $0.name == o.option }) {
                        throw .override(o.description, .syntax(message: "'\(o.option)' is a port of \(node.analyzer), not an option: wire it to a stream with @ "
                                                               + "(--set \(o.analyzer).\(o.option)=@\(o.value))", location: nil))
                    }
                    guard known.contains(key) else {
                        throw .override(o.description, .unknownOption(analyzer: node.analyzer, option: o.option,
                                                                      suggestion: Spelling.closest(to: key, in: known), location: nil))
                    }
                }
                // An analyzer the registry lacks is refused, with its did-you-mean, when the chain is made.
                chain.nodes[index].options = node.options.filter { OptionCoding.snakeCase($0.key) != key }
                chain.nodes[index].remap = node.remap.filter { OptionCoding.snakeCase($0.key) != key }
                chain.nodes[index].options[key] = o.value
            }
            chain.nodes[index].overrides.append(o)
        }
        // The values set are checked now (types, ranges), so a command refuses them before it
        // writes anything; a value that does not do is the `--set`'s fault when it gave it.
        for node in chain.nodes where !node.overrides.isEmpty {
            do {
                try registry.checkValues(node.analyzer, options: node.options, location: node.location)
            } catch let .invalidOptionValue(analyzer, option, value, reason, location) {
                let key = OptionCoding.snakeCase(option)
                guard let o = node.overrides.last(where: { !$0.value.hasPrefix("@") && OptionCoding.snakeCase($0.option) == key }) else {
                    throw .invalidOptionValue(analyzer: analyzer, option: option, value: value, reason: reason, location: location)
                }
                throw .override(o.description, .invalidOptionValue(analyzer: analyzer, option: option, value: value, reason: reason, location: nil))
            }
        }
        return chain
    }

    /// The index of the node `override` names: the one whose instance name it is (given in the
    /// chain, or the one it takes without: a `python:` analyzer's class `name`), else the one
    /// analyzer of that name.
    private func node(for override: OptionOverride, registry: AnalyzerRegistry) throws(ChainError) -> Int {
        let instances = nodes.map { node in
            node.instanceName ?? (registry.entry(node.analyzer) == nil ? (try? registry.resolvedEntry(node.analyzer))??.defaultInstanceName : nil) ?? node.analyzer
        }
        let named = instances.indices.filter { instances[$0] == override.analyzer }
        if named.count == 1 { return named[0] }
        if named.count > 1 {
            throw .override(override.description, .syntax(
                message: "chain '\(name)' has \(named.count) analyzers named '\(override.analyzer)': give each an instance name "
                    + "(`\(override.analyzer):left` in a pipeline, `as: left` in YAML) and set it by that name", location: nil))
        }
        let kind = nodes.indices.filter { nodes[$0].analyzer == override.analyzer }
        if kind.count == 1 { return kind[0] }
        let listing = instances.map { "'\($0)'" }.joined(separator: ", ")
        if kind.count > 1 {
            let names = kind.map { "'\(instances[$0])'" }.joined(separator: " and ")
            throw .override(override.description, .syntax(
                message: "chain '\(name)' has \(kind.count) '\(override.analyzer)' analyzers, \(names): name one by its instance name "
                    + "(--set \(instances[kind[0]]).\(override.option)=\(override.value))", location: nil))
        }
        let suggestion = Spelling.closest(to: override.analyzer, in: Array(Set(instances + nodes.map(\.analyzer))).sorted())
        throw .override(override.description, .syntax(
            message: "chain '\(name)' has no analyzer '\(override.analyzer)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
                + " (its analyzers: \(listing))", location: nil))
    }
}
