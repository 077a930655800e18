import ParallaxBus

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
