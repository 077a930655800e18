import ParallaxMath
import ParallaxGeometry

/// A depth map seen from another camera (a Kinect's depth registered to its colour camera,
/// AVDepthData's depth in the colour camera's frame): each valid depth pixel becomes its 3D
/// point, is moved into the other camera by the extrinsics and projected there (lens model
/// included); the nearest point wins where several land on one pixel (a z-buffer: what is
/// hidden from the target camera stays hidden). Target pixels no point lands on are invalid
/// (NaN): registration never invents depth, the hole filler of `depth-filter` may.
public enum DepthRegistration {
    /// The depth (m, along the target's optical axis, row-major `target.width × target.height`)
    /// of `depth` (m, row-major, the size of `rays`), with `targetFromSource` = T_TS.
    public static func register(_ depth: [Float], rays: DepthRays, into target: CameraModel, targetFromSource: SE3) -> [Float] {
        let w = target.width, h = target.height
        var out = [Float](repeating: .infinity, count: max(0, w) * max(0, h))
        guard depth.count == rays.width * rays.height, w > 0, h > 0 else { return out.map { _ in .nan } }
        for i in depth.indices {
            guard let p = rays.point(at: i, depth: depth[i]) else { continue }
            let q = targetFromSource * Vector3(Double(p.x), Double(p.y), Double(p.z))
            guard q.z > 0, let pixel = target.project(q) else { continue }
            let u = Int(pixel.x.rounded()), v = Int(pixel.y.rounded())
            guard u >= 0, v >= 0, u < w, v < h else { continue }
            let z = Float(q.z)
            if z < out[v * w + u] { out[v * w + u] = z }
        }
        return out.map { $0.isFinite ? $0 : .nan }
    }
}
