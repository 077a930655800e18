/// A dense depth or disparity image (AVDepthData's role).
///
/// Values are `Float32`; what they mean is explicit in ``kind``. Invalid pixels are explicit:
/// they hold NaN (never 0, which is a legal disparity at infinity).
public struct DepthMap: Sendable {
    /// What the values measure.
    public enum Kind: String, Sendable, Codable {
        /// Distance along the optical axis (m).
        case depth
        /// Inverse depth / normalized disparity (1/m).
        case disparity
    }

    /// Measurement kind.
    public var kind: Kind
    /// Values, NaN where invalid.
    public var values: ImageBuffer<Float>
    /// Optional per-pixel confidence in [0, 1].
    public var confidence: ImageBuffer<Float>?
    /// Stream name of the sensor (`depth0`).
    public var sensorID: String

    /// A depth map; `confidence` must have the same size as `values` when given.
    public init(sensorID: String, kind: Kind, values: ImageBuffer<Float>, confidence: ImageBuffer<Float>? = nil) {
        precondition(confidence.map { $0.width == values.width && $0.height == values.height } ?? true,
                     "DepthMap: confidence size differs from the depth size")
        self.sensorID = sensorID
        self.kind = kind
        self.values = values
        self.confidence = confidence
    }

    /// Whether pixel `(x, y)` holds a measurement.
    public func isValid(x: Int, y: Int) -> Bool { !values[x, y].isNaN }
}
