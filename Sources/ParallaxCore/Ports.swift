/// How an analyzer input is synchronized with the analyzer's trigger.
///
/// An analyzer runs once per packet of each ``each`` input (its *trigger*). At that moment:
/// - ``each``: the triggering packet itself (other `each` inputs are absent in that call);
/// - ``latest(tolerance:)``: the newest packet of the stream with timestamp ≤ the trigger's,
///   if it is at most `tolerance` older; otherwise absent (depth arrives slower than color:
///   most frames have no depth, like ARKit's `capturedDepthData`);
/// - ``between``: every packet of the stream with timestamp in (previous trigger, this
///   trigger] — the IMU samples between two frames. The first call gets all packets up to it.
///
/// "≤ the trigger's timestamp" includes packets with the *same* timestamp, whatever stream
/// they came from: the bus delivers all packets of one timestamp before it triggers anything.
public enum SyncPolicy: Sendable, Equatable, CustomStringConvertible {
    case each
    case latest(tolerance: Nanoseconds)
    case between

    public var description: String {
        switch self {
        case .each: return "each"
        case let .latest(tolerance): return "latest within \(Double(tolerance) / 1e6) ms"
        case .between: return "all between triggers"
        }
    }
}

/// A typed input of an analyzer: stream, payload type and synchronization.
public struct InputPort<Payload: Sendable>: Sendable {
    /// The stream read.
    public let key: StreamKey<Payload>
    /// How it is synchronized with the trigger.
    public let policy: SyncPolicy

    /// Every packet of `stream`, each one a trigger.
    public static func each(_ stream: String) -> InputPort { InputPort(key: StreamKey(stream), policy: .each) }
    /// The newest packet of `stream` at or before the trigger, at most `tolerance` ns older.
    public static func latest(_ stream: String, tolerance: Nanoseconds) -> InputPort {
        InputPort(key: StreamKey(stream), policy: .latest(tolerance: tolerance))
    }
    /// All packets of `stream` since the previous trigger.
    public static func between(_ stream: String) -> InputPort { InputPort(key: StreamKey(stream), policy: .between) }

    /// The type-erased description the bus wires.
    public var erased: PortDescription { PortDescription(stream: key.name, type: key.payloadType, policy: policy) }
}

/// A typed output of an analyzer.
public struct OutputPort<Payload: Sendable>: Sendable {
    /// The stream written.
    public let key: StreamKey<Payload>
    /// An output on `stream`.
    public init(_ stream: String) { key = StreamKey(stream) }
    /// The type-erased description the bus wires.
    public var erased: PortDescription { PortDescription(stream: key.name, type: key.payloadType, policy: .each) }
}

/// A port with its payload type erased: what the bus, the chain loader and
/// `parallax plugins` see.
public struct PortDescription: Sendable, Equatable, CustomStringConvertible {
    public let stream: String
    public let type: PayloadType
    public let policy: SyncPolicy

    /// A port description; use ``anyPayload`` as `type` for payload-agnostic inputs.
    public init(stream: String, type: PayloadType, policy: SyncPolicy) {
        self.stream = stream
        self.type = type
        self.policy = policy
    }

    /// Payload type that matches every stream (for diagnostics that only look at timestamps).
    public static let anyPayload = PayloadType(AnyPayload.self)

    public var description: String { "\(stream): \(type) (\(policy))" }
}

/// Marker type for ports that accept any payload (``PortDescription/anyPayload``).
public enum AnyPayload: Sendable {}
