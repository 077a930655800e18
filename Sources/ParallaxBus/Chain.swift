import Foundation
import ParallaxFiles
import ParallaxOptions

/// A named list of analyzers with options: what `parallax run` runs.
///
/// Two spellings:
/// - a one-line pipeline, like `gst-launch`: `"imu-integrator camera=cam0 ! stream-stats streams=cam0,imu0"`
///   (`name:instance` gives an instance name, `key=value` sets options, `port=@stream` wires
///   the port named `port` to `stream`: `klt frames=@cam0/scaled`);
/// - a YAML file:
/// ```yaml
/// name: diagnostics
/// analyzers:
///   - analyzer: stream-stats
///     options: { streams: [cam0, imu0] }
///   - analyzer: imu-integrator
///     as: gyro0                  # optional instance name
///     options: { camera: cam0, imu: imu0 }
///   - analyzer: klt
///     inputs: { frames: cam1 }      # port name → stream (remapping)
///     outputs: { output: cam1/tracks }
/// ```
/// Option values in YAML may be scalars, lists or mappings (a box `{x: 1, y: 2, width: 3, height: 4}`).
/// On the command line, `--set ANALYZER.OPTION=VALUE` changes one without editing the chain
/// (``OptionOverride``, ``applying(_:registry:)``).
/// Streams are wired by name through options; the bus checks that every input exists and has
/// the right type when the chain is instantiated, and errors point at the file and line.
public struct Chain: Sendable, Equatable {
    /// One analyzer in the chain.
    public struct Node: Sendable, Equatable {
        public var analyzer: String
        public var instanceName: String?
        public var options: [String: String]
        /// Port name → stream, for ports wired to other streams than they declare.
        public var remap: [String: String]
        public var location: ChainLocation?
        /// The `--set`s that changed ``options`` or ``remap`` (``Chain/applying(_:registry:)``),
        /// in order: a value they gave that does not do is their fault, not the chain's.
        public var overrides: [OptionOverride]
        public init(analyzer: String, instanceName: String? = nil, options: [String: String] = [:], remap: [String: String] = [:],
                    location: ChainLocation? = nil, overrides: [OptionOverride] = []) {
            self.analyzer = analyzer
            self.instanceName = instanceName
            self.options = options
            self.remap = remap
            self.location = location
            self.overrides = overrides
        }
    }

    public var name: String
    public var nodes: [Node]

    public init(name: String, nodes: [Node]) { self.name = name; self.nodes = nodes }

    /// The names chains may use as `@NAME/FILE` (``resolvingReferences(_:)``).
    public static let referenceNames = ["scene"]

    /// The chain with every `@NAME/` in its option values replaced by `references[NAME]` and a
    /// `/`: paths into a folder known only when the chain runs (`@scene/picture.png`, the
    /// simulated data's picture), in a list (`reference=[@scene/a.png]`) or alone
    /// (`map=@scene/map.pxmap`, which would otherwise name a stream).
    ///
    /// Refused: a reference the run does not have (`@scene/` outside a bench case), and one
    /// that climbs out of its folder (`@scene/../x`: a reference names the folder's own files).
    public func resolvingReferences(_ references: [String: String]) throws -> Chain {
        var resolved = self
        for i in resolved.nodes.indices {
            let node = resolved.nodes[i]
            // `key=@scene/FILE` parses as a port remap; with `scene` a reference it is a file.
            for (key, target) in node.remap {
                guard let slash = target.firstIndex(of: "/"), Self.referenceNames.contains(String(target[..<slash])) else { continue }
                resolved.nodes[i].remap[key] = nil
                resolved.nodes[i].options[key] = "@" + target
            }
            for (key, value) in resolved.nodes[i].options where value.contains("@") {
                var text = value
                for name in Self.referenceNames where text.contains("@\(name)/") {
                    guard let folder = references[name] else {
                        throw ChainError.syntax(message: "'\(key)=\(value)' of '\(node.analyzer)': @\(name)/ names a file of a bench case's own data; "
                                                + "it is known only in a bench suite's chain (parallax bench)", location: node.location)
                    }
                    let paths = text.components(separatedBy: "@\(name)/").dropFirst()
                    // Each reference runs to the end of its list element.
                    if paths.contains(where: { $0.prefix { !",]} ".contains($0) }.split(separator: "/").contains("..") }) {
                        throw ChainError.syntax(message: "'\(key)=\(value)' of '\(node.analyzer)': @\(name)/ names a file inside the case's folder; '..' would leave it",
                                                location: node.location)
                    }
                    text = text.replacingOccurrences(of: "@\(name)/", with: folder.hasSuffix("/") ? folder : folder + "/")
                }
                resolved.nodes[i].options[key] = text
            }
        }
        return resolved
    }

    /// A chain from a YAML file path (`.yaml`/`.yml`) or else a pipeline string. Text ending in
    /// `.yaml` that is not a file but holds blanks or `!` is a pipeline (`vio map=a.yaml`).
    public static func load(_ argument: String) throws -> Chain {
        let looksLikePipeline = argument.contains("!") || argument.contains(where: \.isWhitespace)
        if argument.hasSuffix(".yaml") || argument.hasSuffix(".yml"), !(looksLikePipeline && !FileManager.default.fileExists(atPath: argument)) {
            guard let text = FileContents.string(atPath: argument) else {
                throw ChainError.syntax(message: "cannot read chain file '\(argument)'", location: nil)
            }
            return try parse(yaml: text, file: argument)
        }
        return try parse(pipeline: argument)
    }

    /// Parses `a key=v ! b:name key=v`. Locations are `<pipeline>:1:column`.
    public static func parse(pipeline: String) throws -> Chain {
        var nodes: [Node] = []
        var offset = 0
        for segment in pipeline.split(separator: "!", omittingEmptySubsequences: false) {
            let segmentStart = offset
            offset += segment.count + 1
            // Tokens split at blanks, except inside {…}, […] or quotes (a box `{x: 1, y: 2}`).
            var tokens: [(String, Int)] = []
            var current = "", start = 0, depth = 0
            var quote: Character?
            for (i, ch) in segment.enumerated() {
                if quote == nil, depth == 0, ch == " " || ch == "\t" {
                    if !current.isEmpty { tokens.append((current, start)) }
                    current = ""
                    continue
                }
                if current.isEmpty { start = i }
                current.append(ch)
                if let q = quote { if ch == q { quote = nil } } else if ch == "\"" || ch == "'" { quote = ch }
                else if ch == "{" || ch == "[" { depth += 1 } else if ch == "}" || ch == "]" { depth = max(0, depth - 1) }
            }
            if !current.isEmpty { tokens.append((current, start)) }
            let loc = ChainLocation(file: "<pipeline>", line: 1, column: segmentStart + (tokens.first?.1 ?? 0) + 1)
            guard let head = tokens.first else {
                throw ChainError.syntax(message: "empty element in pipeline (two '!' in a row?)", location: loc)
            }
            let nameParts = head.0.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let analyzerName = nameParts.first, !analyzerName.isEmpty, nameParts.count == 1 || !nameParts[1].isEmpty else {
                throw ChainError.syntax(message: "expected an analyzer name (or name:instance), got '\(head.0)'", location: loc)
            }
            var options: [String: String] = [:], remap: [String: String] = [:]
            for (token, column) in tokens.dropFirst() {
                let at = ChainLocation(file: "<pipeline>", line: 1, column: segmentStart + column + 1)
                guard let eq = token.firstIndex(of: "="), eq != token.startIndex else {
                    throw ChainError.syntax(message: "expected key=value or port=@stream, got '\(token)'", location: at)
                }
                let key = String(token[..<eq]), value = String(token[token.index(after: eq)...])
                // The same key twice is a typo or a pasted leftover: neither value may win in silence.
                guard options[key] == nil, remap[key] == nil else {
                    throw ChainError.syntax(message: "'\(key)' is given twice to '\(head.0)'", location: at)
                }
                if value.hasPrefix("@") {
                    guard value.count > 1 else { throw ChainError.syntax(message: "'\(key)=@' names no stream", location: at) }
                    remap[key] = String(value.dropFirst())
                } else {
                    options[key] = value
                }
            }
            nodes.append(Node(analyzer: analyzerName, instanceName: nameParts.count > 1 ? nameParts[1] : nil, options: options,
                              remap: remap, location: loc))
        }
        return Chain(name: "pipeline", nodes: nodes)
    }

    /// A YAML chain file as written, decoded by ``YAMLDecoding`` (every key known, every error
    /// at its line and column).
    struct File: Decodable {
        var name: String?
        var analyzers: [Entry]
        enum CodingKeys: String, YAMLKnownKeys { case name, analyzers }
    }

    /// A key of a mapping whose keys are names (options, ports).
    struct NameKey: CodingKey {
        let stringValue: String
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// One analyzer entry of a chain file.
    struct Entry: Decodable {
        var node: Node
        enum CodingKeys: String, YAMLKnownKeys { case analyzer, `as`, options, inputs, outputs }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let name = try c.decode(String.self, forKey: .analyzer)
            let mark = try c.superDecoder(forKey: .analyzer).yamlMark
            // Keys YAML sees as different (`1` and `"1"`) may name the same option or port:
            // neither value may win in silence.
            var options: [String: String] = [:]
            if c.contains(.options) {
                let o = try c.nestedContainer(keyedBy: NameKey.self, forKey: .options)
                for key in o.allKeys {
                    guard options[key.stringValue] == nil else { throw decoder.yamlProblem("option '\(key.stringValue)' is given twice to '\(name)'", at: CodingKeys.options) }
                    options[key.stringValue] = try o.decode(YAMLFlowText.self, forKey: key).text
                }
            }
            var remap: [String: String] = [:]
            for section in [CodingKeys.inputs, .outputs] where c.contains(section) {
                let ports = try c.nestedContainer(keyedBy: NameKey.self, forKey: section)
                for port in ports.allKeys {
                    guard remap[port.stringValue] == nil else { throw decoder.yamlProblem("port '\(port.stringValue)' of '\(name)' is mapped twice", at: section) }
                    remap[port.stringValue] = try ports.decode(String.self, forKey: port)
                }
            }
            node = Node(analyzer: name, instanceName: try c.decodeIfPresent(String.self, forKey: .as), options: options, remap: remap,
                        location: mark.map { ChainLocation(file: "", line: $0.line, column: $0.column) })
        }
    }

    /// Parses a YAML chain (see the type's documentation); `file` names it in errors.
    public static func parse(yaml: String, file: String) throws -> Chain {
        let decoded: File
        do { decoded = try YAMLDecoding.decode(File.self, from: yaml, file: file) } catch {
            throw ChainError.syntax(message: error.message, location: ChainLocation(file: file, line: error.line, column: error.column))
        }
        let nodes = decoded.analyzers.map { entry in
            var node = entry.node
            node.location = node.location.map { ChainLocation(file: file, line: $0.line, column: $0.column) }
            return node
        }
        return Chain(name: decoded.name ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent, nodes: nodes)
    }

    /// The chain with each node a pipeline parsed as `PREFIX` with instance `ARGUMENT[:NAME]`
    /// (`python:detect.py:left`, where `PREFIX` is a resolver's, ``AnalyzerResolver``) named
    /// as analyzer `PREFIX:ARGUMENT` with instance `NAME` (none when not given).
    public func resolvingAnalyzerNames(registry: AnalyzerRegistry) -> Chain {
        var chain = self
        for i in chain.nodes.indices {
            (chain.nodes[i].analyzer, chain.nodes[i].instanceName) = registry.splittingResolverName(nodes[i].analyzer, instanceName: nodes[i].instanceName)
        }
        return chain
    }

    /// Builds the analyzers and checks the wiring against `sourceStreams`. Every error carries
    /// the location of the analyzer it concerns.
    public func instantiate(registry: AnalyzerRegistry, sourceStreams: [StreamDescription]) throws -> [AnalyzerInstance] {
        let chain = resolvingAnalyzerNames(registry: registry)
        return try chain.instantiateResolved(registry: registry, sourceStreams: sourceStreams)
    }

    private func instantiateResolved(registry: AnalyzerRegistry, sourceStreams: [StreamDescription]) throws -> [AnalyzerInstance] {
        func make(_ node: Node) throws -> AnalyzerInstance {
            do {
                return try registry.make(node.analyzer, options: node.options, instanceName: node.instanceName, remap: node.remap, location: node.location)
            } catch let error as ChainError {
                throw Self.blamingOverride(error, of: node)
            }
        }
        var nodes = self.nodes
        var instances = try nodes.map(make)
        // A consumer's preferences for its producers, where the chain gave the producer none of
        // those options: the producer is made again with them.
        for consumer in instances {
            for preference in registry.entry(consumer.typeName)?.upstreamPreferences ?? [] {
                guard let port = consumer.inputs.first(where: { $0.name == preference.port }),
                      let p = instances.firstIndex(where: { $0 !== consumer && $0.outputs.contains { $0.stream == port.stream } }),
                      instances[p].typeName == preference.analyzer else { continue }
                let given = Set(nodes[p].options.keys.map(OptionCoding.snakeCase))
                let added = preference.options.filter { !given.contains($0.key) }
                guard !added.isEmpty else { continue }
                nodes[p].options.merge(added) { chain, _ in chain }
                let earlier = instances[p].preferred
                instances[p] = try make(nodes[p])
                instances[p].preferred = earlier + [AppliedPreference(consumer: consumer.name, options: added)]
            }
        }
        do {
            _ = try BusWiring.plan(sourceStreams: sourceStreams, analyzers: instances)
        } catch let error as BusError {
            // A stream a `--set` wired a port to is the `--set`'s fault, not the chain's.
            if let o = override(wiring: error, instances: instances, nodes: nodes) { throw ChainError.override(o.description, .wiring(error, location: nil)) }
            throw ChainError.wiring(error, location: location(of: error, instances: instances))
        }
        return instances
    }

    /// `error` as the fault of the `--set` of `node` that gave the value or port it is about
    /// (the chain's location dropped); `error` itself when no `--set` did.
    private static func blamingOverride(_ error: ChainError, of node: Node) -> ChainError {
        switch error {
        case let .invalidOptionValue(analyzer, option, value, reason, _):
            let key = OptionCoding.snakeCase(option)
            guard let o = node.overrides.last(where: { !$0.value.hasPrefix("@") && OptionCoding.snakeCase($0.option) == key }) else { return error }
            return .override(o.description, .invalidOptionValue(analyzer: analyzer, option: option, value: value, reason: reason, location: nil))
        case let .unknownPort(analyzer, port, suggestion, _):
            guard let o = node.overrides.last(where: { $0.value.hasPrefix("@") && $0.option == port }) else { return error }
            return .override(o.description, .unknownPort(analyzer: analyzer, port: port, suggestion: suggestion, location: nil))
        default:
            return error
        }
    }

    /// The `--set` that wired the port `error` is about (`klt.frames=@cam9` for an unknown or
    /// mistyped stream 'cam9'), if one did.
    private func override(wiring error: BusError, instances: [AnalyzerInstance], nodes: [Node]) -> OptionOverride? {
        let analyzer: String, stream: String
        switch error {
        case let .unknownStream(a, s, _), let .typeMismatch(a, s, _, _): (analyzer, stream) = (a, s)
        default: return nil
        }
        guard let index = instances.firstIndex(where: { $0.name == analyzer }), index < nodes.count else { return nil }
        return nodes[index].overrides.last { $0.value == "@" + stream }
    }

    private func location(of error: BusError, instances: [AnalyzerInstance]) -> ChainLocation? {
        let name: String?
        switch error {
        case let .unknownStream(a, _, _), let .typeMismatch(a, _, _, _), let .noTrigger(a), let .duplicateInstance(a): name = a
        case let .duplicateProducer(_, producers): name = producers.last
        case let .cycle(analyzers): name = analyzers.first
        default: name = nil
        }
        guard let name, let index = instances.firstIndex(where: { $0.name == name }) else { return nil }
        return nodes[index].location
    }
}
