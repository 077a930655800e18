/// Misuse of ``AnalyzerInput`` by an analyzer.
public enum AnalyzerInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// ``AnalyzerInput/trigger(_:)`` asked for one stream's packet while another triggered.
    case notTriggeredBy(stream: String, trigger: String)

    public var description: String {
        switch self {
        case let .notTriggeredBy(stream, trigger):
            return "asked for the trigger of '\(stream)', but '\(trigger)' triggered this call (use input[port] with several 'each' inputs)"
        }
    }
}
