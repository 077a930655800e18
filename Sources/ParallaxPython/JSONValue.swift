import Foundation

/// A JSON value as a payload: what a Python analyzer emits on a `parallax.JSON` output (any
/// JSON-able dict, list, number or string), written as it is to `events.jsonl`.
///
/// Objects keep their keys in the order they arrived (the worker sends them sorted), so the
/// same value is written as the same bytes every run.
public enum JSONValue: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    /// An integer beyond ±2⁵³, where a `Double` would round it (a nanosecond timestamp), kept
    /// exact; integers beyond ±2⁶³ are numbers.
    case integer(Int64)
    case string(String)
    case array([JSONValue])
    /// Key–value pairs in order.
    case object([(key: String, value: JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.integer(x), .integer(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// A key of an object.
    struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            // Sorted: the decoder's key order is not the text's, and the bytes written must not vary.
            self = .object(try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map { ($0.stringValue, try object.decode(JSONValue.self, forKey: $0)) })
        } else if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() { self = .null }
            else if let b = try? single.decode(Bool.self) { self = .bool(b) }
            else if let i = try? single.decode(Int64.self), i.magnitude > 1 << 53 { self = .integer(i) }
            else if let d = try? single.decode(Double.self) { self = .number(d) }
            else { self = .string(try single.decode(String.self)) }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case let .bool(b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case let .number(d):
            var c = encoder.singleValueContainer()
            try c.encode(d)
        case let .integer(i):
            var c = encoder.singleValueContainer()
            try c.encode(i)
        case let .string(s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case let .array(items):
            var c = encoder.unkeyedContainer()
            for item in items { try c.encode(item) }
        case let .object(pairs):
            var c = encoder.container(keyedBy: Key.self)
            for (key, value) in pairs { try c.encode(value, forKey: Key(stringValue: key)) }
        }
    }

    /// The value as JSON text (keys in their order).
    public var jsonText: String {
        var out = ""
        JSONText.append(self, to: &out)
        return out
    }
}
