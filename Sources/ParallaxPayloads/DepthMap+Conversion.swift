import ParallaxBus
import ParallaxImage
import ParallaxFiles

/// Why a depth map cannot be converted.
public enum DepthConversionError: Error, BadInput, Equatable, Sendable, CustomStringConvertible {
    /// A pixel disparity needs its stereo geometry (focal length, baseline, doffs) to mean a depth.
    case noStereoGeometry(sensor: String)
    /// Float16 samples do not fill the given size.
    case sizeMismatch(sensor: String, expected: Int, got: Int)

    public var description: String {
        switch self {
        case let .noStereoGeometry(sensor):
            return "depth stream '\(sensor)': a pixel disparity map needs its stereo calibration (focal length, baseline, doffs) to become depth"
        case let .sizeMismatch(sensor, expected, got):
            return "depth stream '\(sensor)': \(got) samples for a map of \(expected) pixels"
        }
    }
}

extension DepthMap {
    /// A map from IEEE half-precision samples (AVDepthData's `kCVPixelFormatType_DepthFloat16`
    /// and `DisparityFloat16`), row-major; non-finite samples become invalid (NaN).
    public init(sensorID: String, kind: Kind, width: Int, height: Int, float16Bits bits: [UInt16], stereo: StereoGeometry? = nil) throws {
        guard width >= 0, height >= 0, bits.count == width * height else {
            throw DepthConversionError.sizeMismatch(sensor: sensorID, expected: max(0, width) * max(0, height), got: bits.count)
        }
        let values = bits.map { b -> Float in
            let v = Float(Float16(bitPattern: b))
            return v.isFinite ? v : .nan
        }
        self.init(sensorID: sensorID, kind: kind, values: ImageBuffer(width: width, height: height, samples: values), stereo: stereo)
    }

    /// The same measurements as `target` (AVDepthData's `converting(toDepthDataType:)`):
    /// depth `Z` (m) ↔ disparity `1/Z` (1/m) ↔ pixel disparity `f·B/Z − doffs` (px, through
    /// ``stereo``, or `stereo` when converting into pixel disparity from a map without one).
    /// Invalid pixels stay NaN; so do values that have no depth (a depth ≤ 0, a disparity at or
    /// beyond infinity). Throws ``DepthConversionError/noStereoGeometry(sensor:)`` when a pixel
    /// disparity is involved and no geometry is known.
    public func converted(to target: Kind, stereo given: StereoGeometry? = nil) throws -> DepthMap {
        if target == kind { return self }
        let geometry = given ?? stereo
        if (kind == .pixelDisparity || target == .pixelDisparity) && geometry == nil {
            throw DepthConversionError.noStereoGeometry(sensor: sensorID)
        }
        let fB = Float((geometry?.focalLength ?? 0) * (geometry?.baseline ?? 0)), doffs = Float(geometry?.doffs ?? 0)
        let toDepth: (Float) -> Float
        switch kind {
        case .depth: toDepth = { $0 > 0 ? $0 : .nan }
        case .disparity: toDepth = { $0 > 0 ? 1 / $0 : .nan }
        case .pixelDisparity: toDepth = { $0 + doffs > 0 ? fB / ($0 + doffs) : .nan }
        }
        let fromDepth: (Float) -> Float
        switch target {
        case .depth: fromDepth = { $0 }
        case .disparity: fromDepth = { 1 / $0 }
        case .pixelDisparity: fromDepth = { fB / $0 - doffs }
        }
        let values = self.values.withUnsafeSamples { p in
            p.map { v -> Float in
                guard v.isFinite else { return .nan }
                let z = toDepth(v)
                return z.isFinite && z > 0 ? fromDepth(z) : .nan
            }
        }
        return DepthMap(sensorID: sensorID, kind: target, values: ImageBuffer(width: self.values.width, height: self.values.height, samples: values),
                        confidence: confidence, stereo: geometry)
    }

    /// Metric depth (m) per pixel, NaN where invalid (``converted(to:stereo:)`` to depth).
    public func metricDepth() throws -> ImageBuffer<Float> {
        try converted(to: .depth).values
    }

    /// Counts of a map's pixels and the median of its valid depths (m), for reports and tests.
    public func depthStatistics() throws -> (valid: Int, invalid: Int, median: Double?) {
        let depth = try metricDepth().samples.filter { $0.isFinite }.sorted()
        let total = values.width * values.height
        let median: Double? = depth.isEmpty ? nil
            : depth.count % 2 == 1 ? Double(depth[depth.count / 2]) : (Double(depth[depth.count / 2 - 1]) + Double(depth[depth.count / 2])) / 2
        return (depth.count, total - depth.count, median)
    }
}
