import ParallaxCore
import ParallaxMath

/// A pose as evo holds it: a 3×3 rotation block and a translation, composed and inverted as
/// matrices (`inverse` uses the transpose, as evo's `se3_inverse` does) without re-projecting
/// the block onto SO(3). For poses read from quaternions the block is the quaternion's matrix;
/// for KITTI files it is the block as read (``StampedPose/rotationAsRead``).
struct PoseMatrix {
    /// Rotation block (orthonormal up to the file's precision).
    var rotation: Matrix3
    /// Translation (m).
    var translation: Vector3

    init(rotation: Matrix3, translation: Vector3) {
        self.rotation = rotation
        self.translation = translation
    }

    init(_ p: StampedPose) {
        self.init(rotation: p.rotationAsRead ?? p.pose.rotation.matrix, translation: p.pose.translation)
    }

    /// `[Rᵀ | −Rᵀt]`.
    var inverse: PoseMatrix {
        let rt = rotation.transposed
        return PoseMatrix(rotation: rt, translation: -(rt * translation))
    }

    static func * (a: PoseMatrix, b: PoseMatrix) -> PoseMatrix {
        PoseMatrix(rotation: a.rotation * b.rotation, translation: a.rotation * b.translation + a.translation)
    }

    /// The rotation angle (deg) as evo computes it (scipy's `Rotation.from_matrix`): a block
    /// whose Gram matrix differs from the identity by more than scipy's tolerance (1e-12
    /// absolute, plus 1e-5 relative on the diagonal) is first replaced by its closest rotation
    /// (polar decomposition by SVD), then the angle of that rotation.
    var angleDegrees: Double {
        let gram = rotation * rotation.transposed
        var orthogonal = true
        for i in 0..<3 { for j in 0..<3 where abs(gram[i, j] - (i == j ? 1 : 0)) > 1e-12 + (i == j ? 1e-5 : 0) { orthogonal = false } }
        let r = orthogonal ? SO3(rotation) : ((try? SO3(orthonormalizing: rotation)) ?? SO3(rotation))
        return r.angle * 180 / .pi
    }
}
