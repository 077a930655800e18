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

    /// A frame's own stamp error moves its clone alone along the motion: `σ_j² (ω, v)(ω, v)ᵀ` on
    /// the clone's block, nothing between clones (the next one taken with no jitter has none).
    @Test func aFramesStampJitterWidensItsCloneAlongTheMotion() {
        let jitter2 = 4e-6
        var f = MSCKF(state: InertialState(rotation: SO3.exp(Vector3(0.3, 0.1, -0.2)), velocity: Vector3(0.5, -1, 0.2)), time: 0,
                      covariance: Matrix(rows: 15, columns: 15), calibration: .init(imuFromCamera: .identity, timeOffset: 0),
                      propagation: IMUPropagation(noise: IMUNoiseModel(gyroscopeNoiseDensity: 1e-4, gyroscopeRandomWalk: 1e-5,
                                                                         accelerometerNoiseDensity: 1e-3, accelerometerRandomWalk: 1e-4)),
                      normalizedNoise: 0.002)
        let omega = Vector3(0.4, -0.3, 0.9)
        f.stampJitterVariance = jitter2
        f.clone(at: 0, angularRate: omega)
        f.stampJitterVariance = 0
        f.clone(at: 1, angularRate: omega)
        let rate = [omega.x, omega.y, omega.z, 0.5, -1, 0.2]
        let first = f.cloneOffset(0), second = f.cloneOffset(1)
        for i in 0..<6 {
            for j in 0..<6 {
                #expect(abs(f.covariance[first + i, first + j] - jitter2 * rate[i] * rate[j]) < 1e-15)
                #expect(f.covariance[second + i, second + j] == 0 && f.covariance[first + i, second + j] == 0)
            }
        }
    }

    /// A moving start's window becomes the first clones: the joint covariance goes to the IMU
    /// block and the clone blocks (after the calibration), and each clone depends on the time
    /// offset along its motion, as a clone taken then would.
    @Test func aStartsWindowBecomesTheFirstClones() throws {
        let sigma2 = 1e-6
        let noise = IMUNoiseModel(gyroscopeNoiseDensity: 1e-4, gyroscopeRandomWalk: 1e-5, accelerometerNoiseDensity: 1e-3, accelerometerRandomWalk: 1e-4)
        var a = Matrix(rows: 27, columns: 27)
        var rng = SeededGenerator(seed: 9)
        for i in 0..<27 { for j in 0..<27 { a[i, j] = 0.01 * rng.nextGaussian() } }
        let joint = try a.multiplied(by: a, transposeOther: true)
        var f = MSCKF(state: InertialState(), time: 0, covariance: joint.block(row: 0, column: 0, rows: 15, columns: 15),
                      calibration: .init(imuFromCamera: .identity, timeOffset: 0), extrinsicVariance: (1e-4, 1e-5), timeOffsetVariance: sigma2,
                      propagation: IMUPropagation(noise: noise), normalizedNoise: 0.002)
        let clones = (0..<2).map { k in MSCKF.Clone(time: Int64(k), rotation: .identity, position: Vector3(Double(k), 0, 0), firstRotation: .identity, firstPosition: Vector3(Double(k), 0, 0)) }
        let rates = [[0.1, 0.2, 0.3, 1, 2, 3], [-0.1, 0, 0.5, 0, -1, 0]]
        f.startWindow(with: clones, covariance: joint, rates: rates)
        #expect(f.clones.count == 2 && f.dimension == f.cloneBase + 12)
        let td = try #require(f.timeOffsetIndex), e = try #require(f.extrinsicsOffset)
        for i in 0..<15 { for j in 0..<15 { #expect(f.covariance[i, j] == joint[i, j]) } }
        for k in 0..<2 {
            for i in 0..<6 {
                for j in 0..<15 { #expect(abs(f.covariance[f.cloneOffset(k) + i, j] - joint[15 + 6 * k + i, j]) < 1e-15) }
                #expect(abs(f.covariance[f.cloneOffset(k) + i, td] - sigma2 * rates[k][i]) < 1e-15)
                #expect(f.covariance[f.cloneOffset(k) + i, e] == 0)
                for l in 0..<2 {
                    for j in 0..<6 {
                        let expected = joint[15 + 6 * k + i, 15 + 6 * l + j] + sigma2 * rates[k][i] * rates[l][j]
                        #expect(abs(f.covariance[f.cloneOffset(k) + i, f.cloneOffset(l) + j] - expected) < 1e-12)
                    }
                }
            }
        }
        _ = try Cholesky(f.covariance)
    }

    /// With the IMU's scale errors in the state, propagation maps the covariance by the full
    /// transition `[Φ Ψ; 0 I]` over (IMU, scales) and leaves the other blocks' rows alone:
    /// compared with the dense product over the whole state, on a random covariance with a clone.
    @Test func propagationCarriesTheScaleErrorsThroughPsi() throws {
        let noise = IMUNoiseModel(gyroscopeNoiseDensity: 1e-4, gyroscopeRandomWalk: 1e-5, accelerometerNoiseDensity: 1e-3, accelerometerRandomWalk: 1e-4)
        let propagation = IMUPropagation(noise: noise)
        let state = InertialState(rotation: SO3.exp(Vector3(0.2, -0.1, 0.4)), velocity: Vector3(0.3, -0.2, 0.1))
        var f = MSCKF(state: state, time: 0, covariance: Matrix(rows: 15, columns: 15), calibration: .init(imuFromCamera: .identity, timeOffset: 0),
                      timeOffsetVariance: 1e-6, intrinsicsVariance: (accelerometer: 2.5e-5, gyroscope: 1e-5),
                      propagation: propagation, normalizedNoise: 0.002)
        f.clone(at: 0, angularRate: .zero)
        let n = f.dimension
        var a = Matrix(rows: n, columns: n)
        var rng = SeededGenerator(seed: 5)
        for i in 0..<n { for j in 0..<n { a[i, j] = 0.01 * rng.nextGaussian() } }
        var p = try a.multiplied(by: a, transposeOther: true)
        p.symmetrize()
        f.covariance = p
        f.calibration.imuIntrinsics = IMUIntrinsics(accelerometerScale: Vector3(0.002, 0, -0.001), gyroscopeScale: Vector3(0, 0.003, 0))
        // Turning and accelerating readings over 0.1 s.
        let readings = (0...21).map { k in
            IMUMeasurement(time: Double(k) * 0.005, gyroscope: Vector3(0.3, -0.5, 0.8), accelerometer: Vector3(1.0, 0.5, 9.9) + Vector3(0.1, 0, 0) * Double(k))
        }
        let (_, interval) = try propagation.propagate(state, readings, from: 0, to: 0.1, intrinsics: f.calibration.imuIntrinsics, intrinsicsJacobian: true)
        let psi = try #require(interval.intrinsicsTransition)
        let s = try #require(f.intrinsicsOffset)
        var full = Matrix.identity(n)
        full.setBlock(row: 0, column: 0, interval.transition)
        full.setBlock(row: 0, column: s, psi)
        var expected = try (try full * p).multiplied(by: full, transposeOther: true)
        var q = Matrix(rows: n, columns: n)
        q.setBlock(row: 0, column: 0, interval.noise)
        expected = try expected + q
        try f.propagate(readings, to: 0.1)
        for i in 0..<n {
            for j in 0..<n {
                #expect(abs(f.covariance[i, j] - expected[i, j]) <= 1e-12 * max(1, abs(expected[i, j])), "P[\(i), \(j)]")
            }
        }
        // The scales' own block is untouched; Ψ is not zero (the readings excite every scale).
        #expect(f.covariance[s, s] == p[s, s])
        #expect(psi.elements.contains { $0 != 0 })
    }

    /// An update moves the estimated scales by their error block's share of the correction.
    @Test func anUpdateCorrectsTheScales() throws {
        let noise = IMUNoiseModel(gyroscopeNoiseDensity: 1e-4, gyroscopeRandomWalk: 1e-5, accelerometerNoiseDensity: 1e-3, accelerometerRandomWalk: 1e-4)
        var f = MSCKF(state: InertialState(), time: 0, covariance: .identity(15), calibration: .init(imuFromCamera: .identity, timeOffset: 0),
                      intrinsicsVariance: (accelerometer: 1e-4, gyroscope: 1e-4), propagation: IMUPropagation(noise: noise), normalizedNoise: 0.01)
        let s = try #require(f.intrinsicsOffset)
        #expect(s == 15 && f.cloneBase == 21)
        var dx = [Double](repeating: 0, count: f.dimension)
        dx[s] = 0.004
        dx[s + 5] = -0.002
        f.correct(dx)
        #expect(f.calibration.imuIntrinsics.accelerometerScale == Vector3(0.004, 0, 0))
        #expect(f.calibration.imuIntrinsics.gyroscopeScale == Vector3(0, 0, -0.002))
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
