/// A payload that can say roughly how much memory it holds (bytes), so a read-ahead can bound
/// itself in bytes as well as in packets (``PrefetchingSource``).
///
/// Payloads with images or other large buffers conform (``CameraFrame``, ``DepthMap``,
/// ``PointCloud``); a payload that does not is counted as ``PayloadByteCount/defaultBytes``,
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

extension CameraFrame: PayloadByteCount {
    /// The image's samples (bytes: one per sample).
    public var approximateBytes: Int { image.samples.count }
}

extension DepthMap: PayloadByteCount {
    /// The depth values and confidence (bytes: four per `Float`).
    public var approximateBytes: Int { (values.samples.count + (confidence?.samples.count ?? 0)) * MemoryLayout<Float>.size }
}

extension PointCloud: PayloadByteCount {
    /// The positions and colours (bytes).
    public var approximateBytes: Int {
        points.count * MemoryLayout<SIMD3<Float>>.stride + (colors?.count ?? 0) * MemoryLayout<SIMD3<UInt8>>.stride
    }
}
