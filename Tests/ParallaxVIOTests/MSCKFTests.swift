import Testing
import ParallaxGeometry
import ParallaxInertial
import ParallaxMath
@testable import ParallaxVIO

/// The filter's state operations: cloning with an uncertain time offset, and the move into
/// another gravity-aligned world frame (relocalization).
@Suite struct MSCKFTests {
    /// A clone taken while the time offset is uncertain inherits that uncertainty along the
    /// motion: `Cov(clone) = σ² (ω, v)(ω, v)ᵀ` and `Cov(clone, t_d) = σ² (ω, v)` when the time
    /// offset is all that is uncertain.
    @Test func aCloneCarriesTheTimeOffsetAlongTheMotion() {
        let sigma2 = 1e-5
        var f = MSCKF(state: InertialState(rotation: SO3.exp(Vector3(0.3, 0.1, -0.2)), velocity: Vector3(0.5, -1, 0.2)), time: 0,
                      covariance: Matrix(rows: 15, columns: 15),
                      calibration: .init(imuFromCamera: .identity, timeOffset: 0), timeOffsetVariance: sigma2,
                      propagation: IMUPropagation(noise: IMUNoiseModel(gyroscopeNoiseDensity: 1e-4, gyroscopeRandomWalk: 1e-5,
                                                                         accelerometerNoiseDensity: 1e-3, accelerometerRandomWalk: 1e-4)),
                      normalizedNoise: 0.002)
        let omega = Vector3(0.4, -0.3, 0.9)
        f.clone(at: 0, angularRate: omega)
        let rate = [omega.x, omega.y, omega.z, 0.5, -1, 0.2]
        let o = f.cloneOffset(0)
        guard let td = f.timeOffsetIndex else { Issue.record("time offset not in the state"); return }
        for i in 0..<6 {
            #expect(abs(f.covariance[o + i, td] - sigma2 * rate[i]) < 1e-15)
            for j in 0..<6 { #expect(abs(f.covariance[o + i, o + j] - sigma2 * rate[i] * rate[j]) < 1e-15) }
        }
    }

    @Test func movingTheFilterIntoTheMapFrameTurnsStateAndCovariance() throws {
        let state = InertialState(rotation: SO3.exp(Vector3(0.1, 0.2, 0.3)), position: Vector3(1, 2, 3), velocity: Vector3(0.5, 0, 0))
        var p = Matrix(rows: 15, columns: 15)
        for i in 0..<15 { p[i, i] = 1e-4 }
        p[3, 3] = 4e-4   // position x more uncertain than y
        var f = MSCKF(state: state, time: 0, covariance: p, calibration: .init(imuFromCamera: .identity, timeOffset: 0),
                      propagation: IMUPropagation(noise: VIOTestScene.imuNoise), normalizedNoise: 0.001)
        f.clone(at: 0, angularRate: .zero)
        try f.moveWorld(yaw: .pi / 2, translation: Vector3(10, 0, 0), positionVariance: 1e-6)
        // x' = R_z(90°) x + t: (1, 2, 3) → (−2 + 10, 1, 3); velocity (0.5, 0, 0) → (0, 0.5, 0).
        #expect((f.state.position - Vector3(8, 1, 3)).norm < 1e-12)
        #expect((f.state.velocity - Vector3(0, 0.5, 0)).norm < 1e-12)
        #expect((f.clones[0].position - Vector3(8, 1, 3)).norm < 1e-12)
        #expect((f.state.rotation.inverse * SO3.exp(Vector3(0, 0, .pi / 2)) * state.rotation).angle < 1e-12)
        // The uncertain x is now y; the common shift adds to every position block, correlated.
        #expect(abs(f.covariance[3, 3] - (1e-4 + 1e-6)) < 1e-12 && abs(f.covariance[4, 4] - (4e-4 + 1e-6)) < 1e-12)
        let c = f.cloneOffset(0) + 3
        #expect(abs(f.covariance[4, c + 1] - (4e-4 + 1e-6)) < 1e-12)
    }
}
