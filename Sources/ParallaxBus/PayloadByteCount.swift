/// A payload that can say roughly how much memory it holds (bytes), so a read-ahead can bound
/// itself in bytes as well as in packets (``PrefetchingSource``).
///
/// Payloads with images or other large buffers conform (a camera frame, a depth map, a point
/// cloud); a payload that does not is counted as ``PayloadByteCount/defaultBytes``,
/// right for the small values (IMU samples, poses) that make up most packets. A plugin's payload
/// holding a large buffer should conform too.
public protocol PayloadByteCount {
    /// Approximate memory held by this value (bytes): its buffers, not counting storage shared
    /// with other values or small fixed fields.
    var approximateBytes: Int { get }
}

/// The approximate size of any payload (``PayloadByteCount``).
public enum PayloadBytes {
    /// What a payload without ``PayloadByteCount`` is counted as (bytes).
    public static let defaultBytes = 256

    /// Approximate memory of `payload` (bytes): its own count when it conforms to
    /// ``PayloadByteCount``, else ``defaultBytes``; never negative.
    public static func of(_ payload: any Sendable) -> Int {
        max(0, (payload as? any PayloadByteCount)?.approximateBytes ?? defaultBytes)
    }
}
