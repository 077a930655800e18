import Foundation
import Parallax
import ParallaxTesting

/// The bundled TUM RGB-D frame (freiburg3, with its sensor.yaml) as packets and metadata.
struct TUMFrame {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("datasets/tum_rgbd_frame").path
    static let depthKey = StreamKey<DepthMap>("depth"), rgbKey = StreamKey<CameraFrame>("rgb")

    var depth: DepthMap, rgb: CameraFrame, depthMetadata: StreamMetadata, rgbMetadata: StreamMetadata, time: Timestamp

    /// The frame's depth map, colour image and their metadata.
    static func load() throws -> TUMFrame {
        let source = try TUMRGBDSource(path: path)
        var depth: DepthMap?, rgb: CameraFrame?, time = Timestamp(nanoseconds: 0)
        while let p = try source.next() {
            if let d = p.payload as? DepthMap { depth = d; time = p.timestamp }
            if let c = p.payload as? CameraFrame { rgb = c }
        }
        guard let depth, let rgb else { throw CocoaError(.fileReadCorruptFile) }
        let meta = { (name: String) in source.streams.first { $0.name == name }?.metadata ?? .none }
        return TUMFrame(depth: depth, rgb: rgb, depthMetadata: meta("depth"), rgbMetadata: meta("rgb"), time: time)
    }

    /// A harness for the analyzer `make` builds, given the frame's depth map as `depth` (and,
    /// with `colour`, its image as `rgb` first), streams described.
    func harness<A: Analyzer>(colour: Bool = false, _ make: @escaping () throws -> A) -> AnalyzerHarness {
        var h = AnalyzerHarness(make)
        h.describe(Self.depthKey, as: depthMetadata)
        if colour {
            h.describe(Self.rgbKey, as: rgbMetadata)
            h.push(rgb, on: Self.rgbKey, at: time)
        }
        h.push(depth, on: Self.depthKey, at: time)
        return h
    }
}
