/// How an analyzer input is synchronized with the analyzer's trigger.
///
/// An analyzer runs once per packet of each ``each`` input (its *trigger*). At that moment:
/// - ``each``: the triggering packet itself (other `each` inputs are absent in that call);
/// - ``latest(tolerance:)``: the newest packet of the stream with timestamp ≤ the trigger's,
///   if it is at most `tolerance` older; otherwise absent (depth arrives slower than color:
///   most frames have no depth, like ARKit's `capturedDepthData`);
/// - ``nearest(tolerance:)``: the packet closest in time to the trigger, before *or after* it,
///   within `tolerance` (the earlier one on a tie); otherwise absent. Looks ahead: the trigger
///   waits until the stream has a packet at or after its time (or the stream has ended);
/// - ``between(through:)``: every packet of the stream with timestamp in (previous trigger,
///   this trigger] — the IMU samples between two frames. The first call gets all packets up to
///   it. With ``BetweenEnd/firstAfter`` also the first packet *after* the trigger (which the
///   next call receives again), so a filter can interpolate to the frame's time; the trigger
///   waits until that packet has arrived (or the stream has ended). With
///   ``BetweenEnd/ahead(_:)`` the window reaches `lead` ns past the trigger (and the first packet
///   beyond): a camera whose clock runs behind the IMU's needs the IMU a little past its stamps.
///
/// "≤ the trigger's timestamp" includes packets with the *same* timestamp, whatever stream
/// they came from: the bus delivers all packets of one timestamp before it triggers anything.
/// Look-ahead waits depend only on packet order, never on wall time, so results stay
/// bit-identical; the extra latency is reported per analyzer (``RunReport/AnalyzerTiming``).
public enum SyncPolicy: Sendable, Equatable, CustomStringConvertible {
    case each
    case latest(tolerance: Nanoseconds)
    case nearest(tolerance: Nanoseconds)
    case between(through: BetweenEnd)

    /// Where a ``SyncPolicy/between(through:)`` window ends.
    public enum BetweenEnd: Sendable, Equatable {
        /// At the trigger's timestamp (inclusive).
        case trigger
        /// At the first packet after the trigger (inclusive).
        case firstAfter
        /// At the first packet more than `lead` ns after the trigger (inclusive); each call
        /// gets the packets in (previous trigger + lead, this trigger + lead] and that one.
        /// `.ahead(0)` is ``firstAfter``.
        case ahead(Nanoseconds)

        /// How far past the trigger the window reaches (ns) before its first packet beyond;
        /// `nil`: it ends at the trigger.
        var lead: Nanoseconds? {
            switch self {
            case .trigger: return nil
            case .firstAfter: return 0
            case let .ahead(lead): return max(0, lead)
            }
        }
    }

    /// All packets between triggers, ending at the trigger.
    public static let between = SyncPolicy.between(through: .trigger)

    public var description: String {
        switch self {
        case .each: return "each"
        case let .latest(tolerance): return "latest within \(Double(tolerance) / 1e6) ms"
        case let .nearest(tolerance): return "nearest within \(Double(tolerance) / 1e6) ms (looks ahead)"
        case .between(through: .trigger): return "all between triggers"
        case .between(through: .firstAfter): return "all between triggers and the first after (looks ahead)"
        case let .between(through: .ahead(lead)): return "all between triggers \(Double(lead) / 1e6) ms ahead and the first after (looks ahead)"
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
    /// The packet of `stream` nearest the trigger in time, before or after, at most `tolerance` ns away.
    public static func nearest(_ stream: String, tolerance: Nanoseconds) -> InputPort {
        InputPort(key: StreamKey(stream), policy: .nearest(tolerance: tolerance))
    }
    /// All packets of `stream` since the previous trigger, up to the trigger or (`.firstAfter`)
    /// up to and including the first packet after it.
    public static func between(_ stream: String, through end: SyncPolicy.BetweenEnd = .trigger) -> InputPort {
        InputPort(key: StreamKey(stream), policy: .between(through: end))
    }

    /// The type-erased description the bus wires.
    public var erased: PortDescription { PortDescription(stream: key.name, type: key.payloadType, policy: policy) }
}

extension InputPort: DeclaredPort {
    var isInput: Bool { true }
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

extension OutputPort: DeclaredPort {
    var isInput: Bool { false }
}

/// What port discovery looks for among an analyzer's stored properties.
protocol DeclaredPort {
    var erased: PortDescription { get }
    var isInput: Bool { get }
}

/// A port with its payload type erased: what the bus, the chain loader and
/// `parallax plugins` see.
public struct PortDescription: Sendable, Equatable, CustomStringConvertible {
    public var stream: String
    public let type: PayloadType
    public let policy: SyncPolicy
    /// The port's name: the analyzer property that declares it (`frames`; `streams.0` for an
    /// element of an array of ports). A chain remaps a port by this name (`frames=@cam1`).
    public var name: String?

    /// A port description; use ``anyPayload`` as `type` for payload-agnostic inputs.
    public init(stream: String, type: PayloadType, policy: SyncPolicy, name: String? = nil) {
        self.stream = stream
        self.type = type
        self.policy = policy
        self.name = name
    }

    /// Payload type that matches every stream (for diagnostics that only look at timestamps).
    public static let anyPayload = PayloadType(AnyPayload.self)

    public var description: String { "\(stream): \(type) (\(policy))" }
}

/// Marker type for ports that accept any payload (``PortDescription/anyPayload``).
public enum AnyPayload: Sendable {}
