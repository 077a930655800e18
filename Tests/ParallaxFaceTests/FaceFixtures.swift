import ParallaxFace
import ParallaxGeometry
import ParallaxMath

/// A 640 × 480 camera with a 600 px focal length, and faces posed in front of it.
enum FaceFixtures {
    static let camera = CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 600, fy: 600, cx: 319.5, cy: 239.5))

    /// `T_CH` of a head at `distance` m, at (`x`, `y`) m off the optical axis, turned by the angles.
    static func pose(_ angles: HeadAngles, x: Double = 0.03, y: Double = -0.02, distance: Double = 0.6) -> SE3 {
        SE3(rotation: angles.cameraFromHead, translation: Vector3(x, y, distance))
    }

    /// The model's points seen from `pose`, with Gaussian `noise` (px).
    static func pixels(_ model: FaceModel, _ pose: SE3, camera: CameraModel = camera, noise: Double = 0, seed: UInt64 = 1) -> [Vector2] {
        var rng = SeededGenerator(seed: seed)
        return model.points.map { p in
            let px = camera.project(pose * p) ?? Vector2(.nan, .nan)
            return px + noise * Vector2(rng.nextGaussian(), rng.nextGaussian())
        }
    }

    /// The model's points seen from `pose` as a landmark detector places them: those the head
    /// hides (``FaceModel/visibility(cameraFromHead:)`` ≤ 0) moved across to the face's visible
    /// outline at their height, the extreme x of the canonical mesh's visible vertices within
    /// ±4 px of it on the side the point lies.
    static func outlinePixels(_ model: FaceModel, _ pose: SE3, camera: CameraModel = camera) throws -> [Vector2] {
        let exact = pixels(model, pose, camera: camera)
        guard let visibility = model.visibility(cameraFromHead: pose) else { return exact }
        let mesh = FaceModel.mediapipe468
        guard let meshVisibility = mesh.visibility(cameraFromHead: pose) else { return exact }
        let visible = mesh.points.indices.filter { meshVisibility[$0] > 0 }.compactMap { camera.project(pose * mesh.points[$0]) }
        let centre = visible.reduce(Vector2.zero, +) / Double(max(1, visible.count))
        return exact.indices.map { i in
            guard visibility[i] <= 0 else { return exact[i] }
            let band = visible.filter { abs($0.y - exact[i].y) <= 4 }.map(\.x)
            guard let low = band.min(), let high = band.max() else { return exact[i] }
            return Vector2(exact[i].x < centre.x ? low : high, exact[i].y)
        }
    }

    /// Rotation angle between two rotations (degrees).
    static func degrees(_ a: SO3, _ b: SO3) -> Double { (a.inverse * b).angle * 180 / .pi }
}
