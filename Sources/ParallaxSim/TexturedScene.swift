import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath

/// A scene of textured rectangles, ray-cast into camera images with exact per-pixel depth.
///
/// Each rectangle spans `origin + α·edgeU + β·edgeV`, α, β ∈ [0, 1], with a gray texture
/// stretched over it (α → texture x, β → texture y, bilinear). Rendering casts one ray per
/// pixel through the camera model (distortion included), so depth is exact: the distance along
/// the optical axis to the nearest rectangle.
public struct TexturedScene: Sendable {
    /// One textured rectangle; the texture repeats `tiles` times along each edge (mirrored at
    /// every other tile so the seams stay continuous).
    public struct Rectangle: Sendable {
        public var origin: Vector3
        public var edgeU: Vector3
        public var edgeV: Vector3
        public var texture: ImageBuffer<UInt8>
        public var tiles: (u: Double, v: Double)
        public init(origin: Vector3, edgeU: Vector3, edgeV: Vector3, texture: ImageBuffer<UInt8>, tiles: (u: Double, v: Double) = (1, 1)) {
            self.origin = origin; self.edgeU = edgeU; self.edgeV = edgeV; self.texture = texture; self.tiles = tiles
        }
        /// Unit normal `edgeU × edgeV`.
        public var normal: Vector3 { edgeU.cross(edgeV).normalized }
        /// The 4 corners (world, m).
        public var corners: [Vector3] { [origin, origin + edgeU, origin + edgeU + edgeV, origin + edgeV] }
    }

    public var rectangles: [Rectangle]

    public init(rectangles: [Rectangle]) { self.rectangles = rectangles }

    /// The inside of an axis-aligned box (floor, ceiling, four walls), textured with `textures`
    /// in turn: a room around a trajectory.
    /// Each texture copy covers about `tileSize` metres (default 1.5 m): photos keep their
    /// detail instead of being stretched over a whole wall.
    public static func room(min lo: Vector3, max hi: Vector3, textures: [ImageBuffer<UInt8>], tileSize: Double = 1.5) -> TexturedScene {
        precondition(!textures.isEmpty, "room needs at least one texture")
        let d = hi - lo
        let faces: [(Vector3, Vector3, Vector3)] = [
            (lo, Vector3(d.x, 0, 0), Vector3(0, d.y, 0)),                                  // floor
            (Vector3(lo.x, lo.y, hi.z), Vector3(0, d.y, 0), Vector3(d.x, 0, 0)),            // ceiling
            (lo, Vector3(0, 0, d.z), Vector3(d.x, 0, 0)),                                  // wall y = lo
            (Vector3(lo.x, hi.y, lo.z), Vector3(d.x, 0, 0), Vector3(0, 0, d.z)),            // wall y = hi
            (lo, Vector3(0, d.y, 0), Vector3(0, 0, d.z)),                                  // wall x = lo
            (Vector3(hi.x, lo.y, lo.z), Vector3(0, 0, d.z), Vector3(0, d.y, 0)),            // wall x = hi
        ]
        return TexturedScene(rectangles: faces.enumerated().map { i, f in
            Rectangle(origin: f.0, edgeU: f.1, edgeV: f.2, texture: textures[i % textures.count],
                      tiles: (max(1, (f.1.norm / tileSize).rounded()), max(1, (f.2.norm / tileSize).rounded())))
        })
    }

    /// Ground-truth 3D points of the scene's corners (world, m): every rectangle's corners (where
    /// walls, floor and ceiling meet) and its tile-grid points (the texture's mirror seams),
    /// without duplicates. Project them with the ground-truth poses to get their pixels.
    public var cornerPoints: [Vector3] {
        var seen = Set<SIMD3<Int64>>()
        var out: [Vector3] = []
        for r in rectangles {
            let nu = Int(r.tiles.u.rounded()), nv = Int(r.tiles.v.rounded())
            for i in 0...max(nu, 1) {
                for j in 0...max(nv, 1) {
                    let p = r.origin + r.edgeU * (Double(i) / Double(max(nu, 1))) + r.edgeV * (Double(j) / Double(max(nv, 1)))
                    let key = SIMD3<Int64>(Int64((p.x * 1e6).rounded()), Int64((p.y * 1e6).rounded()), Int64((p.z * 1e6).rounded()))
                    if seen.insert(key).inserted { out.append(p) }
                }
            }
        }
        return out
    }

    /// Unit bearings of every pixel of `camera` (row-major), computed once per camera.
    public static func bearings(for camera: CameraModel) throws -> [Vector3] {
        var out: [Vector3] = []
        out.reserveCapacity(camera.width * camera.height)
        for y in 0..<camera.height { for x in 0..<camera.width { out.append(try camera.unproject(Vector2(Double(x), Double(y)))) } }
        return out
    }

    /// The nearest hit of the ray `origin + t·direction` (t > 0): distance t, rectangle index, (α, β).
    public func intersect(origin c: Vector3, direction d: Vector3) -> (t: Double, index: Int, alpha: Double, beta: Double)? {
        var best: (Double, Int, Double, Double)?
        for (i, r) in rectangles.enumerated() {
            let n = r.edgeU.cross(r.edgeV)
            let denom = n.dot(d)
            guard abs(denom) > 1e-15 else { continue }
            let t = n.dot(r.origin - c) / denom
            guard t > 1e-9, best == nil || t < best!.0 else { continue }
            let x = c + t * d - r.origin
            let a = x.dot(r.edgeU) / r.edgeU.squaredNorm, b = x.dot(r.edgeV) / r.edgeV.squaredNorm
            guard a >= 0, a <= 1, b >= 0, b <= 1 else { continue }
            best = (t, i, a, b)
        }
        return best.map { (t: $0.0, index: $0.1, alpha: $0.2, beta: $0.3) }
    }

    /// Renders gray image and depth (m along the optical axis, NaN where nothing is hit) seen
    /// by a camera at `worldFromCamera`. `bearings` from ``bearings(for:)``.
    public func render(camera: CameraModel, bearings: [Vector3], worldFromCamera: SE3) -> (image: ImageBuffer<UInt8>, depth: ImageBuffer<Float>) {
        var pixels = [UInt8](repeating: 0, count: camera.width * camera.height)
        var depth = [Float](repeating: .nan, count: camera.width * camera.height)
        let c = worldFromCamera.translation
        let r = worldFromCamera.rotation.matrix
        for k in pixels.indices {
            let b = bearings[k]
            guard let hit = intersect(origin: c, direction: r * b) else { continue }
            depth[k] = Float(hit.t * b.z)
            pixels[k] = shade(hit)
        }
        return (ImageBuffer(width: camera.width, height: camera.height, samples: pixels),
                ImageBuffer(width: camera.width, height: camera.height, samples: depth))
    }

    /// Paints this scene's surfaces over `base` (a rendering of what lies behind them, from the
    /// same camera pose) inside the pixel rectangle `columns × rows`: a pixel whose ray hits one
    /// of these surfaces takes its texture, any other keeps `base`'s value. Gives the full
    /// render's values wherever these surfaces are in front of `base`'s, at the cost of the
    /// rectangle only: what a still camera watching a moving object needs per frame.
    public func paint(over base: ImageBuffer<UInt8>, columns: Range<Int>, rows: Range<Int>, camera: CameraModel, bearings: [Vector3],
                      worldFromCamera: SE3) -> ImageBuffer<UInt8> {
        var pixels = base.samples
        let c = worldFromCamera.translation
        let r = worldFromCamera.rotation.matrix
        func clamped(_ r: Range<Int>, _ n: Int) -> Range<Int> {
            let lo = min(max(0, r.lowerBound), n)
            return lo..<max(lo, min(n, r.upperBound))
        }
        let xs = clamped(columns, camera.width), ys = clamped(rows, camera.height)
        guard !xs.isEmpty, !ys.isEmpty, base.width == camera.width, base.height == camera.height else { return base }
        for y in ys {
            for x in xs {
                let k = y * camera.width + x
                guard let hit = intersect(origin: c, direction: r * bearings[k]) else { continue }
                pixels[k] = shade(hit)
            }
        }
        return ImageBuffer(width: base.width, height: base.height, samples: pixels)
    }

    /// The gray level where a ray hit: the texture of the hit rectangle at (α, β), tiled.
    private func shade(_ hit: (t: Double, index: Int, alpha: Double, beta: Double)) -> UInt8 {
        let rect = rectangles[hit.index]
        let tex = rect.texture
        return Self.sample(tex, x: Self.mirrored(hit.alpha * rect.tiles.u) * Double(tex.width - 1),
                           y: Self.mirrored(hit.beta * rect.tiles.v) * Double(tex.height - 1))
    }

    /// Position within a mirrored tile: 0→1 on even tiles, 1→0 on odd ones.
    static func mirrored(_ s: Double) -> Double {
        let tile = s.rounded(.down)
        let f = s - tile
        return Int(tile) % 2 == 0 ? f : 1 - f
    }

    /// Bilinear texture lookup, rounded to the nearest gray level.
    static func sample(_ t: ImageBuffer<UInt8>, x: Double, y: Double) -> UInt8 {
        let x0 = min(Int(x), t.width - 1), y0 = min(Int(y), t.height - 1)
        let x1 = min(x0 + 1, t.width - 1), y1 = min(y0 + 1, t.height - 1)
        let fx = x - Double(x0), fy = y - Double(y0)
        let v = (Double(t[x0, y0]) * (1 - fx) + Double(t[x1, y0]) * fx) * (1 - fy) + (Double(t[x0, y1]) * (1 - fx) + Double(t[x1, y1]) * fx) * fy
        return UInt8(min(255, max(0, v.rounded())))
    }
}
