/// The name of a stream together with the type of its payloads, e.g.
/// `StreamKey<CameraFrame>("cam0")`, `StreamKey<IMUSample>("imu0")`.
///
/// Names are free-form; by convention sensors use the dataset's names (`cam0`, `imu0`,
/// `depth0`) and analyzer outputs a path under their input (`cam0/tracks`).
public struct StreamKey<Payload: Sendable>: Sendable, Hashable, CustomStringConvertible {
    /// The stream's name.
    public let name: String

    /// A key for the stream `name`.
    public init(_ name: String) { self.name = name }

    /// The payload type, for error messages and `parallax plugins`.
    public var payloadType: PayloadType { PayloadType(Payload.self) }

    public var description: String { "\(name) (\(payloadType))" }
}

/// A payload type, compared by identity and printed by name.
public struct PayloadType: Sendable, Hashable, CustomStringConvertible {
    let id: ObjectIdentifier
    private let type: any Any.Type

    /// The payload type of `type`.
    public init<T>(_ type: T.Type) { self.init(dynamic: type) }

    /// The payload type of a type known only at run time (`type(of: payload)`). Cheap: the
    /// name is computed only when asked for.
    public init(dynamic type: any Any.Type) {
        id = ObjectIdentifier(type)
        self.type = type
    }

    /// The Swift type (to ask whether it has a capability: `type.swiftType as? any P.Type`).
    public var swiftType: any Any.Type { type }

    /// The type's name without module prefix, e.g. `CameraFrame`.
    public var name: String { String(describing: type) }

    /// Whether `payload`'s dynamic type is this type.
    @inline(__always) public func matches(_ payload: any Sendable) -> Bool {
        ObjectIdentifier(Swift.type(of: payload)) == id
    }

    public static func == (a: PayloadType, b: PayloadType) -> Bool { a.id == b.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    public var description: String { name }
}
