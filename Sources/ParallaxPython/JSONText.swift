import Foundation

/// Writes the JSON headers of the worker protocol by appending to a string: faster than a
/// general encoder for the small, fixed-shape headers sent once per trigger, and byte-stable.
enum JSONText {
    /// `s` as a JSON string literal.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `d` as a JSON number; NaN and infinities as Python's `json` reads them (`NaN`,
    /// `Infinity`), never as a wrong finite number.
    static func number(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d > 0 ? "Infinity" : "-Infinity" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    /// A list of numbers.
    static func numbers(_ values: [Double]) -> String { "[" + values.map(number).joined(separator: ",") + "]" }

    /// `value` appended to `out`.
    static func append(_ value: JSONValue, to out: inout String) {
        switch value {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .number(d): out += number(d)
        case let .integer(i): out += String(i)
        case let .string(s): out += quoted(s)
        case let .array(items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                append(item, to: &out)
            }
            out += "]"
        case let .object(pairs):
            out += "{"
            for (i, pair) in pairs.enumerated() {
                if i > 0 { out += "," }
                out += quoted(pair.key) + ":"
                append(pair.value, to: &out)
            }
            out += "}"
        }
    }
}
