import ParallaxBus

/// One image from a camera, with what an analyzer needs to interpret it.
public struct CameraFrame: Sendable {
    /// Pixel layout of the image.
    public enum Format: String, Sendable, Codable { case gray8, rgb8 }

    /// The camera's stream name (`cam0`).
    public var cameraID: String
    /// 8-bit pixels: 1 channel for ``Format/gray8``, 3 interleaved for ``Format/rgb8``.
    public var image: ImageBuffer<UInt8>
    /// Exposure time in seconds, when the dataset records it.
    public var exposure: Double?

    /// A frame. Its camera's calibration travels as the stream's metadata
    /// (``StreamMetadata/camera``), not in every frame.
    public init(cameraID: String, image: ImageBuffer<UInt8>, exposure: Double? = nil) {
        self.cameraID = cameraID
        self.image = image
        self.exposure = exposure
    }

    /// The pixel format implied by the channel count.
    public var format: Format { image.channels == 3 ? .rgb8 : .gray8 }
    /// Width in pixels.
    public var width: Int { image.width }
    /// Height in pixels.
    public var height: Int { image.height }
}
