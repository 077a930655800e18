import Foundation
import Parallax

/// One camera frame and what a chain found on it at that time — feature tracks, tracked
/// objects, detected faces with their landmarks — drawn by the HTML report as SVG over the image.
struct OverlayFrame {
    struct Feature { var x, y: Double; var age: Int }
    var camera: String
    var time: Timestamp
    var frame: CameraFrame
    var features: [Feature] = []
    /// Boxes (px, top-left), with a label.
    var boxes: [(box: BoundingBox, label: String)] = []
    var landmarks: [[Vector2]] = []

    /// `frame` of `camera` at `time` with the outputs at that time that belong to it (streams
    /// named after it, `cam0/…`, or tracks of it).
    init(camera: String, time: Timestamp, frame: CameraFrame, outputs: [AnyPacket]) {
        self.camera = camera
        self.time = time
        self.frame = frame
        for packet in outputs where packet.timestamp == time {
            switch packet.payload {
            case let tracks as FeatureTracks where tracks.camera == camera:
                features += tracks.features.map { Feature(x: $0.pixel.x, y: $0.pixel.y, age: $0.age) }
            case let objects as TrackedObjects where packet.stream.hasPrefix(camera + "/"):
                boxes += objects.objects.map { ($0.box, "object \($0.id) (\(String(format: "%.2f", $0.confidence)))") }
            case let faces as DetectedFaces where packet.stream.hasPrefix(camera + "/"):
                for face in faces.faces {
                    boxes.append((face.box, "face \(face.id) (\(String(format: "%.2f", face.score)))"))
                    landmarks.append(face.landmarks.points)
                }
            default: break
            }
        }
    }

    /// Whether the chain drew anything on it.
    var isAnnotated: Bool { !features.isEmpty || !boxes.isEmpty || !landmarks.isEmpty }
}

/// Keeps what the reports draw while a chain runs: the first camera's frames at three times
/// (first, middle, last of its listing) and the outputs at those times — nothing else.
struct OverlayCollector {
    let camera: String?
    let chosen: Set<Timestamp>
    private var frames: [Timestamp: CameraFrame] = [:]
    private var outputs: [AnyPacket] = []

    init(source: any DatasetSource) {
        camera = source.streams.first { $0.type == PayloadType(CameraFrame.self) }?.name
        let stamps = camera.flatMap { source.listing.stamps[$0] } ?? []
        chosen = Set(stamps.isEmpty ? [] : [stamps[0], stamps[stamps.count / 2], stamps[stamps.count - 1]])
    }

    /// Keeps `packet` (a source packet) when it is a chosen frame of the camera.
    mutating func input(_ packet: AnyPacket) {
        if packet.stream == camera, chosen.contains(packet.timestamp), let frame = packet.payload as? CameraFrame { frames[packet.timestamp] = frame }
    }

    /// Keeps `packet` (an output) when it is at a chosen time.
    mutating func output(_ packet: AnyPacket) {
        if chosen.contains(packet.timestamp) { outputs.append(packet) }
    }

    /// The kept frames with what the chain found on them, in time order.
    var overlays: [OverlayFrame] {
        guard let camera else { return [] }
        return frames.keys.sorted().compactMap { t in frames[t].map { OverlayFrame(camera: camera, time: t, frame: $0, outputs: outputs) } }
    }
}
