import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
import ParallaxCodecs

// How the shared payloads are recorded in MCAP files, with Foxglove's well-known schemas
// (``FoxgloveRecorder`` lists them).

extension CameraFrame: MCAPRecordable {
    /// `foxglove.CompressedImage`: a JPEG at the options' quality (a view, not an archive).
    public static func mcapMessages(_ batch: [CameraFrame], stream: String, time: Timestamp, options: MCAPRecordingOptions) throws -> [RecordedMessage] {
        try batch.map { frame in
            let jpeg = try ImageEncoder.jpegData(frame.image, quality: options.imageQuality, name: "\(stream) at \(time.nanoseconds) ns")
            return RecordedMessage(topic: "/" + stream, schema: .foxglove("foxglove.CompressedImage"),
                                   message: Foxglove.CompressedImage(timestamp: .init(time), frame_id: frame.cameraID, data: jpeg.base64EncodedString(), format: "jpeg"))
        }
    }
}

extension Pose: MCAPRecordable {
    /// `foxglove.PoseInFrame` in `world`, and `foxglove.FrameTransform` on `/tf/<stream>`.
    public static func mcapMessages(_ batch: [Pose], stream: String, time: Timestamp, options: MCAPRecordingOptions) throws -> [RecordedMessage] {
        batch.flatMap { pose -> [RecordedMessage] in
            let p = Foxglove.Pose(pose.worldFromBody)
            return [RecordedMessage(topic: "/" + stream, schema: .foxglove("foxglove.PoseInFrame"),
                                    message: Foxglove.PoseInFrame(timestamp: .init(time), frame_id: "world", pose: p)),
                    RecordedMessage(topic: "/tf/" + stream, schema: .foxglove("foxglove.FrameTransform"),
                                    message: Foxglove.FrameTransform(timestamp: .init(time), parent_frame_id: "world", child_frame_id: stream,
                                                                     translation: p.position, rotation: p.orientation),
                                    countsForStream: false)]
        }
    }
}

extension FeatureTracks: MCAPRecordable {
    /// `foxglove.ImageAnnotations`: each feature a point, young ones yellow, old ones (≥ 20
    /// frames) blue.
    public static func mcapMessages(_ batch: [FeatureTracks], stream: String, time: Timestamp, options: MCAPRecordingOptions) throws -> [RecordedMessage] {
        batch.map { tracks in
            let points = tracks.features.map { f -> (Foxglove.Point2, Foxglove.Color) in
                let a = min(1, Double(f.age) / 20)
                return (Foxglove.Point2(x: f.pixel.x, y: f.pixel.y), Foxglove.Color(r: 1 - a, g: 1 - 0.5 * a, b: a, a: 1))
            }
            let annotation = Foxglove.PointsAnnotation(timestamp: .init(time), type: 1, points: points.map(\.0), outline_color: .init(r: 1, g: 1, b: 0, a: 1),
                                                       outline_colors: points.map(\.1), fill_color: .init(r: 0, g: 0, b: 0, a: 0), thickness: 4)
            return RecordedMessage(topic: "/" + stream, schema: .foxglove("foxglove.ImageAnnotations"), message: Foxglove.ImageAnnotations(points: [annotation]))
        }
    }
}

extension TrackedObjects: MCAPRecordable {
    /// `foxglove.ImageAnnotations`: each object's box.
    public static func mcapMessages(_ batch: [TrackedObjects], stream: String, time: Timestamp, options: MCAPRecordingOptions) throws -> [RecordedMessage] {
        batch.map { objects in
            let boxes = objects.objects.map { Foxglove.PointsAnnotation.box($0.box, time: time, color: .init(r: 0.2, g: 1, b: 0.2, a: 1)) }
            return RecordedMessage(topic: "/" + stream, schema: .foxglove("foxglove.ImageAnnotations"), message: Foxglove.ImageAnnotations(points: boxes))
        }
    }
}

extension DetectedFaces: MCAPRecordable {
    /// `foxglove.ImageAnnotations`: each face's box and its landmarks.
    public static func mcapMessages(_ batch: [DetectedFaces], stream: String, time: Timestamp, options: MCAPRecordingOptions) throws -> [RecordedMessage] {
        batch.map { faces in
            var shapes: [Foxglove.PointsAnnotation] = []
            for face in faces.faces {
                shapes.append(.box(face.box, time: time, color: .init(r: 1, g: 0.4, b: 0.2, a: 1)))
                let points = face.landmarks.points.filter { $0.x.isFinite && $0.y.isFinite }.map { Foxglove.Point2(x: $0.x, y: $0.y) }
                shapes.append(Foxglove.PointsAnnotation(timestamp: .init(time), type: 1, points: points, outline_color: .init(r: 1, g: 0.4, b: 0.2, a: 1),
                                                        outline_colors: [], fill_color: .init(r: 0, g: 0, b: 0, a: 0), thickness: 3))
            }
            return RecordedMessage(topic: "/" + stream, schema: .foxglove("foxglove.ImageAnnotations"), message: Foxglove.ImageAnnotations(points: shapes))
        }
    }
}

extension Landmark: MCAPRecordable {
    public static var recordsInBatches: Bool { true }

    /// `foxglove.PointCloud` in `world`: every landmark of one stream and time in one cloud.
    public static func mcapMessages(_ batch: [Landmark], stream: String, time: Timestamp, options: MCAPRecordingOptions) throws -> [RecordedMessage] {
        guard !batch.isEmpty else { return [] }
        return [RecordedMessage(topic: "/" + stream, schema: .foxglove("foxglove.PointCloud"),
                                message: Foxglove.PointCloud(timestamp: .init(time), frame_id: "world", points: batch.map(\.position)))]
    }
}

extension PointCloud: MCAPRecordable {
    /// `foxglove.PointCloud` in the cloud's camera frame.
    public static func mcapMessages(_ batch: [PointCloud], stream: String, time: Timestamp, options: MCAPRecordingOptions) throws -> [RecordedMessage] {
        batch.map { cloud in
            RecordedMessage(topic: "/" + stream, schema: .foxglove("foxglove.PointCloud"),
                            message: Foxglove.PointCloud(timestamp: .init(time), frame_id: cloud.camera,
                                                         points: cloud.points.map { Vector3(Double($0.x), Double($0.y), Double($0.z)) }))
        }
    }
}
