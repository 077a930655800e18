import Foundation

/// One option, declared once with its documentation, unit and valid range, on an analyzer's
/// options or on an algorithm's settings (a ``ParameterGroup``):
///
/// ```swift
/// struct Options: AnalyzerOptions {
///     @Parameter("features kept per frame", range: 1...10_000) var maxFeatures = 200
///     @Parameter("Lucas–Kanade window (px, odd)", range: 3...201) var window = 21
///     @Parameter("corner detector") var detector = Detector.shiTomasi   // a CaseIterable enum
///     @Parameter("focal length (px); none: from the calibration") var focal: Double? = nil
///     init() {}
/// }
/// ```
///
/// The chain sets it by its `snake_case` name (`max_features=200`); the value is read as its
/// type (``OptionValue``) and checked against the range before the analyzer is made, so an
/// out-of-range value is a usage error naming the option, never a trap later. `parallax
/// plugins NAME` lists the documentation, default, type, range and choices.
///
/// In JSON the wrapper is just its value; two parameters are equal when their values are (the
/// declaration is the same for every value of a field).
@propertyWrapper
public struct Parameter<Value: OptionValue>: Sendable {
    public var wrappedValue: Value
    /// What the option means, with its unit.
    public let documentation: String
    /// The valid range, as text (`1…10000`), when there is one.
    public let rangeText: String?
    private let check: (@Sendable (Value) -> String?)?

    /// An option without a range.
    public init(wrappedValue: Value, _ documentation: String) {
        self.wrappedValue = wrappedValue
        self.documentation = documentation
        self.rangeText = nil
        self.check = nil
    }

    /// An option whose value must lie in `range`.
    public init(wrappedValue: Value, _ documentation: String, range: ClosedRange<Value>) where Value: Comparable {
        self.wrappedValue = wrappedValue
        self.documentation = documentation
        self.rangeText = "\(range.lowerBound)…\(range.upperBound)"
        self.check = { range.contains($0) ? nil : "must be in \(range.lowerBound)…\(range.upperBound)" }
    }

    /// An optional option whose value, when set, must lie in `range`.
    public init<W: Comparable & OptionValue>(wrappedValue: Value, _ documentation: String, range: ClosedRange<W>) where Value == W? {
        self.wrappedValue = wrappedValue
        self.documentation = documentation
        self.rangeText = "\(range.lowerBound)…\(range.upperBound) or none"
        self.check = { $0.map { range.contains($0) ? nil : "must be in \(range.lowerBound)…\(range.upperBound)" } ?? nil }
    }

    /// An option checked by `validate`, which returns why a value is invalid (`nil` when valid);
    /// `rule` says the rule in `parallax plugins`.
    public init(wrappedValue: Value, _ documentation: String, rule: String, validate: @escaping @Sendable (Value) -> String?) {
        self.wrappedValue = wrappedValue
        self.documentation = documentation
        self.rangeText = rule
        self.check = validate
    }
}

extension Parameter: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Value.self), "")
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(wrappedValue)
    }
}

extension Parameter: Equatable where Value: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.wrappedValue == b.wrappedValue }
}

/// A ``Parameter`` with its value type erased: what option parsing and `parallax plugins` use.
package protocol ParameterField {
    var documentation: String { get }
    var rangeText: String? { get }
    var choices: [String]? { get }
    var typeDescription: String { get }
    /// The JSON value `text` denotes, read as this option's type.
    func jsonValue(fromText text: String) throws -> Any
    /// Why `value` (a decoded ``Parameter`` of the same type) is out of range, or `nil`.
    func problem(with value: Any) -> String?
}

extension Parameter: ParameterField {
    package var choices: [String]? { Value.choices }
    package var typeDescription: String { Value.typeDescription }
    package func jsonValue(fromText text: String) throws -> Any { try Value.jsonValue(fromText: text) }
    package func problem(with value: Any) -> String? {
        guard let check, let other = value as? Parameter<Value> else { return nil }
        return check(other.wrappedValue)
    }
}
