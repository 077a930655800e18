/// What a stream's packets were sensed with, delivered once per stream instead of copied into
/// every packet (MediaPipe's side packets play this role).
///
/// Sources fill it for their streams (a reader from `sensor.yaml` or `parallax.yaml`, the
/// simulator from its configuration). An analyzer reads it for each input in
/// ``Analyzer/open(context:)`` (``AnalyzerContext/metadata(of:)``) and declares it for its
/// outputs there (``AnalyzerContext/describe(_:as:)``): `klt` forwards its camera's calibration
/// to `cam0/tracks`, a resampling stage declares rescaled intrinsics.
///
/// The bus knows no sensor: a kind of description is a ``StreamMetadataKey``, declared by the
/// module whose payloads it describes (the shared vocabulary declares `camera`, `imu`, `depth`
/// and `stereo`; a plugin can declare its own the same way) and read or set by subscript. Every
/// part is optional: a stream describes what applies to it.
public struct StreamMetadata: Sendable, Equatable {
    /// One described part, with how to compare it to another of its key.
    private struct Part: Sendable {
        let value: any Sendable
        let isEqual: @Sendable (any Sendable) -> Bool
    }

    private var parts: [ObjectIdentifier: Part] = [:]

    private init() {}

    /// Nothing known.
    public static let none = StreamMetadata()

    /// Whether nothing is known.
    public var isEmpty: Bool { parts.isEmpty }

    /// The part described under `key`, or `nil`; setting `nil` removes it.
    public subscript<Key: StreamMetadataKey>(key: Key.Type) -> Key.Value? {
        get { parts[ObjectIdentifier(key)]?.value as? Key.Value }
        set {
            guard let newValue else { parts[ObjectIdentifier(key)] = nil; return }
            parts[ObjectIdentifier(key)] = Part(value: newValue, isEqual: { ($0 as? Key.Value) == newValue })
        }
    }

    public static func == (lhs: StreamMetadata, rhs: StreamMetadata) -> Bool {
        lhs.parts.count == rhs.parts.count && lhs.parts.allSatisfy { id, part in
            rhs.parts[id].map { part.isEqual($0.value) } ?? false
        }
    }
}

/// A kind of description a stream's ``StreamMetadata`` can carry: the key type names it, `Value`
/// is what it holds (a camera calibration, a depth sensor's units).
///
/// ```swift
/// enum LensTemperatureKey: StreamMetadataKey { typealias Value = Double }
/// extension StreamMetadata {
///     var lensTemperature: Double? { get { self[LensTemperatureKey.self] } set { self[LensTemperatureKey.self] = newValue } }
/// }
/// ```
public protocol StreamMetadataKey {
    /// What the key's part holds.
    associatedtype Value: Sendable & Equatable
}
