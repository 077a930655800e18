import Foundation
import Testing
import ParallaxGeometry
import ParallaxInertial
import ParallaxMath
@testable import ParallaxVIO

/// The feature measurement's Jacobians against finite differences of the projection, for every
/// error coordinate the feature touches: clones' rotation and position and the camera–IMU
/// extrinsics (the time offset reaches features through the clones' cloning Jacobian), seen by
/// both cameras of a stereo pair.
@Suite struct FeatureUpdateTests {
    /// A filter with three clones looking at `point`, every calibration estimated.
    static func filter() -> MSCKF {
        let imuFromCamera = SE3(rotation: SO3.exp(Vector3(1.2, -0.4, 1.3)), translation: Vector3(0.05, -0.02, 0.01))
        var f = MSCKF(state: InertialState(), time: 0, covariance: 1e-4 * Matrix.identity(15),
                      calibration: .init(imuFromCamera: imuFromCamera, timeOffset: 0.002), extrinsicVariance: (1e-4, 1e-4), timeOffsetVariance: 1e-4,
                      propagation: IMUPropagation(noise: IMUNoiseModel(gyroscopeNoiseDensity: 1e-4, gyroscopeRandomWalk: 1e-5,
                                                                         accelerometerNoiseDensity: 1e-3, accelerometerRandomWalk: 1e-4)),
                      normalizedNoise: 0.002)
        f.usesFirstEstimates = false
        f.stereoFromCamera = SE3(rotation: SO3.exp(Vector3(0.01, -0.02, 0.005)), translation: Vector3(-0.11, 0.001, 0.0005))
        for k in 0..<3 {
            f.state.rotation = SO3.exp(Vector3(0.1 * Double(k), -0.05, 0.2 + 0.03 * Double(k)))
            f.state.position = Vector3(0.1 * Double(k), -0.05 * Double(k), 0.02)
            f.clone(at: Int64(k) * 50_000_000, angularRate: Vector3(0.1, 0.2, -0.1))
        }
        return f
    }

    static func project(_ f: MSCKF, clone k: Int, camera: Int = 0, _ point: Vector3) -> Vector2 {
        let pC = f.worldFromCamera(k, camera: camera).inverse * point
        return Vector2(pC.x / pC.z, pC.y / pC.z)
    }

    @Test func jacobiansMatchFiniteDifferences() throws {
        let f = Self.filter()
        // A point about 3 m in front of the first camera.
        let point = f.worldFromCamera(0) * Vector3(0.3, -0.2, 3)
        let observations = (0..<6).map { i in
            FeatureUpdate.Observation(clone: i / 2, camera: i % 2, normalized: Self.project(f, clone: i / 2, camera: i % 2, point))
        }
        guard case let .success(linear) = FeatureUpdate.linearize(observations, point: point, filter: f) else {
            Issue.record("linearization refused"); return
        }
        let eps = 1e-6
        let extrinsics = try #require(f.extrinsicsOffset)
        let columns = Array(extrinsics..<(extrinsics + 6)) + Array(f.cloneOffset(0)..<f.dimension)
        for c in columns {
            var dx = [Double](repeating: 0, count: f.dimension)
            dx[c] = eps
            var moved = f
            moved.correct(dx)
            for (j, o) in observations.enumerated() {
                let p = Self.project(moved, clone: o.clone, camera: o.camera, point)
                // H is the prediction's Jacobian: r = observed − predicted ≈ H δx + noise.
                let numeric = [(p.x - o.normalized.x) / eps, (p.y - o.normalized.y) / eps]
                for i in 0..<2 {
                    #expect(abs(numeric[i] - linear.hx[2 * j + i, c]) < 1e-4, "row \(2 * j + i) column \(c): \(numeric[i]) vs \(linear.hx[2 * j + i, c])")
                }
            }
        }
        // And the feature's own Jacobian.
        for c in 0..<3 {
            var moved = point
            if c == 0 { moved.x += eps } else if c == 1 { moved.y += eps } else { moved.z += eps }
            for (j, o) in observations.enumerated() {
                let p = Self.project(f, clone: o.clone, camera: o.camera, moved)
                let numeric = [(p.x - o.normalized.x) / eps, (p.y - o.normalized.y) / eps]
                for i in 0..<2 { #expect(abs(numeric[i] - linear.hf[2 * j + i, c]) < 1e-4) }
            }
        }
    }
}
