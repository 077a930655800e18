/// A point in time on the dataset's clock, in integer **nanoseconds** (EuRoC's unit).
///
/// Integer nanoseconds keep ordering and equality exact (no floating-point ties); convert
/// to seconds only for display or for integration step sizes.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Nanoseconds since the dataset clock's epoch.
    public var nanoseconds: Int64

    /// A timestamp from nanoseconds.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// A timestamp from seconds (rounded to the nearest nanosecond). Never traps: seconds
    /// beyond ±9.2e9 (Int64 nanoseconds) saturate and NaN gives 0, so readers must check the
    /// range of what they read (``isRepresentable(seconds:)``) and say which line is wrong.
    public init(seconds: Double) {
        let ns = (seconds * 1e9).rounded()
        if ns.isNaN { self.nanoseconds = 0 } else if ns >= 9.223372036854775e18 { self.nanoseconds = .max } else if ns <= -9.223372036854775e18 { self.nanoseconds = .min } else { self.nanoseconds = Int64(ns) }
    }

    /// `text`, a plain decimal number of seconds (`[+-]digits[.digits]`, as ASCII bytes), as
    /// exact integer nanoseconds (digits past the ninth decimal are dropped): no rounding
    /// through `Double`, which keeps only microseconds for epoch times. `nil` if it is not a
    /// plain decimal or does not fit in 64-bit nanoseconds (±292 years).
    @inlinable public static func nanoseconds(decimalSeconds text: some Sequence<UInt8>) -> Int64? {
        var whole: Int64 = 0, fraction: Int64 = 0, fractionDigits = 0
        var seenDot = false, negative = false, any = false
        for (n, b) in text.enumerated() {
            if n == 0 && (b == UInt8(ascii: "-") || b == UInt8(ascii: "+")) { negative = b == UInt8(ascii: "-"); continue }
            if b == UInt8(ascii: ".") && !seenDot { seenDot = true; continue }
            let d = b &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            any = true
            if seenDot {
                if fractionDigits < 9 { fraction = fraction * 10 + Int64(d); fractionDigits += 1 }
            } else {
                guard whole < 9_000_000_000 else { return nil }
                whole = whole * 10 + Int64(d)
            }
        }
        guard any else { return nil }
        for _ in fractionDigits..<9 { fraction *= 10 }
        let (seconds, o1) = whole.multipliedReportingOverflow(by: 1_000_000_000)
        let (ns, o2) = seconds.addingReportingOverflow(fraction)
        guard !o1, !o2 else { return nil }
        return negative ? -ns : ns
    }

    /// Whether `seconds` fits integer nanoseconds (|t| < 9e9 s, about 285 years).
    public static func isRepresentable(seconds: Double) -> Bool { seconds.isFinite && abs(seconds) < 9e9 }

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
