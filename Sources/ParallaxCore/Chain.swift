import Foundation
import Yams

/// A named list of analyzers with options: what `parallax run` runs.
///
/// Two spellings:
/// - a one-line pipeline, like `gst-launch`: `"imu-integrator camera=cam0 ! stream-stats streams=cam0,imu0"`
///   (`name:instance` gives an instance name, `key=value` sets options);
/// - a YAML file:
/// ```yaml
/// name: diagnostics
/// analyzers:
///   - analyzer: stream-stats
///     options: { streams: [cam0, imu0] }
///   - analyzer: imu-integrator
///     as: gyro0                  # optional instance name
///     options: { camera: cam0, imu: imu0 }
/// ```
/// Streams are wired by name through options; the bus checks that every input exists and has
/// the right type when the chain is instantiated, and errors point at the file and line.
public struct Chain: Sendable, Equatable {
    /// One analyzer in the chain.
    public struct Node: Sendable, Equatable {
        public var analyzer: String
        public var instanceName: String?
        public var options: [String: String]
        public var location: ChainLocation?
        public init(analyzer: String, instanceName: String? = nil, options: [String: String] = [:], location: ChainLocation? = nil) {
            self.analyzer = analyzer
            self.instanceName = instanceName
            self.options = options
            self.location = location
        }
    }

    public var name: String
    public var nodes: [Node]

    public init(name: String, nodes: [Node]) { self.name = name; self.nodes = nodes }

    /// A chain from a YAML file path (`.yaml`/`.yml`) or else a pipeline string.
    public static func load(_ argument: String) throws -> Chain {
        if argument.hasSuffix(".yaml") || argument.hasSuffix(".yml") {
            guard let text = try? String(contentsOfFile: argument, encoding: .utf8) else {
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
            var tokens: [(String, Int)] = []
            var current = "", start = 0
            for (i, ch) in segment.enumerated() {
                if ch == " " || ch == "\t" {
                    if !current.isEmpty { tokens.append((current, start)) }
                    current = ""
                } else {
                    if current.isEmpty { start = i }
                    current.append(ch)
                }
            }
            if !current.isEmpty { tokens.append((current, start)) }
            let loc = ChainLocation(file: "<pipeline>", line: 1, column: segmentStart + (tokens.first?.1 ?? 0) + 1)
            guard let head = tokens.first else {
                throw ChainError.syntax(message: "empty element in pipeline (two '!' in a row?)", location: loc)
            }
            let nameParts = head.0.split(separator: ":", maxSplits: 1).map(String.init)
            var options: [String: String] = [:]
            for (token, column) in tokens.dropFirst() {
                guard let eq = token.firstIndex(of: "="), eq != token.startIndex else {
                    throw ChainError.syntax(message: "expected key=value, got '\(token)'",
                                            location: ChainLocation(file: "<pipeline>", line: 1, column: segmentStart + column + 1))
                }
                options[String(token[..<eq])] = String(token[token.index(after: eq)...])
            }
            nodes.append(Node(analyzer: nameParts[0], instanceName: nameParts.count > 1 ? nameParts[1] : nil, options: options, location: loc))
        }
        return Chain(name: "pipeline", nodes: nodes)
    }

    /// Parses a YAML chain (see the type's documentation); `file` names it in errors.
    public static func parse(yaml: String, file: String) throws -> Chain {
        let root: Node_?
        do { root = try Yams.compose(yaml: yaml) } catch let error as YamlError {
            switch error {
            case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
                throw ChainError.syntax(message: "malformed YAML: \(problem)", location: ChainLocation(file: file, line: mark.line, column: mark.column))
            default:
                throw ChainError.syntax(message: "malformed YAML: \(error)", location: ChainLocation(file: file, line: 1, column: 1))
            }
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
            var options: [String: String] = [:]
            if let o = m["options"] {
                guard let om = o.mapping else { throw ChainError.syntax(message: "'options' must be a mapping", location: loc(o)) }
                for (k, v) in om {
                    guard let key = k.string else { continue }
                    if let seq = v.sequence {
                        options[key] = seq.compactMap(\.string).joined(separator: ",")
                    } else if let s = v.string {
                        options[key] = s
                    } else {
                        throw ChainError.syntax(message: "option '\(key)' must be a value or a list", location: loc(v))
                    }
                }
            }
            nodes.append(Node(analyzer: name, instanceName: m["as"]?.string, options: options, location: loc(m["analyzer"])))
        }
        return Chain(name: map["name"]?.string ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent, nodes: nodes)
    }

    /// Builds the analyzers and checks the wiring against `sourceStreams`. Every error carries
    /// the location of the analyzer it concerns.
    public func instantiate(registry: AnalyzerRegistry, sourceStreams: [StreamDescription]) throws -> [AnalyzerInstance] {
        let instances = try nodes.map { node in
            try registry.make(node.analyzer, options: node.options, instanceName: node.instanceName, location: node.location)
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

/// Yams's node type (aliased: `Chain.Node` would shadow it).
typealias Node_ = Yams.Node
