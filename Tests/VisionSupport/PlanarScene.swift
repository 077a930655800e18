import Foundation
import ParallaxCodecs
import ParallaxGeometry
import ParallaxImage
import ParallaxMath

/// A picture on a plane seen by a pinhole camera: frames rendered by ray casting (the picture
/// sampled bilinearly, a seeded noise background elsewhere), with the true pose of each.
public struct PlanarScene {
    public let picture: GrayImage
    public let width: Double
    public let camera: CameraModel
    public var height: Double { width * Double(picture.height) / Double(picture.width) }

    /// A `width`-metre wide `picture` on the plane z = 0, seen by `camera`.
    public init(picture: GrayImage, width: Double, camera: CameraModel) {
        self.picture = picture
        self.width = width
        self.camera = camera
    }

    public static let camera = CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 500, fy: 500, cx: 319.5, cy: 239.5))

    /// The bundled TUM frame (640×480) halved: a real, textured picture.
    public static func picture() throws -> GrayImage {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let image = try ImageDecoder.decodeGray8(path: root.appendingPathComponent("datasets/tum_rgbd_frame/rgb/1341847980.722988.png").path)
        let gray = GrayImage(image)
        var half = [Float](repeating: 0, count: 320 * 240)
        for y in 0..<240 { for x in 0..<320 {
            half[y * 320 + x] = (gray[2 * x, 2 * y] + gray[2 * x + 1, 2 * y] + gray[2 * x, 2 * y + 1] + gray[2 * x + 1, 2 * y + 1]) / 4
        } }
        return GrayImage(width: 320, height: 240, pixels: half)
    }

    /// The frame seen from `pose` (`T_CI`).
    public func render(_ pose: SE3, seed: UInt64 = 7) -> ImageBuffer<UInt8> {
        let inverse = pose.inverse
        var out = [UInt8](repeating: 0, count: camera.width * camera.height)
        var state = seed
        for y in 0..<camera.height {
            for x in 0..<camera.width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                var value = Float(60 + Int(state >> 58) * 2)
                let ray = inverse.rotation * Vector3((Double(x) - camera.intrinsics.cx) / camera.intrinsics.fx, (Double(y) - camera.intrinsics.cy) / camera.intrinsics.fy, 1)
                let origin = inverse.translation
                if abs(ray.z) > 1e-9 {
                    let s = -origin.z / ray.z
                    if s > 0 {
                        let p = origin + s * ray
                        let u = (p.x / width + 0.5) * Double(picture.width) - 0.5, v = (p.y / height + 0.5) * Double(picture.height) - 0.5
                        if u >= 0, v >= 0, u < Double(picture.width - 1), v < Double(picture.height - 1) {
                            let x0 = Int(u), y0 = Int(v), fx = Float(u - Double(x0)), fy = Float(v - Double(y0))
                            let a = picture[x0, y0], b = picture[x0 + 1, y0], c = picture[x0, y0 + 1], d = picture[x0 + 1, y0 + 1]
                            value = (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
                        }
                    }
                }
                out[y * camera.width + x] = UInt8(max(0, min(255, value.rounded())))
            }
        }
        return ImageBuffer(width: camera.width, height: camera.height, samples: out)
    }

    /// The picture's corners in the frame seen from `pose`.
    public func corners(_ pose: SE3) -> [Vector2] {
        let w = width / 2, h = height / 2
        return [Vector3(-w, -h, 0), Vector3(w, -h, 0), Vector3(w, h, 0), Vector3(-w, h, 0)].compactMap { camera.project(pose * $0) }
    }

    /// A picture facing the camera at `distance`, turned by `tilt` (rad) about its vertical axis
    /// and `roll` about the view axis, shifted by `shift` (m).
    public static func pose(distance: Double, tilt: Double = 0, roll: Double = 0, shift: Vector2 = .zero) -> SE3 {
        SE3(rotation: SO3.exp(Vector3(0, 0, roll)) * SO3.exp(Vector3(0, tilt, 0)), translation: Vector3(shift.x, shift.y, distance))
    }
}
