import Foundation
import ParallaxFiles
import Yams

/// A type an analyzer option can have: it knows how to read itself from the text a chain gives
/// (`max_features=200`, `box={x: 10, y: 20, width: 40, height: 30}`, `focal=none`).
///
/// Conforming are `Bool`, the integer and floating-point types, `String`, `Optional` and
/// `Array` of conforming types, and (by declaring the conformance) `String` enums that are
/// `CaseIterable` (their cases are the choices `parallax plugins` lists) and `Codable` structs
/// (written as a YAML/JSON mapping).
public protocol OptionValue: Codable, Sendable {
    /// The JSON value (number, string, bool, `NSNull`, array, dictionary) that `text` denotes.
    /// Throws ``OptionTextError`` saying what was expected.
    static func jsonValue(fromText text: String) throws -> Any
    /// The allowed values, for enumerations; `nil` otherwise.
    static var choices: [String]? { get }
    /// How `parallax plugins` names the type (`integer`, `number`, `list of text`, …).
    static var typeDescription: String { get }
}

extension OptionValue {
    public static var choices: [String]? { nil }
}

/// Why option text could not be read: what was expected.
public struct OptionTextError: Error, Sendable, CustomStringConvertible {
    public let expected: String
    public init(expected: String) { self.expected = expected }
    public var description: String { "expected \(expected)" }
}

extension Bool: OptionValue {
    public static func jsonValue(fromText text: String) throws -> Any {
        switch text.lowercased() {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        default: throw OptionTextError(expected: "true or false")
        }
    }
    public static var typeDescription: String { "true/false" }
}

/// Integers: the text as the type reads it (`UInt64` refuses a sign).
extension OptionValue where Self: FixedWidthInteger {
    public static func jsonValue(fromText text: String) throws -> Any {
        guard let v = Self(text.trimmingCharacters(in: .whitespaces)) else {
            throw OptionTextError(expected: Self.isSigned ? "an integer" : "a non-negative integer")
        }
        return v
    }
    public static var typeDescription: String { Self.isSigned ? "integer" : "non-negative integer" }
}

extension Int: OptionValue {}
extension Int64: OptionValue {}
extension UInt64: OptionValue {}

extension Double: OptionValue {
    public static func jsonValue(fromText text: String) throws -> Any {
        guard let v = Double(text.trimmingCharacters(in: .whitespaces)), v.isFinite else { throw OptionTextError(expected: "a finite number") }
        return v
    }
    public static var typeDescription: String { "number" }
}

extension Float: OptionValue {
    public static func jsonValue(fromText text: String) throws -> Any {
        guard let v = Float(text.trimmingCharacters(in: .whitespaces)), v.isFinite else { throw OptionTextError(expected: "a finite number") }
        return Double(v)
    }
    public static var typeDescription: String { "number" }
}

extension String: OptionValue {
    public static func jsonValue(fromText text: String) throws -> Any { text }
    public static var typeDescription: String { "text" }
}

extension Optional: OptionValue where Wrapped: OptionValue {
    /// Empty text, `none` or `null` is "not set"; anything else is read as `Wrapped`.
    public static func jsonValue(fromText text: String) throws -> Any {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.isEmpty || t == "none" || t == "null" { return NSNull() }
        return try Wrapped.jsonValue(fromText: t)
    }
    public static var choices: [String]? { Wrapped.choices.map { $0 + ["none"] } }
    public static var typeDescription: String { "\(Wrapped.typeDescription) or none" }
}

extension Array: OptionValue where Element: OptionValue {
    /// `a,b,c`, or a YAML/JSON list `[a, b, c]`; empty text is the empty list.
    public static func jsonValue(fromText text: String) throws -> Any {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.isEmpty || t == "[]" { return [Any]() }
        if t.hasPrefix("[") {
            return try OptionValueText.list(t).map { try Element.jsonValue(fromText: OptionValueText.scalarText($0)) }
        }
        return try t.split(separator: ",", omittingEmptySubsequences: false).map {
            try Element.jsonValue(fromText: $0.trimmingCharacters(in: .whitespaces))
        }
    }
    public static var typeDescription: String { "list of \(Element.typeDescription) (a,b,c)" }
}

extension OptionValue where Self: RawRepresentable, Self: CaseIterable, RawValue == String {
    /// One of the cases' raw values.
    public static func jsonValue(fromText text: String) throws -> Any {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard allCases.contains(where: { $0.rawValue == t }) else {
            throw OptionTextError(expected: "one of " + allCases.map(\.rawValue).joined(separator: ", "))
        }
        return t
    }
    public static var choices: [String]? { allCases.map(\.rawValue) }
    public static var typeDescription: String { "one of " + allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Structured values (a box, a pose, a screen): a YAML or JSON mapping, `{x: 10, y: 20}`,
/// checked by decoding it.
public protocol StructuredOptionValue: OptionValue {}

extension StructuredOptionValue {
    public static func jsonValue(fromText text: String) throws -> Any {
        guard let object = (try? OptionValueText.load(text)).flatMap({ $0 }),
              JSONSerialization.isValidJSONObject([object]),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed]),
              let value = try? JSONDecoder().decode(Self.self, from: data) else {
            throw OptionTextError(expected: "\(typeDescription)")
        }
        // A key the type does not have (`Width: 70` beside `width: 5`, a typo) would be dropped in
        // silence by the decoder: refused, named.
        if let given = object as? [String: Any], let encoded = try? JSONEncoder().encode(value),
           let known = (try? JSONSerialization.jsonObject(with: encoded)) as? [String: Any],
           let unknown = given.keys.filter({ known[$0] == nil }).sorted().first {
            throw OptionTextError(expected: "\(typeDescription), without the key '\(unknown)'")
        }
        return object
    }
}

/// Text forms of YAML values (list elements come back typed from Yams): a scalar as itself, a
/// mapping or list (a list of boxes' elements) as JSON, which is YAML too.
enum OptionValueText {
    /// `text` read as YAML under the limit every YAML file Parallax reads has
    /// (``YAMLText/maxExpandedValues``): a few hundred bytes of nested aliases in an option
    /// value would otherwise expand to billions of values.
    static func load(_ text: String) throws(YAMLText.Problem) -> Any? {
        guard let node = try YAMLText.compose(text) else { return nil }
        return Constructor.default.any(from: node)
    }

    /// The list a `[…]` text holds, read as YAML; what YAML objects to (a key given twice in a
    /// box, an unclosed bracket) is said, not replaced by a generic "expected a list".
    static func list(_ text: String) throws -> [Any] {
        let loaded: Any?
        do { loaded = try load(text) } catch {
            throw OptionTextError(expected: "a list such as [a, b] (\(error.message))")
        }
        guard let list = loaded as? [Any] else { throw OptionTextError(expected: "a list such as [a, b]") }
        return list
    }

    static func scalarText(_ value: Any) -> String {
        if let s = value as? String { return s }
        if let b = value as? Bool { return b ? "true" : "false" }
        if value is [Any] || value is [String: Any], JSONSerialization.isValidJSONObject(value),
           let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) {
            return String(decoding: data, as: UTF8.self)
        }
        return "\(value)"
    }
}
