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
        /// Stereo disparity in pixels, with ``DepthMap/stereo`` saying how it maps to depth
        /// (Middlebury's convention: `Z = f·B / (d + doffs)`).
        case pixelDisparity
    }

    /// What turns a pixel disparity into depth: focal length (px), baseline (m) and the
    /// principal-point offset between the two cameras `doffs` (px).
    public struct StereoGeometry: Sendable, Codable, Equatable {
        public var focalLength: Double
        public var baseline: Double
        public var doffs: Double
        public init(focalLength: Double, baseline: Double, doffs: Double = 0) {
            self.focalLength = focalLength
            self.baseline = baseline
            self.doffs = doffs
        }
    }

    /// Measurement kind.
    public var kind: Kind
    /// Values, NaN where invalid.
    public var values: ImageBuffer<Float>
    /// Optional per-pixel confidence in [0, 1].
    public var confidence: ImageBuffer<Float>?
    /// Stream name of the sensor (`depth0`).
    public var sensorID: String
    /// For ``Kind/pixelDisparity``: the stereo geometry that maps disparity to depth. On a
    /// depth map measured by a stereo pair: the geometry it came from (so that its errors can
    /// be told in pixels of disparity).
    public var stereo: StereoGeometry?

    /// A depth map; `confidence` must have the same size as `values` when given.
    public init(sensorID: String, kind: Kind, values: ImageBuffer<Float>, confidence: ImageBuffer<Float>? = nil, stereo: StereoGeometry? = nil) {
        precondition(confidence.map { $0.width == values.width && $0.height == values.height } ?? true,
                     "DepthMap: confidence size differs from the depth size")
        self.sensorID = sensorID
        self.kind = kind
        self.values = values
        self.confidence = confidence
        self.stereo = stereo
    }

    /// Metric depth (m) at pixel `(x, y)` whatever the kind, or `nil` where invalid (or a pixel
    /// disparity without its stereo geometry).
    public func depth(x: Int, y: Int) -> Double? {
        let v = Double(values[x, y])
        guard v.isFinite else { return nil }
        switch kind {
        case .depth: return v
        case .disparity: return v > 0 ? 1 / v : nil
        case .pixelDisparity:
            guard let s = stereo, v + s.doffs > 0 else { return nil }
            return s.focalLength * s.baseline / (v + s.doffs)
        }
    }

    /// Whether pixel `(x, y)` holds a measurement.
    public func isValid(x: Int, y: Int) -> Bool { !values[x, y].isNaN }
}
