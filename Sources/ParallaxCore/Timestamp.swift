/// A point in time on the dataset's clock, in integer **nanoseconds** (EuRoC's unit).
///
/// Integer nanoseconds keep ordering and equality exact (no floating-point ties); convert
/// to seconds only for display or for integration step sizes.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Nanoseconds since the dataset clock's epoch.
    public var nanoseconds: Int64

    /// A timestamp from nanoseconds.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// A timestamp from seconds (rounded to the nearest nanosecond).
    public init(seconds: Double) { self.nanoseconds = Int64((seconds * 1e9).rounded()) }

    /// Seconds as a `Double` (loses sub-microsecond precision for epoch-based stamps).
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// `self − other` in seconds.
    public func seconds(since other: Timestamp) -> Double { Double(nanoseconds - other.nanoseconds) / 1e9 }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.nanoseconds < b.nanoseconds }

    public var description: String { "\(nanoseconds) ns" }

    /// Exact decimal seconds with nine fractional digits (`-0.500000000`, `1403715273.262142976`).
    public var decimalSeconds: String {
        let magnitude = nanoseconds.magnitude
        let fraction = String(magnitude % 1_000_000_000)
        return "\(nanoseconds < 0 ? "-" : "")\(magnitude / 1_000_000_000).\(String(repeating: "0", count: 9 - fraction.count))\(fraction)"
    }

    public init(from decoder: any Decoder) throws { nanoseconds = try decoder.singleValueContainer().decode(Int64.self) }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(nanoseconds)
    }
}

/// A span of time in integer nanoseconds.
public typealias Nanoseconds = Int64
