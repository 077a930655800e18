/// The analyzer's window onto the bus during `open`, `process` and `close`: emit outputs,
/// report warnings.
public struct AnalyzerContext: Sendable {
    /// The analyzer instance's name in the chain.
    public let instanceName: String
    @usableFromInline var emitted: [AnyPacket] = []
    var warnings: [String] = []

    init(instanceName: String) { self.instanceName = instanceName }

    /// Emits `payload` on `port` at `timestamp`. Timestamps on one output stream must not
    /// decrease; the bus rejects a decreasing one with an error naming the analyzer.
    @inlinable public mutating func emit<P: Sendable>(_ payload: P, on port: OutputPort<P>, at timestamp: Timestamp) {
        emitted.append(AnyPacket(stream: port.key.name, timestamp: timestamp, payload: payload))
    }

    /// Empties the buffers, keeping their capacity (the bus reuses one context per analyzer).
    mutating func reset() {
        emitted.removeAll(keepingCapacity: true)
        warnings.removeAll(keepingCapacity: true)
    }

    /// Records a warning for the run report (e.g. "frame size changed: tracking reset").
    public mutating func warn(_ message: String) { warnings.append(message) }
}
