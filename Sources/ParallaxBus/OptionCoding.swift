import Foundation
import Yams

/// Converts between an ``AnalyzerOptions`` struct and `name=value` text.
///
/// Defaults are read by encoding `Options()` to JSON. A textual value is read as the option's
/// type: for a ``Parameter`` its declared ``OptionValue`` type (so `Optional`, nested and
/// empty-list values work); for a plain stored property the JSON type of its default (number,
/// bool, string, or comma-separated list). The values are merged over the defaults, decoded,
/// and checked against each ``Parameter``'s range. So every option has a type, a default, and
/// a checked value before the analyzer sees it.
///
/// Names: one conversion, ``snakeCase(_:)``, maps a field's name to its option name, for the
/// JSON keys as for the ``Parameter`` declarations found by reflection (Foundation's key
/// strategies are not used: their round trip loses acronyms, `maxIMUGapMs`).
enum OptionCoding {
    struct ValueError: Error { let option: String; let value: String; let reason: String }

    /// Default values by field name (`camelCase`, as declared).
    private static func encodedDefaults<O: AnalyzerOptions>(of type: O.Type) -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(O()),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    /// Default values by option name (`snake_case`).
    static func defaults<O: AnalyzerOptions>(of type: O.Type) -> [String: Any] {
        Dictionary(encodedDefaults(of: type).map { (snakeCase($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// The option name of a stored property's label (a property wrapper's storage is `_name`).
    private static func optionName(ofLabel label: String) -> String {
        snakeCase(label.hasPrefix("_") ? String(label.dropFirst()) : label)
    }

    /// The ``Parameter`` declarations of `value`, by option name.
    static func fields(of value: Any) -> [String: any ParameterField] {
        var out: [String: any ParameterField] = [:]
        for child in Mirror(reflecting: value).children {
            guard let label = child.label, let field = child.value as? any ParameterField else { continue }
            out[optionName(ofLabel: label)] = field
        }
        return out
    }

    static func jsonText(_ value: Any) -> String {
        if value is NSNull { return "none" }
        if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes]),
           let text = String(data: data, encoding: .utf8) { return text }
        return "\(value)"
    }

    /// `maxFeatures` → `max_features`, `maxIMUGapMs` → `max_imu_gap_ms` (a run of capitals is one
    /// word); already snake_case stays unchanged.
    static func snakeCase(_ key: String) -> String {
        let chars = Array(key)
        var out = ""
        for (i, ch) in chars.enumerated() {
            if ch.isUppercase, i > 0 {
                let previous = chars[i - 1], next = i + 1 < chars.count ? chars[i + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) { out += "_" }
            }
            out += ch.lowercased()
        }
        return out
    }

    static func decode<O: AnalyzerOptions>(_ type: O.Type, analyzer: String, values: [String: String]) throws -> O {
        let parameters = fields(of: O())
        let encoded = encodedDefaults(of: type)
        // Option name → field name, from the fields themselves.
        let fieldName = Dictionary(encoded.keys.map { (snakeCase($0), $0) }, uniquingKeysWith: { a, _ in a })
        var object = defaults(of: type)
        for (rawKey, text) in values {
            let key = snakeCase(rawKey)
            do {
                if let field = parameters[key] {
                    object[key] = try field.jsonValue(fromText: text)
                } else {
                    object[key] = try convert(text, like: object[key] as Any, option: key)
                }
            } catch let error as OptionTextError {
                throw ValueError(option: key, value: text, reason: error.description)
            }
        }
        let options: O
        do {
            let byField = Dictionary(object.map { (fieldName[$0.key] ?? $0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
            let data = try JSONSerialization.data(withJSONObject: byField)
            options = try JSONDecoder().decode(O.self, from: data)
        } catch let DecodingError.dataCorrupted(context), let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let key = context.codingPath.first.map { snakeCase($0.stringValue) } ?? "?"
            throw ValueError(option: key, value: values.first { snakeCase($0.key) == key }?.value ?? "",
                             reason: context.debugDescription)
        }
        if let (key, problem) = firstProblem(options, declared: parameters) {
            throw ValueError(option: key, value: values.first { snakeCase($0.key) == key }?.value ?? "(default)", reason: problem)
        }
        return options
    }

    /// The first option of `options` outside its declared range, as (`snake_case` name, reason).
    static func firstProblem<O: AnalyzerOptions>(_ options: O, declared: [String: any ParameterField]? = nil) -> (String, String)? {
        let parameters = declared ?? fields(of: O())
        for child in Mirror(reflecting: options).children {
            guard let label = child.label else { continue }
            let key = optionName(ofLabel: label)
            if let problem = parameters[key]?.problem(with: child.value) { return (key, problem) }
        }
        return nil
    }

    /// Reads `text` like the JSON type of `example` (a plain, undeclared option's default).
    private static func convert(_ text: String, like example: Any, option: String) throws -> Any {
        if let number = example as? NSNumber {
            if isBoolean(number) { return try Bool.jsonValue(fromText: text) }
            if Double(number.int64Value) == number.doubleValue, !text.contains("."), !text.lowercased().contains("e") {
                return try Int64.jsonValue(fromText: text)
            }
            return try Double.jsonValue(fromText: text)
        }
        if let array = example as? [Any] {
            let t = text.trimmingCharacters(in: .whitespaces)
            let parts: [String]
            if t.hasPrefix("[") {
                guard let list = (try? Yams.load(yaml: t)) as? [Any] else { throw OptionTextError(expected: "a list such as [a, b]") }
                parts = list.map(OptionValueText.scalarText)
            } else {
                parts = t.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
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
