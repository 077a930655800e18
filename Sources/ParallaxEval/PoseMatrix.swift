import ParallaxPayloads
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

    /// The rotation angle (deg) as evo computes it: scipy's `Rotation.from_matrix` takes the
    /// closest rotation (the polar factor) of a block that is not orthonormal, then its angle.
    /// (scipy skips the projection for blocks orthonormal to 1e-12, where it changes nothing.)
    var angleDegrees: Double {
        ((try? SO3(orthonormalizing: rotation)) ?? SO3(rotation)).angle * 180 / .pi
    }
}
