import Foundation
import Yams

/// Converts between a ``ParameterGroup`` (an analyzer's options) and `name=value` text.
///
/// Defaults are read by encoding the default value to JSON. A textual value is read as the
/// option's type: for a ``Parameter`` its declared ``OptionValue`` type (so `Optional`, nested
/// and empty-list values work); for a plain stored property of the outermost group the JSON
/// type of its default (number, bool, string, or comma-separated list). The values are merged
/// over the defaults, decoded, and checked against each ``Parameter``'s range. So every option
/// has a type, a default, and a checked value before the analyzer sees it.
///
/// Groups: a stored property whose value is a ``ParameterGroup`` is not an option itself; its
/// parameters are, flat, under their own names (``options(of:)``), and each value set by name
/// goes to its place in the nested JSON before decoding.
///
/// Names: one conversion, ``snakeCase(_:)``, maps a field's name to its option name, for the
/// JSON keys as for the ``Parameter`` declarations found by reflection (Foundation's key
/// strategies are not used: their round trip loses acronyms, `maxIMUGapMs`).
package enum OptionCoding {
    package struct ValueError: Error {
        package let option: String
        package let value: String
        package let reason: String
    }

    /// One option of a group, with the groups inside it flattened.
    package struct Option {
        /// `snake_case` name, what a chain sets.
        package let name: String
        /// The JSON keys from the outermost group to the field: `["window"]`, or
        /// `["detector", "maxNormalAngle"]` for a parameter of the group `detector`.
        package let path: [String]
        /// The default value as JSON (number, string, bool, `NSNull`, array, dictionary).
        package let defaultValue: Any
        /// The field's ``Parameter``; `nil` for a plain stored property.
        package let declaration: (any ParameterField)?
    }

    /// Every option of `defaults` (its own and its groups'), sorted by name.
    package static func options(of defaults: some ParameterGroup) -> [Option] {
        var out: [Option] = []
        collect(encoded(defaults), of: defaults, path: [], into: &out)
        return out.sorted { ($0.name, $0.path.joined(separator: ".")) < ($1.name, $1.path.joined(separator: ".")) }
    }

    /// The options of one group: its parameters, and those of the groups it holds; plain stored
    /// properties only in the outermost group (`path` empty), as they always were options there.
    private static func collect(_ object: [String: Any], of value: Any, path: [String], into out: inout [Option]) {
        var declared: [String: any ParameterField] = [:]
        var groups: [String: any ParameterGroup] = [:]
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            if let field = child.value as? any ParameterField {
                declared[optionName(ofLabel: label)] = field
            } else if let group = child.value as? any ParameterGroup {
                groups[label] = group
            }
        }
        for (key, json) in object {
            if let group = groups[key], let nested = json as? [String: Any] {
                collect(nested, of: group, path: path + [key], into: &out)
            } else if let field = declared[snakeCase(key)] {
                out.append(Option(name: snakeCase(key), path: path + [key], defaultValue: json, declaration: field))
            } else if path.isEmpty {
                out.append(Option(name: snakeCase(key), path: [key], defaultValue: json, declaration: nil))
            }
        }
    }

    /// `value` as a JSON object (field name → JSON value).
    private static func encoded(_ value: some Encodable) -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    /// The first name among `options` declared more than once, as (name, why).
    package static func duplicate(in options: [Option]) -> (String, String)? {
        for (a, b) in zip(options, options.dropFirst()) where a.name == b.name {
            // The outer declarations first: `by the field step and by detector.step`.
            let places = options.filter { $0.name == a.name }.map(\.path).sorted { ($0.count, $0.joined(separator: ".")) < ($1.count, $1.joined(separator: ".")) }
                .map { $0.count == 1 ? "by the field \($0[0])" : "by \($0.joined(separator: "."))" }
            return (a.name, "declared twice: " + places.joined(separator: " and ") + " (every option, in a group or not, needs a name of its own)")
        }
        return nil
    }

    /// The option name of a stored property's label (a property wrapper's storage is `_name`).
    private static func optionName(ofLabel label: String) -> String {
        snakeCase(label.hasPrefix("_") ? String(label.dropFirst()) : label)
    }

    /// `value` as `parallax plugins` prints a default: JSON text, `none` for null.
    package static func jsonText(_ value: Any) -> String {
        if value is NSNull { return "none" }
        if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes]),
           let text = String(data: data, encoding: .utf8) { return text }
        return "\(value)"
    }

    /// `value` as a chain would give it: text as it is (`cam0`), anything else as ``jsonText(_:)``
    /// (`200`, `true`, `["a","b"]`, `{"x":1}`, `none`).
    package static func valueText(_ value: Any) -> String {
        value as? String ?? jsonText(value)
    }

    /// `maxFeatures` → `max_features`, `maxIMUGapMs` → `max_imu_gap_ms` (a run of capitals is one
    /// word); already snake_case stays unchanged.
    package static func snakeCase(_ key: String) -> String {
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

    /// `defaults` with `values` (option name, `snake_case` or `camelCase` → text) set, checked.
    /// Names that are no option are ignored (the registry refuses them first, with a did-you-mean).
    package static func decode<O: ParameterGroup>(_ type: O.Type, defaults: O, values: [String: String]) throws -> O {
        let options = options(of: defaults)
        func given(_ key: String) -> String? { values.first { snakeCase($0.key) == key }?.value }
        if let (key, reason) = duplicate(in: options) {
            throw ValueError(option: key, value: given(key) ?? "(default)", reason: reason)
        }
        let byName = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        // Two spellings of one option (`window` and `Window`, `max_features` and `maxFeatures`):
        // which value won would depend on the dictionary's order.
        let spellings = Dictionary(grouping: values.keys, by: snakeCase)
        if let (key, given) = spellings.filter({ $0.value.count > 1 && byName[$0.key] != nil }).min(by: { $0.key < $1.key }) {
            throw ValueError(option: key, value: given.sorted().map { "\($0)=\(values[$0] ?? "")" }.joined(separator: ", "),
                             reason: "the option is given twice (as \(given.sorted().map { "'\($0)'" }.joined(separator: " and "))): give it once")
        }
        var object = encoded(defaults)
        for (rawKey, text) in values {
            let key = snakeCase(rawKey)
            guard let option = byName[key] else { continue }
            do {
                let value = try option.declaration.map { try $0.jsonValue(fromText: text) } ?? convert(text, like: option.defaultValue, option: key)
                set(value, at: option.path[...], in: &object)
            } catch let error as OptionTextError {
                throw ValueError(option: key, value: text, reason: error.description)
            }
        }
        let decoded: O
        do {
            let data = try JSONSerialization.data(withJSONObject: object)
            decoded = try JSONDecoder().decode(O.self, from: data)
        } catch let DecodingError.dataCorrupted(context), let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            // The option whose field the failing path is in (a group's parameter: two keys deep).
            let path = context.codingPath.map(\.stringValue)
            let key = options.filter { path.starts(with: $0.path) }.max { $0.path.count < $1.path.count }?.name
                ?? path.first.map(snakeCase) ?? "?"
            throw ValueError(option: key, value: given(key) ?? "", reason: context.debugDescription)
        }
        if let (key, problem) = firstProblem(decoded, defaults: defaults) {
            throw ValueError(option: key, value: given(key) ?? "(default)", reason: problem)
        }
        return decoded
    }

    private static func set(_ value: Any, at path: ArraySlice<String>, in object: inout [String: Any]) {
        guard let key = path.first else { return }
        guard path.count > 1 else { object[key] = value; return }
        var nested = object[key] as? [String: Any] ?? [:]
        set(value, at: path.dropFirst(), in: &nested)
        object[key] = nested
    }

    /// The first option of `options` outside its declared range (the declarations of `defaults`),
    /// or declared twice, as (`snake_case` name, reason). Fields in declaration order, a group's
    /// parameters where the group is.
    package static func firstProblem<O: ParameterGroup>(_ options: O, defaults: O) -> (String, String)? {
        if let duplicate = duplicate(in: self.options(of: defaults)) { return duplicate }
        return firstProblem(in: options, declaredBy: defaults)
    }

    private static func firstProblem(in value: Any, declaredBy defaults: Any) -> (String, String)? {
        var declarations: [String: Any] = [:]
        for child in Mirror(reflecting: defaults).children {
            if let label = child.label { declarations[label] = child.value }
        }
        for child in Mirror(reflecting: value).children {
            guard let label = child.label, let declaration = declarations[label] else { continue }
            if let field = declaration as? any ParameterField {
                if let problem = field.problem(with: child.value) { return (optionName(ofLabel: label), problem) }
            } else if child.value is any ParameterGroup, let problem = firstProblem(in: child.value, declaredBy: declaration) {
                return problem
            }
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
                parts = try OptionValueText.list(t).map(OptionValueText.scalarText)
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
