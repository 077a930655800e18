import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxCodecs

/// Writes a ``PointCloud`` stream as one PLY file per packet, `<t_ns>.ply`.
public final class PLYSequenceWriter: StreamFileWriter {
    private let folder: URL
    private let encoding: PLYFile.Encoding

    public init(folder: URL, encoding: PLYFile.Encoding = .binary) {
        self.folder = folder
        self.encoding = encoding
    }

    public func write(_ packet: AnyPacket) throws {
        guard let cloud = packet.payload as? PointCloud else { return }
        try PLYFile.write(cloud, to: folder.appendingPathComponent("\(packet.timestamp.nanoseconds).ply").path, encoding: encoding)
    }

    public func finish() throws -> String { folder.path }
}
