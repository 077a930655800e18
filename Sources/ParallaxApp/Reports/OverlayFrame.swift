import Foundation
import Parallax

/// One camera frame and what a chain found on it — whatever its outputs draw over that camera
/// (``FrameOverlayDrawable``: feature tracks, tracked objects, faces with their landmarks, a
/// plugin's own payload) — drawn by the HTML report as SVG over the image.
public struct OverlayFrame {
    public var camera: String
    public var time: Timestamp
    public var frame: CameraFrame
    public var overlay = FrameOverlay()

    /// `frame` of `camera` at `time` with what the outputs at that time draw over it.
    public init(camera: String, time: Timestamp, frame: CameraFrame, outputs: [AnyPacket]) {
        self.camera = camera
        self.time = time
        self.frame = frame
        for packet in outputs where packet.timestamp == time {
            if let drawable = packet.payload as? any FrameOverlayDrawable, let drawn = drawable.frameOverlay(camera: camera, stream: packet.stream) {
                overlay.add(drawn)
            }
        }
    }

    /// Whether the chain drew anything on it.
    public var isAnnotated: Bool { !overlay.isEmpty }
}

/// Keeps what the reports draw while a chain runs: the first camera's frames at three times
/// (first, middle, last of its listing) and the outputs at those times — nothing else.
public struct OverlayCollector {
    public let camera: String?
    public let chosen: Set<Timestamp>
    private var frames: [Timestamp: CameraFrame] = [:]
    private var outputs: [AnyPacket] = []

    public init(source: any DatasetSource) {
        camera = source.streams.first { $0.type == PayloadType(CameraFrame.self) }?.name
        let stamps = camera.flatMap { source.listing.stamps[$0] } ?? []
        chosen = Set(stamps.isEmpty ? [] : [stamps[0], stamps[stamps.count / 2], stamps[stamps.count - 1]])
    }

    /// Keeps `packet` (a source packet) when it is a chosen frame of the camera.
    public mutating func input(_ packet: AnyPacket) {
        if packet.stream == camera, chosen.contains(packet.timestamp), let frame = packet.payload as? CameraFrame { frames[packet.timestamp] = frame }
    }

    /// Keeps `packet` (an output) when it is at a chosen time.
    public mutating func output(_ packet: AnyPacket) {
        if chosen.contains(packet.timestamp) { outputs.append(packet) }
    }

    /// The kept frames with what the chain found on them, in time order.
    public var overlays: [OverlayFrame] {
        guard let camera else { return [] }
        return frames.keys.sorted().compactMap { t in frames[t].map { OverlayFrame(camera: camera, time: t, frame: $0, outputs: outputs) } }
    }
}
