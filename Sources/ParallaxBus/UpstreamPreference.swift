/// Options an analyzer asks of the analyzer that produces one of its inputs, applied by the chain
/// builder to the options the chain did not give that producer: `vio` asks its tracks' `klt` for
/// the front end it was measured with, so the two-word `klt ! vio` tracks as the tuned chain does
/// while `klt`'s own defaults stay what its other users need.
///
/// The run says what was applied (`run.json`: the producer's `preferred`); an option given in the
/// chain or by `--set` always wins.
public struct UpstreamPreference: Sendable, Equatable {
    /// The consumer's input port whose producer is asked (`tracks`).
    public var port: String
    /// The producer's analyzer name the options are for (`klt`); another producer is left alone.
    public var analyzer: String
    /// Option (`snake_case`) → value text, as a chain gives them.
    public var options: [String: String]
    /// Why, for `parallax plugins` (the measurement behind it).
    public var reason: String

    public init(port: String, analyzer: String, options: [String: String], reason: String) {
        self.port = port
        self.analyzer = analyzer
        self.options = options
        self.reason = reason
    }
}

/// Options a chain's analyzer took from a consumer's ``UpstreamPreference``.
public struct AppliedPreference: Sendable, Equatable, CustomStringConvertible {
    /// The instance that asked (`vio`).
    public var consumer: String
    /// Option (`snake_case`) → value applied, sorted by option in ``description``.
    public var options: [String: String]

    /// `equalize=true refill_below=0.9 window=15 (as vio prefers)`.
    public var description: String {
        options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + " (as \(consumer) prefers)"
    }
}
