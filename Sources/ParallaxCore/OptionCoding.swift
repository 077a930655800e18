import Foundation

/// Converts between an ``AnalyzerOptions`` struct and `name=value` text.
///
/// Defaults are read by encoding `Options()` to JSON; a textual value is converted to the
/// JSON type of its default (number, bool, string, or comma-separated list), merged over
/// the defaults, and decoded. So every option has a type, a default, and a checked value.
enum OptionCoding {
    struct ValueError: Error { let option: String; let value: String; let reason: String }

    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.keyEncodingStrategy = .convertToSnakeCase
        e.outputFormatting = [.sortedKeys]
        return e
    }

    /// Default values by `snake_case` name.
    static func defaults<O: AnalyzerOptions>(of type: O.Type) -> [String: Any] {
        guard let data = try? encoder().encode(O()),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    static func jsonText(_ value: Any) -> String {
        if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]),
           let text = String(data: data, encoding: .utf8) { return text }
        return "\(value)"
    }

    /// `maxFeatures` → `max_features` (already snake_case stays unchanged).
    static func snakeCase(_ key: String) -> String {
        var out = ""
        for ch in key {
            if ch.isUppercase { out += "_" + ch.lowercased() } else { out.append(ch) }
        }
        return out
    }

    static func decode<O: AnalyzerOptions>(_ type: O.Type, analyzer: String, values: [String: String]) throws -> O {
        var object = defaults(of: type)
        for (rawKey, text) in values {
            let key = snakeCase(rawKey)
            object[key] = try convert(text, like: object[key] as Any, option: key)
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            let data = try JSONSerialization.data(withJSONObject: object)
            return try decoder.decode(O.self, from: data)
        } catch let DecodingError.dataCorrupted(context), let DecodingError.typeMismatch(_, context) {
            let key = context.codingPath.first.map { snakeCase($0.stringValue) } ?? "?"
            throw ValueError(option: key, value: values.first { snakeCase($0.key) == key }?.value ?? "",
                             reason: context.debugDescription)
        }
    }

    private static func convert(_ text: String, like example: Any, option: String) throws -> Any {
        if let number = example as? NSNumber {
            if isBoolean(number) {
                switch text.lowercased() {
                case "true", "yes", "1", "on": return true
                case "false", "no", "0", "off": return false
                default: throw ValueError(option: option, value: text, reason: "expected true or false")
                }
            }
            if Double(number.int64Value) == number.doubleValue, !text.contains("."), !text.lowercased().contains("e") {
                guard let v = Int64(text) else { throw ValueError(option: option, value: text, reason: "expected an integer") }
                return v
            }
            guard let v = Double(text), v.isFinite else { throw ValueError(option: option, value: text, reason: "expected a number") }
            return v
        }
        if let array = example as? [Any] {
            let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = array.first else { return parts }
            return try parts.map { try convert($0, like: first, option: option) }
        }
        return text
    }

    /// Whether an NSNumber holds a Bool (JSONSerialization's booleans), portable to Linux.
    private static func isBoolean(_ n: NSNumber) -> Bool {
        String(cString: n.objCType) == "c" && (n == NSNumber(value: true) || n == NSNumber(value: false))
    }
}
