/// The analyzer's window onto the bus during `open`, `process` and `close`: read the metadata
/// of its inputs, declare the metadata of its outputs, emit outputs, report warnings.
public struct AnalyzerContext: Sendable {
    /// The analyzer instance's name in the chain.
    public let instanceName: String
    @usableFromInline var emitted: [AnyPacket] = []
    var warnings: [String] = []
    var notes: [String] = []
    /// Metadata of the input streams, by stream name (set by the bus before `open`).
    var inputMetadata: [String: StreamMetadata] = [:]
    /// The bus stream of each input and output port, by declared name, where the chain remapped it.
    var remappedStreams: [String: String] = [:]
    /// Output metadata declared with ``describe(_:as:)`` and not yet taken by the bus.
    var declaredMetadata: [(stream: String, metadata: StreamMetadata)] = []
    /// The options the chain gave this instance (`snake_case`); the others are defaults. `nil`:
    /// made in Swift, every option chosen.
    let givenOptions: Set<String>?
    /// Options taken from the inputs' metadata (``useFromData(_:value:from:)``), not yet taken by the bus.
    var optionsFromData: [RunReport.OptionFromData] = []

    init(instanceName: String, givenOptions: Set<String>? = nil) {
        self.instanceName = instanceName
        self.givenOptions = givenOptions
    }

    /// Whether the chain gave `option` (`snake_case`, as documented) a value: an explicit option
    /// wins over what the data suggests, a default gives way to it. Always `true` for an analyzer
    /// made in Swift rather than from a chain (its options are all chosen by its maker).
    public func isGiven(_ option: String) -> Bool { givenOptions?.contains(option) ?? true }

    /// Records that `option` takes `value` from the data (`origin`: "calib.txt (ndisp)") because
    /// the chain gave it none. The run says so once (a note: `disparities=224 from calib.txt
    /// (ndisp)`) and `run.json` lists it (the report's `optionsFromData`, the analyzer's effective
    /// options). Call it in `open`, after checking ``isGiven(_:)``; declare the option in the
    /// analyzer's ``Analyzer/optionsFromData``.
    public mutating func useFromData(_ option: String, value: String, from origin: String) {
        optionsFromData.append(RunReport.OptionFromData(instance: instanceName, option: option, value: value, origin: origin))
        notes.append("\(option)=\(value) from \(origin)")
    }

    /// What the stream read by `port` was sensed with (empty when its producer described
    /// nothing). Available from `open` on.
    public func metadata<P>(of port: InputPort<P>) -> StreamMetadata { inputMetadata[port.key.name] ?? .none }

    /// The stream `port` reads on this run's bus: its declared name, or the stream the chain
    /// wired it to (`frames=@cam1`). Available from `open` on: name what you measure with it
    /// (a label, an overlay's camera), not with the declared name.
    public func stream<P>(of port: InputPort<P>) -> String { remappedStreams[port.key.name] ?? port.key.name }

    /// The stream `port` writes on this run's bus: its declared name, or the one the chain gave it
    /// (`quality=@cam1/q`). Available from `open` on.
    public func stream<P>(of port: OutputPort<P>) -> String { remappedStreams[port.key.name] ?? port.key.name }

    /// Declares what the stream written by `port` describes, for its consumers. Call it in
    /// `open`: consumers read metadata when they open, which is after their producers.
    public mutating func describe<P>(_ port: OutputPort<P>, as metadata: StreamMetadata) {
        declaredMetadata.append((port.key.name, metadata))
    }

    /// Emits `payload` on `port` at `timestamp`. Timestamps on one output stream must not
    /// decrease; the bus rejects a decreasing one with an error naming the analyzer.
    @inlinable public mutating func emit<P: Sendable>(_ payload: P, on port: OutputPort<P>, at timestamp: Timestamp) {
        emitted.append(AnyPacket(stream: port.key.name, timestamp: timestamp, payload: payload))
    }

    /// Empties the buffers, keeping their capacity (the bus reuses one context per analyzer).
    mutating func reset() {
        emitted.removeAll(keepingCapacity: true)
        warnings.removeAll(keepingCapacity: true)
        notes.removeAll(keepingCapacity: true)
        optionsFromData.removeAll()
        declaredMetadata.removeAll()
    }

    /// Records a warning for the run report: something that went wrong or was left out, that
    /// the user should look into ("frame size changed: tracking reset"). Printed as `warning:`.
    public mutating func warn(_ message: String) { warnings.append(message) }

    /// Records a note for the run report: what the analyzer did or found that is as it should be,
    /// worth knowing but no warning ("initialized at 0.52 s", "relocalized into place.pxmap",
    /// a summary of counts). Printed as `note:`, kept apart from the warnings in `run.json`.
    public mutating func note(_ message: String) { notes.append(message) }
}
