import Foundation
import Yams
import ParallaxFiles

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
        public init(analyzer: String, instanceName: String? = nil, options: [String: String] = [:], remap: [String: String] = [:],
                    location: ChainLocation? = nil) {
            self.analyzer = analyzer
            self.instanceName = instanceName
            self.options = options
            self.remap = remap
            self.location = location
        }
    }

    public var name: String
    public var nodes: [Node]

    public init(name: String, nodes: [Node]) { self.name = name; self.nodes = nodes }

    /// The chain with every `@NAME/` in its option values replaced by `references[NAME]` and a
    /// `/`: paths into a folder known only when the chain runs (`@scene/picture.png`, the
    /// simulated data's picture), in a list (`reference=[@scene/a.png]`) or alone
    /// (`map=@scene/map.pxmap`, which would otherwise name a stream). A name not in `references`
    /// is left as it is.
    public func resolvingReferences(_ references: [String: String]) -> Chain {
        guard !references.isEmpty else { return self }
        var resolved = self
        for i in resolved.nodes.indices {
            // `key=@scene/FILE` parses as a port remap; with `scene` a reference it is a file.
            for (key, target) in resolved.nodes[i].remap {
                guard let slash = target.firstIndex(of: "/"), references[String(target[..<slash])] != nil else { continue }
                resolved.nodes[i].remap[key] = nil
                resolved.nodes[i].options[key] = "@" + target
            }
            for (key, value) in resolved.nodes[i].options where value.contains("@") {
                var text = value
                for (name, folder) in references.sorted(by: { $0.key < $1.key }) {
                    text = text.replacingOccurrences(of: "@\(name)/", with: folder.hasSuffix("/") ? folder : folder + "/")
                }
                resolved.nodes[i].options[key] = text
            }
        }
        return resolved
    }

    /// A chain from a YAML file path (`.yaml`/`.yml`) or else a pipeline string.
    public static func load(_ argument: String) throws -> Chain {
        if argument.hasSuffix(".yaml") || argument.hasSuffix(".yml") {
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
                    throw ChainError.syntax(message: "'\(key)' is given twice to '\(analyzerName)'", location: at)
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

    /// Parses a YAML chain (see the type's documentation); `file` names it in errors.
    public static func parse(yaml: String, file: String) throws -> Chain {
        let root: Node_?
        do { root = try YAMLText.compose(yaml) } catch {
            throw ChainError.syntax(message: "malformed YAML: \(error.message)", location: ChainLocation(file: file, line: error.line ?? 1, column: error.column ?? 1))
        }
        func loc(_ n: Node_?) -> ChainLocation? { n?.mark.map { ChainLocation(file: file, line: $0.line, column: $0.column) } }
        guard let map = root?.mapping, let list = map["analyzers"]?.sequence else {
            throw ChainError.syntax(message: "expected a mapping with an 'analyzers' list", location: loc(root) ?? ChainLocation(file: file, line: 1, column: 1))
        }
        var nodes: [Node] = []
        for item in list {
            guard let m = item.mapping, let name = m["analyzer"]?.string else {
                throw ChainError.syntax(message: "each entry needs 'analyzer: NAME'", location: loc(item))
            }
            let known: Set<String> = ["analyzer", "as", "options", "inputs", "outputs"]
            for (k, _) in m {
                guard let key = k.string, !known.contains(key) else { continue }
                let hint = Spelling.closest(to: key, in: known.sorted()).map { "; did you mean '\($0)'?" } ?? ""
                throw ChainError.syntax(message: "unknown key '\(key)' in an analyzer entry\(hint)", location: loc(k))
            }
            var options: [String: String] = [:]
            if let o = m["options"] {
                guard let om = o.mapping else { throw ChainError.syntax(message: "'options' must be a mapping", location: loc(o)) }
                for (k, v) in om {
                    guard let key = k.string else { continue }
                    guard options[key] == nil else {
                        throw ChainError.syntax(message: "option '\(key)' is given twice to '\(name)'", location: loc(k))
                    }
                    options[key] = try optionText(v, key: key, location: loc(v))
                }
            }
            var remap: [String: String] = [:]
            for section in ["inputs", "outputs"] {
                guard let s = m[section] else { continue }
                guard let sm = s.mapping else { throw ChainError.syntax(message: "'\(section)' must map port names to streams", location: loc(s)) }
                for (k, v) in sm {
                    guard let port = k.string, let stream = v.string, v.scalar != nil else {
                        throw ChainError.syntax(message: "'\(section)' must map port names to stream names", location: loc(v))
                    }
                    guard remap[port] == nil else {
                        throw ChainError.syntax(message: "port '\(port)' of '\(name)' is mapped twice", location: loc(k))
                    }
                    remap[port] = stream
                }
            }
            nodes.append(Node(analyzer: name, instanceName: m["as"]?.string, options: options, remap: remap, location: loc(m["analyzer"])))
        }
        return Chain(name: map["name"]?.string ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent, nodes: nodes)
    }

    /// Builds the analyzers and checks the wiring against `sourceStreams`. Every error carries
    /// the location of the analyzer it concerns.
    public func instantiate(registry: AnalyzerRegistry, sourceStreams: [StreamDescription]) throws -> [AnalyzerInstance] {
        let instances = try nodes.map { node in
            try registry.make(node.analyzer, options: node.options, instanceName: node.instanceName, remap: node.remap, location: node.location)
        }
        do {
            _ = try BusWiring.plan(sourceStreams: sourceStreams, analyzers: instances)
        } catch let error as BusError {
            throw ChainError.wiring(error, location: location(of: error, instances: instances))
        }
        return instances
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

extension Chain {
    /// The text an option's YAML value stands for: a scalar as written; a list or mapping in
    /// YAML flow form (`[a, b]`, `{x: 1, y: 2}`), which the option's type reads.
    static func optionText(_ node: Node_, key: String, location: ChainLocation?) throws -> String {
        if let s = node.scalar { return s.string }
        guard node.sequence != nil || node.mapping != nil else {
            throw ChainError.syntax(message: "option '\(key)' must be a value, a list or a mapping", location: location)
        }
        return flowText(node)
    }

    /// `node` as one line of flow-style YAML; scalars are quoted when they hold flow syntax.
    private static func flowText(_ node: Node_) -> String {
        if let seq = node.sequence { return "[" + seq.map(flowText).joined(separator: ", ") + "]" }
        if let map = node.mapping { return "{" + map.map { "\(flowText($0.key)): \(flowText($0.value))" }.joined(separator: ", ") + "}" }
        let text = node.scalar?.string ?? ""
        guard text.isEmpty || text.contains(where: { ",:[]{}#&*!|>'\"%@`".contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// Yams's node type (aliased: `Chain.Node` would shadow it).
typealias Node_ = Yams.Node
