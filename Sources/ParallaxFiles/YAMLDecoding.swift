import Foundation
import Yams

/// Decodes every YAML schema Parallax reads (chains, bench suites, Parallax folders, catalogs,
/// sensor files) through `Decodable`, keeping where each value is: every error names the file,
/// line and column of the value at fault and its path (`runs[2].simulate.seconds`).
///
/// ```swift
/// struct Suite: Decodable { var name: String; var runs: [Run] }
/// let suite = try YAMLDecoding.decode(Suite.self, from: text, file: "bench/vio.yaml")
/// ```
///
/// - A type whose `CodingKeys` are ``YAMLKnownKeys`` refuses a key it does not know, with the
///   closest known one (`unknown key 'secnds'; did you mean 'seconds'?`): a typo must not turn a
///   setting off in silence.
/// - A value a type refuses in its own `init(from:)` is located where it was read: throw a
///   ``YAMLValueProblem`` (or any error) there.
/// - Numbers are read as YAML 1.1 core scalars (`1e3`, `.inf` are numbers; `"12"` quoted is text).
public enum YAMLDecoding {
    /// `T` decoded from the YAML `text` of `file` (the name errors give).
    public static func decode<T: Decodable>(_ type: T.Type, from text: String, file: String) throws(YAMLDecodingError) -> T {
        let root: Node?
        do { root = try YAMLText.compose(text) } catch {
            throw YAMLDecodingError(file: file, line: error.line ?? 1, column: error.column ?? 1, path: "", message: "malformed YAML: \(error.message)")
        }
        return try decode(type, from: root ?? Node("", Tag(.null)), file: file)
    }

    /// `T` decoded from `node`, a part of `file`.
    public static func decode<T: Decodable>(_ type: T.Type, from node: Node, file: String) throws(YAMLDecodingError) -> T {
        let decoder = NodeDecoder(node: node, file: file, codingPath: [])
        do { return try T(from: decoder) } catch { throw decoder.located(error) }
    }
}

/// CodingKeys whose cases are every key a YAML mapping may hold: others are refused.
public protocol YAMLKnownKeys: CodingKey, CaseIterable {}

/// A value a type refuses while decoding (`must be in 0…1`): the decoder adds where it is.
public struct YAMLValueProblem: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A YAML document that does not decode: where (file, 1-based line and column, the value's
/// path) and why.
public struct YAMLDecodingError: Error, CustomStringConvertible, BadInput, Sendable {
    public let file: String
    public let line: Int
    public let column: Int
    /// The value's path, `runs[2].simulate.seconds` (empty at the root).
    public let path: String
    public let message: String
    public var description: String { "\(file):\(line):\(column): \(message)" }
}

extension Decoder {
    /// An error at `key`'s value in the mapping being decoded (at the mapping itself without a
    /// key, or when the key is absent), its path before the message: what a type's
    /// `init(from:)` throws for a value it refuses. Outside YAML, a ``YAMLValueProblem``.
    public func yamlProblem(_ message: String, at key: (any CodingKey)? = nil) -> any Error {
        guard let decoder = self as? NodeDecoder else { return YAMLValueProblem(message) }
        let node = key.flatMap { decoder.node.mapping?[$0.stringValue] } ?? decoder.node
        let place = NodeDecoder.pathText(decoder.codingPath)
        return decoder.error((place.isEmpty ? "" : place + ": ") + message, at: node)
    }

    /// The 1-based line of the value being decoded, when it comes from YAML.
    public var yamlLine: Int? { (self as? NodeDecoder)?.node.mark?.line }

    /// The 1-based line and column of the value being decoded, when it comes from YAML.
    public var yamlMark: (line: Int, column: Int)? { (self as? NodeDecoder)?.node.mark.map { ($0.line, $0.column) } }
}

extension KeyedDecodingContainer {
    /// The list at `key` whose elements are named by `name`: a name given twice is refused at
    /// the second element (`what 'x' is given twice`), as names identify files and cases.
    public func decodeUniquelyNamed<T: Decodable>(_ type: T.Type, forKey key: Key, name: (T) -> String, what: String) throws -> [T] {
        var list = try nestedUnkeyedContainer(forKey: key)
        var seen = Set<String>(), elements: [T] = []
        while !list.isAtEnd {
            let element = try list.superDecoder()
            let value = try T(from: element)
            guard seen.insert(name(value)).inserted else { throw element.yamlProblem("\(what) '\(name(value))' is given twice") }
            elements.append(value)
        }
        return elements
    }
}

/// Any YAML value as one line of flow-style text (`3`, `[a, b]`, `{x: 1, y: 2}`): what a type
/// that parses its own text (an analyzer option) reads. Scalars are kept as written; inside a
/// list or mapping, a scalar holding flow syntax is quoted.
public struct YAMLFlowText: Decodable, Sendable, Equatable {
    public let text: String
    public init(from decoder: any Decoder) throws {
        guard let d = decoder as? NodeDecoder else { text = try decoder.singleValueContainer().decode(String.self); return }
        if let s = d.node.scalar { text = s.string; return }
        text = Self.flow(d.node)
    }

    /// `node` as one line of flow-style YAML; scalars are quoted when they hold flow syntax.
    static func flow(_ node: Node) -> String {
        if let seq = node.sequence { return "[" + seq.map(flow).joined(separator: ", ") + "]" }
        if let map = node.mapping { return "{" + map.map { "\(flow($0.key)): \(flow($0.value))" }.joined(separator: ", ") + "}" }
        let text = node.scalar?.string ?? ""
        guard text.isEmpty || text.contains(where: { ",:[]{}#&*!|>'\"%@`".contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// A `Decoder` over one Yams node.
struct NodeDecoder: Decoder {
    let node: Node
    let file: String
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The path as text: `runs[2].simulate`.
    static func pathText(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let element = key as? IndexKey, let label = element.label {
                text += "['\(label)']"
            } else if let i = key.intValue {
                text += "[\(i)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }

    /// An error at this node.
    func error(_ message: String, at node: Node? = nil, path: [any CodingKey]? = nil) -> YAMLDecodingError {
        let mark = (node ?? self.node).mark
        return YAMLDecodingError(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1, path: Self.pathText(path ?? codingPath), message: message)
    }

    /// `error` located at this node, unless it already is.
    func located(_ error: any Error) -> YAMLDecodingError {
        switch error {
        case let e as YAMLDecodingError: return e
        case let e as DecodingError:
            switch e {
            case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
                return self.error(c.debugDescription)
            @unknown default: return self.error("\(e)")
            }
        default: return self.error("\(error)")
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let mapping = node.mapping else {
            throw error("\(Self.pathText(codingPath).isEmpty ? "the document" : Self.pathText(codingPath)) must be a mapping of keys")
        }
        if let known = type as? any YAMLKnownKeys.Type {
            let names = known.allCaseNames
            for (k, _) in mapping {
                let name = k.string ?? ""
                guard !names.contains(name) else { continue }
                let hint = Spelling.closest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
                let place = Self.pathText(codingPath)
                throw error("\(place.isEmpty ? "" : place + ": ")unknown key '\(name)'\(hint) (known: \(names.sorted().joined(separator: ", ")))", at: k)
            }
        }
        return KeyedDecodingContainer(KeyedNodeContainer<Key>(decoder: self, mapping: mapping))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let sequence = node.sequence else { throw error("\(Self.pathText(codingPath)) must be a list") }
        return UnkeyedNodeContainer(decoder: self, items: Array(sequence))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleNodeContainer(decoder: self) }

    /// The decoder of a child node.
    func child(_ node: Node, key: any CodingKey) -> NodeDecoder { NodeDecoder(node: node, file: file, codingPath: codingPath + [key]) }

    /// Decodes `T` from a child, locating whatever it throws at the child.
    func decodeChild<T: Decodable>(_ type: T.Type, node: Node, key: any CodingKey) throws -> T {
        let decoder = child(node, key: key)
        do { return try decoder.decodeValue(type) } catch { throw decoder.located(error) }
    }

    /// Decodes `T` from this node: scalars directly, other types through `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let value = try scalar(type) { return value }
        return try T(from: self)
    }

    /// Scalars read the YAML way (numbers are not text; text is not a number).
    func scalar<T>(_ type: T.Type) throws -> T? {
        let what = Self.pathText(codingPath)
        let name = what.isEmpty ? "the value" : what
        switch type {
        case is String.Type:
            guard let s = node.scalar?.string else { throw error("\(name) must be text") }
            return s as? T
        case is Bool.Type:
            guard let b = node.bool else { throw error("\(name) must be true or false, got \(describe(node))") }
            return b as? T
        case is Double.Type:
            guard let v = node.float else { throw error("\(name) must be a number, got \(describe(node))") }
            return v as? T
        case is Float.Type:
            guard let v = node.float else { throw error("\(name) must be a number, got \(describe(node))") }
            return Float(v) as? T
        case is Int.Type:
            guard let v = node.int else { throw error("\(name) must be a whole number, got \(describe(node))") }
            return v as? T
        case is UInt64.Type:
            guard let v = node.int, v >= 0 else { throw error("\(name) must be a whole number ≥ 0, got \(describe(node))") }
            return UInt64(v) as? T
        case let integer as any FixedWidthInteger.Type:
            // Other widths (Int64, Int32, UInt8…) within their range; their own init(from:)
            // would come back here through a single-value container.
            guard let v = node.int, let value = Self.exactly(v, as: integer) else {
                throw error("\(name) must be a whole number in \(integer.min)…\(integer.max), got \(describe(node))")
            }
            return value as? T
        default:
            return nil
        }
    }

    /// `value` as an integer of type `I`, when it fits.
    static func exactly<I: FixedWidthInteger>(_ value: Int, as type: I.Type) -> I? { I(exactly: value) }

    /// A node as the user wrote it, for messages.
    func describe(_ node: Node) -> String {
        if let s = node.scalar?.string { return "'\(s)'" }
        return node.mapping != nil ? "a mapping" : "a list"
    }
}

extension YAMLKnownKeys {
    /// The string values of every case.
    static var allCaseNames: [String] { allCases.map(\.stringValue) }
}

struct KeyedNodeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoder
    let mapping: Node.Mapping
    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { mapping.keys.compactMap { $0.string.flatMap(Key.init(stringValue:)) } }

    func contains(_ key: Key) -> Bool { mapping[key.stringValue] != nil }

    func node(_ key: Key) throws -> Node {
        guard let node = mapping[key.stringValue] else {
            let place = NodeDecoder.pathText(codingPath)
            throw decoder.error("\(place.isEmpty ? "" : place + ": ")missing key '\(key.stringValue)'")
        }
        return node
    }

    func decodeNil(forKey key: Key) throws -> Bool { (try node(key)).null != nil }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decodeChild(type, node: try node(key), key: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let node = mapping[key.stringValue], node.null == nil else { return nil }
        return try decoder.decodeChild(type, node: node, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(try node(key), key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(try node(key), key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder.child(try node(key), key: key) }
}

/// An index into a list, as a coding key; an element that is a mapping with a `name` is
/// labelled by it in messages (`runs['vio-mh01']` rather than `runs[3]`).
struct IndexKey: CodingKey {
    let intValue: Int?
    var label: String?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int, label: String? = nil) { intValue = index; self.label = label }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { return nil }
}

struct UnkeyedNodeContainer: UnkeyedDecodingContainer {
    let decoder: NodeDecoder
    let items: [Node]
    var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func next() throws -> (Node, IndexKey) {
        guard !isAtEnd else { throw decoder.error("\(NodeDecoder.pathText(codingPath)) has too few items") }
        defer { currentIndex += 1 }
        let item = items[currentIndex]
        return (item, IndexKey(currentIndex, label: item.mapping?["name"]?.scalar?.string))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex].null != nil else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (node, key) = try next()
        return try decoder.decodeChild(type, node: node, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (node, key) = try next()
        return try decoder.child(node, key: key).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (node, key) = try next()
        return try decoder.child(node, key: key).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (node, key) = try next()
        return decoder.child(node, key: key)
    }
}

struct SingleNodeContainer: SingleValueDecodingContainer {
    let decoder: NodeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    func decodeNil() -> Bool { decoder.node.null != nil }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
