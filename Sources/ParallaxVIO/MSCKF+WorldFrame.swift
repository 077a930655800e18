import Foundation
import ParallaxInertial
import ParallaxMath

extension MSCKF {
    /// Moves the filter into another gravity-aligned world frame, `x' = R_z(ψ) x + t` (the yaw
    /// `yaw` in rad about z, `t` in m): what relocalization into a map does. Rotations are
    /// turned on the left, positions, velocities and landmarks turned and shifted; in the error
    /// state the world-frame blocks (position, velocity, clone positions, landmarks) are turned,
    /// the rotation errors (right perturbations, in the IMU frame) stay. `positionVariance`
    /// (m²) is the new frame's own uncertainty, added to every position block fully correlated
    /// (one common shift), so it does not tear the window apart.
    mutating func moveWorld(yaw: Double, translation t: Vector3, positionVariance: Double) throws {
        let rz = SO3.exp(Vector3(0, 0, yaw))
        let m = rz.matrix
        func move(_ x: InertialState) -> InertialState {
            InertialState(rotation: rz * x.rotation, position: m * x.position + t, velocity: m * x.velocity,
                          gyroscopeBias: x.gyroscopeBias, accelerometerBias: x.accelerometerBias)
        }
        state = move(state)
        propagatedState = move(propagatedState)
        for k in clones.indices {
            clones[k].rotation = rz * clones[k].rotation
            clones[k].position = m * clones[k].position + t
            clones[k].firstRotation = rz * clones[k].firstRotation
            clones[k].firstPosition = m * clones[k].firstPosition + t
        }
        for j in landmarks.indices { landmarks[j].position = m * landmarks[j].position + t }
        // P' = J P Jᵀ, J block-diagonal with R_z on the world-frame blocks.
        let positionBlocks = [InertialState.Block.position] + clones.indices.map { cloneOffset($0) + 3 } + landmarks.indices.map { landmarkOffset($0) }
        var j = Matrix.identity(dimension)
        for b in positionBlocks + [InertialState.Block.velocity] { for r in 0..<3 { for q in 0..<3 { j[b + r, b + q] = m[r, q] } } }
        covariance = try (try j * covariance).multiplied(by: j, transposeOther: true)
        for a in positionBlocks { for b in positionBlocks { for i in 0..<3 { covariance[a + i, b + i] += positionVariance } } }
        covariance.symmetrize()
    }
}
