import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage

/// A dataset with one camera stream delivered in another ``VideoFormat``, under its own name,
/// so any chain runs unchanged at that format: images shrunk by area resampling (intrinsics
/// rescaled exactly, ``CameraModel/binned(by:)``), every `rateDivisor`-th frame kept at its own
/// time, gray instead of colour. Other streams and the ground truth pass through. Frames are
/// decoded and converted on the calling thread (a dropped frame is known only once decoded
/// packets show their stream, so the inner source's deferred work is done here).
public final class FormattedDatasetSource: DatasetSource {
    public let inner: any DatasetSource
    public let format: VideoFormat
    public let streams: [StreamDescription]
    public let listing: StreamListing
    public var formatName: String { "\(inner.formatName), \(format.camera) as \(format)" }
    public var groundTruth: Trajectory? { inner.groundTruth }
    public var missingImages: [String: Int] { inner.missingImages }
    private var cameraFrames = 0

    /// `inner` with `format.camera` delivered as `format` (its scale and rate divisors, and gray
    /// when `format.pixelFormat` is gray). A camera stream the dataset does not have is an error
    /// naming it.
    public init(_ inner: any DatasetSource, format: VideoFormat) throws {
        guard inner.streams.contains(where: { $0.name == format.camera && $0.type == PayloadType(CameraFrame.self) }) else {
            throw DatasetError.invalidOption(path: inner.formatName, option: "camera", reason: "'\(format.camera)' is not a camera stream of this dataset (\(inner.streams.map(\.name).joined(separator: ", ")))")
        }
        self.inner = inner
        self.format = format
        streams = inner.streams.map { stream in
            guard stream.name == format.camera else { return stream }
            var s = stream
            s.metadata.camera = s.metadata.camera.map(format.convert)
            s.metadata.stereo = nil  // the partner is not formatted alike
            return s
        }
        var listing = StreamListing()
        for name in inner.listing.order {
            for (k, t) in (inner.listing.stamps[name] ?? []).enumerated() where name != format.camera || format.keeps(frame: k) {
                listing.record(stream: name, timestamp: t, file: inner.formatName, line: 0)
            }
        }
        self.listing = listing
    }

    public func next() throws -> AnyPacket? {
        while let packet = try inner.next() {
            guard packet.stream == format.camera, let frame = packet.payload as? CameraFrame else { return packet }
            defer { cameraFrames += 1 }
            guard format.keeps(frame: cameraFrames) else { continue }
            return AnyPacket(stream: packet.stream, timestamp: packet.timestamp, payload: format.convert(frame))
        }
        return nil
    }
}
