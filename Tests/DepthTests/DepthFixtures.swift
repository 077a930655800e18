import Foundation
import Parallax
import ParallaxTesting

/// The bundled TUM RGB-D frame (freiburg3, with its sensor.yaml) as packets and metadata.
enum TUMFrame {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("datasets/tum_rgbd_frame").path
    static let depthKey = StreamKey<DepthMap>("depth"), rgbKey = StreamKey<CameraFrame>("rgb")

    /// The frame's depth map, colour image and their metadata.
    static func load() throws -> (depth: DepthMap, rgb: CameraFrame, depthMetadata: StreamMetadata, rgbMetadata: StreamMetadata, time: Timestamp) {
        let source = try TUMRGBDSource(path: path)
        var depth: DepthMap?, rgb: CameraFrame?, time = Timestamp(nanoseconds: 0)
        while let p = try source.next() {
            if let d = p.payload as? DepthMap { depth = d; time = p.timestamp }
            if let c = p.payload as? CameraFrame { rgb = c }
        }
        guard let depth, let rgb else { throw CocoaError(.fileReadCorruptFile) }
        let meta = { (name: String) in source.streams.first { $0.name == name }?.metadata ?? .none }
        return (depth, rgb, meta("depth"), meta("rgb"), time)
    }
}
