import Foundation
import TestSupport
import ParallaxCodecs
import ParallaxImage
import ParallaxMath
import ParallaxVision

/// The bundled TUM RGB-D office frame (640×480), as gray: real texture at many scales.
public let officeImage: GrayImage = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let path = root.appendingPathComponent("datasets/tum_rgbd_frame/rgb/1341847980.722988.png").path
    return GrayImage(try! ImageDecoder.decodeGray8(path: path))
}()

/// `image` seen through `h` (content at `p` moves to `h·p`), bilinear, gray 0 outside.
public func warp(_ image: GrayImage, _ h: Matrix3) -> GrayImage {
    let inverse = h.inverse!
    var out = GrayImage(width: image.width, height: image.height)
    for y in 0..<image.height {
        for x in 0..<image.width {
            guard let p = inverse.transferring(Vector2(Double(x), Double(y))),
                  p.x >= 0, p.y >= 0, p.x < Double(image.width - 1), p.y < Double(image.height - 1) else { continue }
            out[x, y] = image.bilinear(Float(p.x), Float(p.y))
        }
    }
    return out
}

/// Rotation by `angle` and zoom by `scale` about the image centre, plus a little perspective.
public func zoomAndRotate(scale: Double, angle: Double, perspective: Double = 0) -> Matrix3 {
    let c = Vector2(320, 240)
    let toCentre = Matrix3(rows: Vector3(1, 0, -c.x), Vector3(0, 1, -c.y), Vector3(0, 0, 1))
    let back = Matrix3(rows: Vector3(1, 0, c.x), Vector3(0, 1, c.y), Vector3(0, 0, 1))
    let r = Matrix3(rows: Vector3(scale * cos(angle), -scale * sin(angle), 0), Vector3(scale * sin(angle), scale * cos(angle), 0),
                    Vector3(perspective, 0, 1))
    return back * r * toCentre
}

/// Largest distance between `estimated · p` and `truth · p` over a 10 px grid of the 640×480
/// first image (or the box `within`), for the points the truth maps into the second image (px).
public func overlapError(_ estimated: Matrix3, _ truth: Matrix3, within box: (Vector2, Vector2) = (Vector2(0, 0), Vector2(639, 479))) -> Double {
    var worst = 0.0
    for y in stride(from: box.0.y, through: box.1.y, by: 10) {
        for x in stride(from: box.0.x, through: box.1.x, by: 10) {
            guard let t = truth.transferring(Vector2(x, y)), t.x >= 0, t.y >= 0, t.x <= 639, t.y <= 479 else { continue }
            worst = max(worst, Homography.transferError(estimated, Vector2(x, y), t))
        }
    }
    return worst
}
