import Foundation
import ParallaxGeometry
import ParallaxMath

/// The pose of a known plane — a picture, a marker, a card — from its points' pixels:
/// `T_CP` (plane to camera), the plane's points on `z = 0` of its own frame (m).
///
/// The start needs no guess: the homography from the plane's metres to the undistorted
/// normalized image points (direct linear transform, Hartley-normalized) is `λ·[r₁ r₂ t]`;
/// `λ` is fixed by the unit length of `r₁`, `r₂` and its sign by the plane lying in front of the
/// camera (`t_z > 0`), `r₃ = r₁ × r₂`, and the rotation is the nearest proper one. That start is
/// unique — unlike PnP's near-planar case there is no mirrored start to pick from, so the
/// mirrored pose (the plane tilted the other way, which explains distant noisy corners almost
/// as well) cannot be returned unless the pixels themselves favour it from this start. It is
/// then refined by Levenberg–Marquardt on the Huber-weighted reprojection error in pixels,
/// lens distortion included (``PerspectivePoints``' refinement).
public enum PlanarPose {
    /// `T_CP` from `plane` points (m, on z = 0) and their `pixels` in `camera`; ≥ 4 points, not
    /// three on a line. `huber` is the Huber threshold (px).
    public static func solve(plane: [Vector2], pixels: [Vector2], camera: CameraModel, huber: Double = 2) throws -> PerspectivePoints.Solution {
        guard plane.count == pixels.count else { throw PerspectivePoints.SolveError.countMismatch(model: plane.count, pixels: pixels.count) }
        guard plane.count >= 4 else { throw PerspectivePoints.SolveError.degenerate("a plane's pose needs at least 4 points, got \(plane.count)") }
        for i in plane.indices where !(plane[i].x.isFinite && plane[i].y.isFinite && pixels[i].x.isFinite && pixels[i].y.isFinite) {
            throw PerspectivePoints.SolveError.notFinite(index: i)
        }
        let normalized = try pixels.map { try camera.normalized($0) }
        let start = try homographyStart(plane: plane, normalized: normalized)
        let model = plane.map { Vector3($0.x, $0.y, 0) }
        let focal = Vector2(camera.intrinsics.fx, camera.intrinsics.fy)
        let refined = try PerspectivePoints.refine(start, model: model, normalized: normalized, focal: focal, huber: huber,
                                                    prior: [Double](repeating: 1, count: model.count))
        return PerspectivePoints.Solution(cameraFromModel: refined.pose, rmsPixels: PerspectivePoints.rmsPixels(refined.pose, model: model, pixels: pixels, camera: camera),
                                          fromMirroredStart: false)
    }

    /// The pose the homography `plane → normalized` gives (see the type's summary).
    static func homographyStart(plane: [Vector2], normalized: [Vector2]) throws -> SE3 {
        guard let h = Homography.directLinearTransform(plane, normalized) else {
            throw PerspectivePoints.SolveError.degenerate("the points do not determine a homography (three on a line?)")
        }
        let c0 = Vector3(h[0, 0], h[1, 0], h[2, 0]), c1 = Vector3(h[0, 1], h[1, 1], h[2, 1]), c2 = Vector3(h[0, 2], h[1, 2], h[2, 2])
        let scale = (c0.norm * c1.norm).squareRoot()
        guard scale > 0, scale.isFinite else { throw PerspectivePoints.SolveError.degenerate("the homography has no rotation") }
        // In front: the plane's origin at positive depth.
        let sign: Double = c2.z >= 0 ? 1 : -1
        let r1 = c0 * (sign / scale), r2 = c1 * (sign / scale), t = c2 * (sign / scale)
        let block = Matrix3(columns: r1, r2, r1.cross(r2))
        guard let rotation = try? SO3(orthonormalizing: block) else { throw PerspectivePoints.SolveError.degenerate("the homography has no rotation") }
        return SE3(rotation: rotation, translation: t)
    }
}
