import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath

/// A textured object (a rectangle carrying a real photo) moving and turning in front of a
/// still camera that looks into a textured room, as ``motion`` says (with ``ObjectMotion/occlusion``
/// a second textured object passes in front of it): camera frames, the object's ground-truth
/// box per frame (the projection of its outline, clipped to the image) and how much of it is
/// visible, deterministic by seed.
public struct ObjectSimulator: Sendable {
    public var background: TexturedScene
    public var camera: CameraCalibration
    /// Object size (m) and texture.
    public var size = Vector2(0.4, 0.3)
    public var texture: ImageBuffer<UInt8>
    /// The texture of ``ObjectMotion/occlusion``'s occluder (default: the object's, mirrored,
    /// so it looks alike without being the same pattern: the hardest case for a tracker).
    public var occluderTexture: ImageBuffer<UInt8>
    public var motion: ObjectMotion
    /// Frame rate (Hz).
    public var rateHz = 30.0
    /// Gaussian pixel noise σ (gray levels).
    public var pixelNoise = 2.0

    public init(background: TexturedScene, camera: CameraCalibration, texture: ImageBuffer<UInt8>, motion: ObjectMotion = .sweep,
                occluderTexture: ImageBuffer<UInt8>? = nil) {
        self.background = background
        self.camera = camera
        self.texture = texture
        self.motion = motion
        self.occluderTexture = occluderTexture ?? Self.mirrored(texture)
    }

    /// One simulated frame: the image, the ground-truth box (nil when the object is out of
    /// view) and the share of the object that is visible (0: out of view or fully covered).
    public struct Frame: Sendable {
        public var timestamp: Timestamp
        public var image: ImageBuffer<UInt8>
        public var box: BoundingBox?
        public var visibleFraction: Double
        /// `T_CO`: the object's frame (origin at its centre, x right, y down along its texture,
        /// z away from the camera) to the camera's.
        public var pose: SE3

        /// The box a benchmark's ground truth gives: ``box`` while any of the object is visible
        /// (partly covered or partly outside: the whole object's box, clipped to the image, as
        /// OTB annotates), `nil` while it is fully hidden.
        public var truthBox: BoundingBox? { visibleFraction > 0 ? box : nil }
    }

    /// The object's four corners in the camera frame at `t`.
    public func corners(at t: Double) -> [Vector3] {
        let pose = motion.objectPose(at: t)
        let hx = size.x / 2, hy = size.y / 2
        return [Vector3(-hx, -hy, 0), Vector3(hx, -hy, 0), Vector3(hx, hy, 0), Vector3(-hx, hy, 0)].map { pose * $0 }
    }

    /// The occluder's corners in the camera frame at `t` (facing the camera), if there is one.
    public func occluderCorners(at t: Double) -> [Vector3]? {
        guard let c = motion.occluderCenter(at: t) else { return nil }
        let hx = ObjectMotion.occluderSize.x / 2, hy = ObjectMotion.occluderSize.y / 2
        return [Vector3(c.x - hx, c.y - hy, c.z), Vector3(c.x + hx, c.y - hy, c.z), Vector3(c.x + hx, c.y + hy, c.z), Vector3(c.x - hx, c.y + hy, c.z)]
    }

    /// The share of the object visible at `t` (``visibleFraction(of:camera:occluder:)``).
    public func visibleFraction(at t: Double) -> Double {
        Self.visibleFraction(of: corners(at: t), camera: camera.model, occluder: occluderCorners(at: t))
    }

    /// The share of the rectangle with corners `c` (camera frame, m, in order) that is visible:
    /// of 12 × 9 points spread over its face, those that project into `camera`'s image and are
    /// not behind `occluder` (a camera-facing rectangle, corners in order).
    public static func visibleFraction(of c: [Vector3], camera: CameraModel, occluder: [Vector3]? = nil) -> Double {
        let u = c[1] - c[0], v = c[3] - c[0]
        var visible = 0, total = 0
        for i in 0..<12 {
            for j in 0..<9 {
                let p = c[0] + u * ((Double(i) + 0.5) / 12) + v * ((Double(j) + 0.5) / 9)
                total += 1
                guard let pixel = camera.project(p), pixel.x >= -0.5, pixel.y >= -0.5,
                      pixel.x <= Double(camera.width) - 0.5, pixel.y <= Double(camera.height) - 0.5 else { continue }
                if let o = occluder, ray(to: p, hits: o) { continue }
                visible += 1
            }
        }
        return Double(visible) / Double(total)
    }

    /// Whether the segment from the camera centre to `p` crosses the camera-facing rectangle
    /// `r` (corners at one depth, in order) before reaching `p`.
    static func ray(to p: Vector3, hits r: [Vector3]) -> Bool {
        let z = r[0].z
        guard p.z > z, z > 0 else { return false }
        let q = p * (z / p.z)
        return q.x >= r[0].x && q.x <= r[1].x && q.y >= r[0].y && q.y <= r[2].y
    }

    /// The camera's pose in the room: at the room's origin, 1.5 m up, looking along +x (world).
    static let worldFromCamera = SE3(rotation: SO3(Matrix3(rows: Vector3(0, 0, 1), Vector3(-1, 0, 0), Vector3(0, -1, 0))), translation: Vector3(0, 0, 1.5))

    /// A camera-frame rectangle (corners in order) as a surface of the room.
    func surface(_ c: [Vector3], texture: ImageBuffer<UInt8>) -> TexturedScene.Rectangle {
        let w = Self.worldFromCamera
        return .init(origin: w * c[0], edgeU: w.rotation * (c[1] - c[0]), edgeV: w.rotation * (c[3] - c[0]), texture: texture)
    }

    /// Points along the four edges of the rectangle `c` (16 per edge): straight edges bow under
    /// distortion, so corners alone do not bound their projection.
    static func outline(_ c: [Vector3]) -> [Vector3] {
        var points: [Vector3] = []
        for e in 0..<4 {
            let edge: Vector3 = c[(e + 1) % 4] - c[e]
            for s in 0..<16 { points.append(c[e] + edge * (Double(s) / 16)) }
        }
        return points
    }

    /// Frame `k` (at k / ``rateHz`` s) over `room` (the background rendered once: the camera is
    /// still); `rng` adds the pixel noise. Only the pixels around the object and the occluder
    /// are ray cast again, which gives the full render's values (both are in front of the room).
    public func frame(_ k: Int, room: ImageBuffer<UInt8>, bearings: [Vector3], using rng: inout SeededGenerator) -> Frame {
        let t = Double(k) / rateHz
        let (w, h) = (camera.model.width, camera.model.height)
        let c = corners(at: t)
        var movers = TexturedScene(rectangles: [surface(c, texture: texture)])
        let objectOutline = Self.outline(c)
        let objectPixels = objectOutline.compactMap { camera.model.project($0) }
        var projected = objectPixels, everyPointProjects = objectPixels.count == objectOutline.count
        if let o = occluderCorners(at: t) {
            movers.rectangles.append(surface(o, texture: occluderTexture))
            let outline = Self.outline(o)
            let pixels = outline.compactMap { camera.model.project($0) }
            projected += pixels
            everyPointProjects = everyPointProjects && pixels.count == outline.count
        }
        let columns: Range<Int>, rows: Range<Int>
        if everyPointProjects {
            // The movers' pixels: their projected outlines' bounds in the image, two pixels wider.
            let bounds = BoundingBox.enclosing(projected, clippedTo: w, h)
            columns = bounds.map { Int(($0.x - 2).rounded(.down))..<Int(($0.x + $0.width + 3).rounded(.up)) } ?? 0..<0
            rows = bounds.map { Int(($0.y - 2).rounded(.down))..<Int(($0.y + $0.height + 3).rounded(.up)) } ?? 0..<0
        } else {
            // A point behind the camera: no bounds to trust, every pixel.
            (columns, rows) = (0..<w, 0..<h)
        }
        let painted = movers.paint(over: room, columns: columns, rows: rows, camera: camera.model, bearings: bearings, worldFromCamera: Self.worldFromCamera)
        let image = PixelNoise.add(to: painted, sigma: pixelNoise, using: &rng)
        let box = objectPixels.count == objectOutline.count ? BoundingBox.enclosing(objectPixels, clippedTo: w, h) : nil
        return Frame(timestamp: Timestamp(seconds: t), image: image, box: box, visibleFraction: visibleFraction(at: t), pose: motion.objectPose(at: t))
    }

    /// Every frame of `duration` s.
    public func frames(duration: Double, seed: UInt64) throws -> [Frame] {
        var rng = SeededGenerator(seed: seed)
        let bearings = try TexturedScene.bearings(for: camera.model)
        let room = background.render(camera: camera.model, bearings: bearings, worldFromCamera: Self.worldFromCamera).image
        return (0..<(Int((duration * rateHz).rounded(.down)) + 1)).map { frame($0, room: room, bearings: bearings, using: &rng) }
    }

    /// `image` mirrored left to right.
    static func mirrored(_ image: ImageBuffer<UInt8>) -> ImageBuffer<UInt8> {
        var samples = image.samples
        for y in 0..<image.height {
            for x in 0..<image.width { samples[y * image.width + x] = image.samples[y * image.width + image.width - 1 - x] }
        }
        return ImageBuffer(width: image.width, height: image.height, samples: samples)
    }
}
