import ParallaxPayloads
/// The 16-bit depth PNG convention (TUM, Parallax folders): raw = metres × units per metre,
/// 0 = no measurement. One place for both directions, so readers and writers agree.
public enum RawDepth {
    /// Metric depth from raw values: `raw / unitsPerMetre` m, 0 → NaN (invalid).
    public static func decode(_ raw: ImageBuffer<UInt16>, unitsPerMetre: Float, sensorID: String, kind: DepthMap.Kind = .depth) -> DepthMap {
        let values = raw.withUnsafeSamples { p in p.map { $0 == 0 ? Float.nan : Float($0) / unitsPerMetre } }
        return DepthMap(sensorID: sensorID, kind: kind, values: ImageBuffer(width: raw.width, height: raw.height, samples: values))
    }

    /// Raw values from metric depth: rounded `value × unitsPerMetre`, clamped to 16 bits, NaN → 0.
    public static func encode(_ depth: DepthMap, unitsPerMetre: Float) -> ImageBuffer<UInt16> {
        let raw = depth.values.withUnsafeSamples { p in
            p.map { $0.isNaN ? UInt16(0) : UInt16(clamping: Int(($0 * unitsPerMetre).rounded())) }
        }
        return ImageBuffer(width: depth.values.width, height: depth.values.height, samples: raw)
    }
}
