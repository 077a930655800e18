/// Warnings that repeat per frame, reported once each (the first time, with its details) and
/// counted: at the end, one line per kind that came back.
public struct RepeatedWarnings: Sendable {
    private var counts: [String: Int] = [:]
    private var order: [String] = []

    public init() {}

    /// Records `kind`; warns through `context` the first time, with `message`.
    public mutating func note(_ kind: String, _ message: String, context: inout AnalyzerContext) {
        if counts[kind] == nil { order.append(kind); context.warn(message) }
        counts[kind, default: 0] += 1
    }

    /// How often `kind` was noted.
    public func count(_ kind: String) -> Int { counts[kind] ?? 0 }

    /// One line per kind seen more than once: "`kind`: N `unit` in all".
    public func flush(unit: String, context: inout AnalyzerContext) {
        for kind in order where (counts[kind] ?? 0) > 1 { context.warn("\(kind): \(counts[kind] ?? 0) \(unit) in all") }
    }
}
