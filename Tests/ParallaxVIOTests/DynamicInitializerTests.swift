import Foundation
import Testing
import ParallaxBus
import ParallaxGeometry
import ParallaxInertial
import ParallaxMath
import ParallaxPayloads
import ParallaxSim
@testable import ParallaxVIO

/// The closed-form moving start, refined: from one second of a hand-held-like shaking motion
/// (synthetic bearings with 0.5 px noise, an IMU with EuRoC's noise and a 0.06 rad/s gyro bias)
/// it recovers gravity, velocity and the gyro bias, with a covariance that covers the errors. (Scale, hence velocity, needs acceleration:
/// on a smooth constant-speed orbit a one-second window does not determine it.)
@Suite struct DynamicInitializerTests {
    /// A window of `frames` camera frames at 20 Hz along `controls` (poses every 0.05 s), with
    /// bearings of the test room's landmarks (0.5 px noise) and the IMU over it (EuRoC noise, a
    /// 0.06 rad/s gyro bias); times from the first frame.
    static func window(_ controls: [SE3], frames: Int) throws -> (frames: [DynamicInitializer.Frame], imu: [IMUMeasurement], spline: SE3Spline, t0: Double, imuModel: IMUSimulator) {
        let simulator = VIOTestScene.simulator
        let camera = VIOTestScene.camera
        let spline = SE3Spline(start: 0, interval: 0.05, controlPoses: controls)
        let t0 = spline.validRange.lowerBound + 0.5
        var imuModel = simulator.configuration.imu
        imuModel.initialGyroBias = Vector3(0.03, -0.04, 0.03)
        let samples = imuModel.simulate(spline, from: t0 - 0.1, duration: Double(frames) / 20 + 0.3, seed: 4)
        let imu = samples.map { IMUMeasurement(time: $0.timestamp.seconds - t0, gyroscope: $0.measurement.gyroscope, accelerometer: $0.measurement.accelerometer) }
        let points = VIOTestScene.landmarks(seed: 6)
        var rng = SeededGenerator(seed: 21)
        var window: [DynamicInitializer.Frame] = []
        for k in 0...frames {
            let t = Double(k) / 20
            let worldFromCamera = spline.pose(at: t0 + t) * camera.bodyFromSensor
            var seen: [UInt64: Vector2] = [:]
            for (i, p) in points.enumerated() {
                let c = worldFromCamera.inverse * p
                guard c.z > 0.3, let px = camera.model.project(c), camera.model.contains(px, margin: 2) else { continue }
                let noisy = px + Vector2(rng.nextGaussian(), rng.nextGaussian()) * 0.5
                seen[UInt64(i)] = try camera.model.normalized(noisy)
            }
            window.append(.init(time: t, features: seen))
        }
        return (window, imu, spline, t0, imuModel)
    }

    /// 60 control poses 0.05 s apart: the test room's start pose moved by `motion(t)` (an offset
    /// in m and a turn, at t s).
    static func controls(_ motion: (Double) -> (offset: Vector3, turn: SO3)) -> [SE3] {
        let base = VIOTestScene.simulator.spline.pose(at: VIOTestScene.simulator.spline.validRange.lowerBound)
        return (0..<60).map { k in
            let (offset, turn) = motion(Double(k) * 0.05)
            return SE3(rotation: base.rotation * turn, translation: base.translation + offset)
        }
    }

    /// A hand's shake (m) at t s: 10–20 cm at 0.9–1.7 Hz.
    static func shake(_ t: Double) -> Vector3 {
        Vector3(0.15 * sin(2 * .pi * 1.3 * t), 0.2 * sin(2 * .pi * 0.9 * t + 1), 0.1 * sin(2 * .pi * 1.7 * t))
    }

    @Test func recoversGravityVelocityAndGyroBiasWhileMoving() throws {
        let simulator = VIOTestScene.simulator
        let camera = VIOTestScene.camera
        // Shaking in front of the room's +x wall, as a hand-held start.
        let controls = Self.controls { t in
            (Self.shake(t), SO3.exp(Vector3(0.1 * sin(2 * .pi * 0.7 * t), 0.08 * sin(2 * .pi * 1.1 * t), 0.15 * sin(2 * .pi * 0.5 * t))))
        }
        let (frames, imu, spline, t0, imuModel) = try Self.window(controls, frames: 20)
        var initializer = DynamicInitializer()
        initializer.maxFeatures = 25
        let result = initializer.initialize(frames, imu: imu, noise: simulator.configuration.imu.noise, imuFromCamera: camera.bodyFromSensor)
        guard case let .success(start) = result else { Issue.record("refused: \(result)"); return }
        let state = start.state
        let truth = spline.evaluate(t0 + 1)
        // Roll and pitch (gravity direction in the IMU frame) and the speed are observable; yaw and position are not.
        let up = Vector3(0, 0, 1)
        let tilt = acos(min(1, (state.rotation.inverse * up).dot(truth.pose.rotation.inverse * up))) * 180 / .pi
        #expect(tilt < 1, "gravity direction off by \(tilt)°")
        #expect(abs(state.velocity.norm - truth.velocity.norm) < 0.05, "speed \(state.velocity.norm) vs \(truth.velocity.norm) m/s")
        #expect((state.gyroscopeBias - imuModel.initialGyroBias).norm < 0.01, "gyro bias \(state.gyroscopeBias)")
        // The start's covariance is positive definite and its tilt σ (attitude error across the
        // body-frame up direction) covers the tilt error without being vague.
        let p = start.covariance
        _ = try Cholesky(p)
        let tiltSigma = start.tiltSigmaDegrees
        #expect(tilt < 3 * tiltSigma && tiltSigma < 2, "tilt error \(tilt)°, σ \(tiltSigma)°")
        #expect((0..<3).allSatisfy { abs(p[12 + $0, 12 + $0] - initializer.accelerometerBiasSigma * initializer.accelerometerBiasSigma) < 1e-8 })
    }

    /// The window's frames come back as the filter's first clones: spread over the window, at
    /// the poses the alignment gives them, in a gauge that fixes the start's position (its
    /// variance ≈ 0, each clone's the variance of its offset from the start, which covers the
    /// true offset), and correlated with the accelerometer bias through the preintegration.
    @Test func theWindowComesBackAsClonesInTheStartsGauge() throws {
        let simulator = VIOTestScene.simulator
        let camera = VIOTestScene.camera
        let controls = Self.controls { t in
            (Self.shake(t), SO3.exp(Vector3(0.1 * sin(2 * .pi * 0.7 * t), 0.08 * sin(2 * .pi * 1.1 * t), 0.15 * sin(2 * .pi * 0.5 * t))))
        }
        let (frames, imu, spline, t0, _) = try Self.window(controls, frames: 20)
        var initializer = DynamicInitializer()
        initializer.maxFeatures = 25
        initializer.clones = 10
        let result = initializer.initialize(frames, imu: imu, noise: simulator.configuration.imu.noise, imuFromCamera: camera.bodyFromSensor)
        guard case let .success(start) = result else { Issue.record("refused: \(result)"); return }
        #expect(start.clones.map(\.frame) == DynamicInitializer.cloneFrames(count: 10, frames: frames.count))
        #expect(start.covariance.rows == 15 + 6 * 10 && start.covariance.columns == 15 + 6 * 10)
        _ = try Cholesky(start.covariance)
        let p = start.covariance
        for i in 0..<3 { #expect(p[3 + i, 3 + i] < 1e-8, "the start's position variance \(p[3 + i, 3 + i])") }
        let truthStart = spline.pose(at: t0 + frames[frames.count - 1].time).translation
        for (j, clone) in start.clones.enumerated() {
            let o = 15 + 6 * j + 3
            let sigma = ((0..<3).map { p[o + $0, o + $0] }.reduce(0, +)).squareRoot()
            let truthOffset = (spline.pose(at: t0 + frames[clone.frame].time).translation - truthStart).norm
            let offset = (clone.position - start.state.position).norm
            #expect(sigma > 0 && abs(offset - truthOffset) < 3 * sigma + 1e-3, "clone \(j): \(offset) m from the start, truth \(truthOffset) m, σ \(sigma) m")
        }
        // ∂v/∂b_a is the window's span times a rotation: the bias's prior reaches the velocity.
        var crossNorm = 0.0
        for i in 0..<3 { for j in 0..<3 { crossNorm += pow(p[6 + i, 12 + j], 2) } }
        let biasVariance = initializer.accelerometerBiasSigma * initializer.accelerometerBiasSigma
        #expect(crossNorm.squareRoot() > 0.5 * biasVariance, "velocity–bias covariance \(crossNorm.squareRoot())")
    }

    /// Clones spread evenly from the first frame to the one before the last, ascending and
    /// without repeats; all of them when fewer are available.
    /// A window that does not fit one motion is a misfit (counted toward "the start came after
    /// N refusals"); one that only lacks motion or features is a wait, not counted.
    @Test func refusalsThatAreMisfitsAreTold() {
        typealias R = DynamicInitializer.Refusal
        #expect([R.gravity(12), .depth, .residual(0.1), .numerical].allSatisfy { $0.misfit != nil })
        #expect([R.tooFewFeatures, .lowExcitation(0.01), .uncertain(velocitySigma: 1, tiltSigmaDegrees: 5)].allSatisfy { $0.misfit == nil })
        #expect(Set([R.gravity(12), .depth, .residual(0.1), .numerical].compactMap(\.misfit)).count == 4)
    }

    @Test func cloneFramesSpreadOverTheWindow() {
        #expect(DynamicInitializer.cloneFrames(count: 10, frames: 21) == [0, 2, 4, 6, 8, 11, 13, 15, 17, 19])
        #expect(DynamicInitializer.cloneFrames(count: 10, frames: 6) == [0, 1, 2, 3, 4])
        #expect(DynamicInitializer.cloneFrames(count: 1, frames: 21) == [0])
        #expect(DynamicInitializer.cloneFrames(count: 0, frames: 21).isEmpty)
        #expect(DynamicInitializer.cloneFrames(count: 5, frames: 1).isEmpty)
        for count in 1...30 {
            let k = DynamicInitializer.cloneFrames(count: count, frames: 21)
            #expect(k.count == min(count, 20) && zip(k, k.dropFirst()).allSatisfy { $0 < $1 } && k.last.map { $0 < 20 } ?? false)
        }
    }

    /// The gauge change: every position error becomes its difference from the start's, so
    /// the start's position has no variance and a clone's is `Var(δp_k − δp_s)`.
    @Test func positionsAreTakenRelativeToTheStart() throws {
        var a = Matrix(rows: 21, columns: 21)
        var rng = SeededGenerator(seed: 3)
        for i in 0..<21 { for j in 0..<21 { a[i, j] = rng.nextGaussian() } }
        let p = try a.multiplied(by: a, transposeOther: true)
        let q = DynamicInitializer.positionsRelativeToStart(p, clones: 1)
        for i in 0..<21 { for k in 3..<6 { #expect(abs(q[k, i]) < 1e-12 && abs(q[i, k]) < 1e-12) } }
        // Var(δp_k − δp_s) for the clone's position x (index 18) and the state's x (index 3).
        #expect(abs(q[18, 18] - (p[18, 18] - 2 * p[18, 3] + p[3, 3])) < 1e-9)
        // Everything else as it was (the attitude, the velocity, the clone's attitude).
        #expect(q[0, 0] == p[0, 0] && q[6, 15] == p[6, 15] && q[15, 16] == p[15, 16])
        // …and the clone's position against the velocity: Cov(δp_k − δp_s, δv).
        #expect(abs(q[18, 7] - (p[18, 7] - p[3, 7])) < 1e-12)
    }

    /// Half a second at constant velocity (turning): the accelerometer sees only gravity, so
    /// nothing fixes the scale (hence the velocity) but the short camera–IMU lever arm. Solved
    /// anyway, such a window gives a start collapsed toward zero scale whose covariance looks
    /// certain; it is refused before solving, and the shaking start is not.
    @Test func refusesAWindowAtConstantVelocity() throws {
        let simulator = VIOTestScene.simulator
        let camera = VIOTestScene.camera
        let controls = Self.controls { t in (Vector3(0.3, 0.1, 0) * t, SO3.exp(Vector3(0, 0, 0.2 * t))) }
        let (frames, imu, _, _, _) = try Self.window(controls, frames: 10)
        var initializer = DynamicInitializer()
        initializer.maxFeatures = 25
        let result = initializer.initialize(frames, imu: imu, noise: simulator.configuration.imu.noise, imuFromCamera: camera.bodyFromSensor)
        guard case let .failure(.lowExcitation(excitation)) = result else {
            Issue.record("expected a refusal for low excitation, got \(result)")
            return
        }
        // What is left is the accelerometer's noise (EuRoC: 0.028 m/s² per sample at 200 Hz).
        #expect(excitation < 0.05, "excitation \(excitation) m/s²")
        #expect(DynamicInitializer.excitation(imu, from: 0, to: 0.5) == excitation)
    }

    /// A start whose own covariance says the window did not determine it (limits tightened
    /// below what the shaking window gives) is refused with its σ, not handed to the filter.
    @Test func refusesAStartVaguerThanTheLimits() throws {
        let simulator = VIOTestScene.simulator
        let camera = VIOTestScene.camera
        let controls = Self.controls { t in (Self.shake(t), SO3.exp(Vector3(0, 0, 0.15 * sin(2 * .pi * 0.5 * t)))) }
        let (frames, imu, _, _, _) = try Self.window(controls, frames: 20)
        var initializer = DynamicInitializer()
        initializer.maxFeatures = 25
        guard case let .success(start) = initializer.initialize(frames, imu: imu, noise: simulator.configuration.imu.noise, imuFromCamera: camera.bodyFromSensor) else {
            Issue.record("the shaking window gives no start")
            return
        }
        initializer.maxTiltSigmaDegrees = start.tiltSigmaDegrees / 2
        let result = initializer.initialize(frames, imu: imu, noise: simulator.configuration.imu.noise, imuFromCamera: camera.bodyFromSensor)
        guard case let .failure(.uncertain(_, tilt)) = result else {
            Issue.record("expected a refusal as too uncertain, got \(result)")
            return
        }
        #expect(abs(tilt - start.tiltSigmaDegrees) < 1e-9)
    }
}
