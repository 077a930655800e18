import ParallaxImage
import ParallaxMath

/// A picture as a homography shows it in a frame: the frame-sized image whose pixel `x` is the
/// picture's at `H⁻¹ x` (bilinear), and `fill` where the picture is not — computed only over
/// the bounding box of the picture's corners in the frame.
public enum HomographyWarp {
    /// `picture` seen through `h` (picture pixels → frame pixels) in a `width × height` frame;
    /// nil when `h` is singular.
    public static func warp(_ picture: GrayImage, by h: Matrix3, width: Int, height: Int, fill: Float = 0) -> GrayImage? {
        guard let inverse = h.inverse else { return nil }
        var out = GrayImage(width: width, height: height, value: fill)
        let w = Double(picture.width), hh = Double(picture.height)
        let corners = [Vector2(-0.5, -0.5), Vector2(w - 0.5, -0.5), Vector2(w - 0.5, hh - 0.5), Vector2(-0.5, hh - 0.5)].compactMap { h.transferring($0) }
        guard corners.count == 4, corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return out }
        let x0 = max(0, Int((corners.map(\.x).min() ?? 0).rounded(.down)) - 1), x1 = min(width - 1, Int((corners.map(\.x).max() ?? 0).rounded(.up)) + 1)
        let y0 = max(0, Int((corners.map(\.y).min() ?? 0).rounded(.down)) - 1), y1 = min(height - 1, Int((corners.map(\.y).max() ?? 0).rounded(.up)) + 1)
        guard x0 <= x1, y0 <= y1 else { return out }
        let maxX = Float(picture.width - 1), maxY = Float(picture.height - 1)
        for y in y0...y1 {
            for x in x0...x1 {
                let v = inverse * Vector3(Double(x), Double(y), 1)
                guard v.z != 0 else { continue }
                let u = Float(v.x / v.z), t = Float(v.y / v.z)
                guard u >= 0, t >= 0, u < maxX, t < maxY else { continue }
                out.pixels[y * width + x] = picture.bilinear(u, t)
            }
        }
        return out
    }
}
