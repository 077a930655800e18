import Foundation
import ParallaxCore
import ParallaxGeometry
import ParallaxMath

/// A textured object (a rectangle carrying a real photo) moving and turning in front of a
/// still camera that looks into a textured room: camera frames and the object's ground-truth
/// box per frame (the projection of its corners, clipped to the image), deterministic by seed.
public struct ObjectSimulator: Sendable {
    public var background: TexturedScene
    public var camera: CameraCalibration
    /// Object size (m) and texture.
    public var size = Vector2(0.4, 0.3)
    public var texture: ImageBuffer<UInt8>
    public var rateHz = 30.0
    public var pixelNoise = 2.0

    public init(background: TexturedScene, camera: CameraCalibration, texture: ImageBuffer<UInt8>) {
        self.background = background
        self.camera = camera
        self.texture = texture
    }

    /// Object pose in the camera frame at `t` (s): 1.5–2.5 m away, sweeping across the view,
    /// turning about its vertical axis. Object frame: x right, y down, z away from the camera.
    public static func objectPose(at t: Double) -> SE3 {
        SE3(rotation: .exp(Vector3(0.15 * sin(0.8 * t), 0.5 * sin(0.5 * t), 0.1 * sin(0.3 * t))),
            translation: Vector3(0.6 * sin(0.4 * t), 0.2 * sin(0.7 * t), 2 + 0.5 * sin(0.25 * t)))
    }

    /// The object's four corners in the camera frame at `t`.
    public func corners(at t: Double) -> [Vector3] {
        let pose = Self.objectPose(at: t)
        let hx = size.x / 2, hy = size.y / 2
        return [Vector3(-hx, -hy, 0), Vector3(hx, -hy, 0), Vector3(hx, hy, 0), Vector3(-hx, hy, 0)].map { pose * $0 }
    }

    /// The streams ``packets(duration:seed:)`` produces, with the camera as metadata.
    public var streams: [StreamDescription] {
        [StreamDescription(StreamKey<CameraFrame>("cam0"), metadata: StreamMetadata(camera: camera)),
         StreamDescription(StreamKey<BoundingBox>("object0/box"), metadata: StreamMetadata(camera: camera))]
    }

    /// Frames (`cam0`) and ground-truth boxes (`object0/box`) for `duration` s. The camera sits
    /// at the room's origin looking along +x (world); boxes are omitted when the object is out
    /// of view.
    public func packets(duration: Double, seed: UInt64) throws -> [AnyPacket] {
        var rng = SeededGenerator(seed: seed)
        let bearings = try TexturedScene.bearings(for: camera.model)
        let worldFromCamera = SE3(rotation: SO3(Matrix3(rows: Vector3(0, 0, 1), Vector3(-1, 0, 0), Vector3(0, -1, 0))), translation: Vector3(0, 0, 1.5))
        var out: [AnyPacket] = []
        for k in 0..<(Int((duration * rateHz).rounded(.down)) + 1) {
            let t = Double(k) / rateHz
            let stamp = Timestamp(seconds: t)
            let c = corners(at: t)
            var scene = background
            scene.rectangles.append(.init(origin: worldFromCamera * c[0], edgeU: worldFromCamera.rotation * (c[1] - c[0]),
                                          edgeV: worldFromCamera.rotation * (c[3] - c[0]), texture: texture))
            let rendered = scene.render(camera: camera.model, bearings: bearings, worldFromCamera: worldFromCamera).image
            let image = PixelNoise.add(to: rendered, sigma: pixelNoise, using: &rng)
            out.append(AnyPacket(stream: "cam0", timestamp: stamp, payload: CameraFrame(cameraID: "cam0", image: image)))
            // Corners project exactly (pinhole + distortion); straight edges bow under distortion,
            // so the box also includes points along the edges.
            var outline: [Vector3] = []
            for e in 0..<4 {
                let a = c[e], edge = c[(e + 1) % 4] - c[e]
                for s in 0..<16 { outline.append(a + edge * (Double(s) / 16)) }
            }
            let pixels = outline.compactMap { camera.model.project($0) }
            if pixels.count == outline.count, let box = BoundingBox.enclosing(pixels, clippedTo: camera.model.width, camera.model.height) {
                out.append(AnyPacket(stream: "object0/box", timestamp: stamp, payload: box))
            }
        }
        return out
    }
}
