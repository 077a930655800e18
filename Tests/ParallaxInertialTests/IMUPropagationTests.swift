import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxSim
@testable import ParallaxInertial

@Suite struct IMUPropagationTests {
    static let spline = SyntheticMotion.orbit(seconds: 12)
    static let noise = SimulationPresets.euRoCIMUNoise

    func measurements(_ imu: IMUSimulator, from: Double, seconds: Double, seed: UInt64) -> [IMUMeasurement] {
        imu.simulate(Self.spline, from: from, duration: seconds, seed: seed).map {
            IMUMeasurement(time: $0.timestamp.seconds, gyroscope: $0.measurement.gyroscope, accelerometer: $0.measurement.accelerometer)
        }
    }

    func truth(at t: Double) -> InertialState {
        let s = Self.spline.evaluate(t)
        return InertialState(rotation: s.pose.rotation, position: s.pose.translation, velocity: s.velocity)
    }

    @Test func idealIMUFollowsTheTrajectory() throws {
        let t0 = Self.spline.validRange.lowerBound + 1
        let data = measurements(.ideal(rateHz: 200), from: t0, seconds: 2.01, seed: 1)
        // Ends between samples: interpolated, as a filter propagates to frame times.
        let (x, interval) = try IMUPropagation(noise: Self.noise).propagate(truth(at: t0 + 0.0021), data, from: t0 + 0.0021, to: t0 + 2.0037)
        let expected = truth(at: t0 + 2.0037)
        #expect((x.position - expected.position).norm < 2e-3, "position error \((x.position - expected.position).norm) m after 2 s")
        #expect((x.velocity - expected.velocity).norm < 2e-3)
        #expect((x.rotation.inverse * expected.rotation).angle * 180 / .pi < 0.01)
        #expect(abs(interval.duration - 2.0016) < 1e-9)
    }

    @Test func theCovarianceMatchesTheSpreadOfNoisyRuns() throws {
        // Monte Carlo: 120 seeded noisy IMUs propagated 1 s from the true state; the error's
        // NEES against the propagated covariance averages the navigation state's dimension (9).
        let t0 = Self.spline.validRange.lowerBound + 2
        let propagation = IMUPropagation(noise: Self.noise)
        let start = truth(at: t0), end = truth(at: t0 + 1)
        var nees: [Double] = []
        var covariance: Matrix?
        for seed in 1...120 {
            let data = measurements(IMUSimulator(noise: Self.noise, rateHz: 200), from: t0, seconds: 1.005, seed: UInt64(seed))
            let (x, interval) = try propagation.propagate(start, data, from: t0, to: t0 + 1)
            covariance = covariance ?? interval.noise
            let e = (end.rotation.inverse * x.rotation).log
            let error = [e.x, e.y, e.z] + Array([x.position - end.position, x.velocity - end.velocity].map { [$0.x, $0.y, $0.z] }.joined())
            let block = interval.noise.block(row: 0, column: 0, rows: 9, columns: 9)
            let solved = try block.solve(error)
            nees.append(zip(error, solved).map(*).reduce(0, +))
        }
        let mean = nees.reduce(0, +) / Double(nees.count)
        #expect(mean > 7 && mean < 11.5, "mean NEES \(mean), expected ≈ 9")
        // Symmetric and positive definite.
        let p = try #require(covariance)
        for i in 0..<15 { for j in 0..<15 { #expect(abs(p[i, j] - p[j, i]) <= 1e-12 * max(1, abs(p[i, j]))) } }
        #expect((try? Cholesky(p)) != nil)
    }

    /// With first estimates, the transition carries the unobservable directions of one
    /// linearization point onto the next even when an update moved the state in between (the
    /// start's estimate differs from the state propagated): a yaw about gravity
    /// `N = (R̂ᵀ e_z, −[p̂]× e_z, −[v̂]× e_z, 0, 0)` and a global translation.
    @Test func firstEstimateTransitionKeepsYawAndPositionUnobservable() throws {
        let t0 = Self.spline.validRange.lowerBound + 1
        let data = measurements(IMUSimulator(noise: Self.noise, rateHz: 200), from: t0, seconds: 0.06, seed: 3)
        let propagation = IMUPropagation(noise: Self.noise)
        let firstEstimate = truth(at: t0)
        var updated = firstEstimate
        updated.rotation = updated.rotation * SO3.exp(Vector3(0.01, -0.02, 0.015))
        updated.velocity += Vector3(0.05, -0.03, 0.02)
        updated.position += Vector3(0.01, 0.02, -0.01)
        let (end, interval) = try propagation.propagate(updated, data, from: t0, to: t0 + 0.05)
        func yaw(_ x: InertialState) -> [Double] {
            let z = Vector3(0, 0, 1)
            let parts = [x.rotation.inverse * z, -1 * (Matrix3.skew(x.position) * z), -1 * (Matrix3.skew(x.velocity) * z)]
            return parts.flatMap { [$0.x, $0.y, $0.z] } + [Double](repeating: 0, count: 6)
        }
        func mapped(_ phi: Matrix, _ v: [Double]) throws -> [Double] { try (phi * Matrix(rows: 15, columns: 1, columnMajor: v)).elements }
        let fej = interval.firstEstimate(start: firstEstimate, end: end, gravity: propagation.gravity).transition
        let carried = try mapped(fej, yaw(firstEstimate)), expected = yaw(end)
        for i in 0..<15 { #expect(abs(carried[i] - expected[i]) < 1e-9, "component \(i): \(carried[i]) vs \(expected[i])") }
        // The transition built at the updated state does not: that is the inconsistency FEJ removes.
        let plain = try mapped(interval.transition, yaw(firstEstimate))
        #expect(zip(plain, expected).map { abs($0 - $1) }.max() ?? 0 > 1e-4)
        for axis in 0..<3 {
            var shift = [Double](repeating: 0, count: 15)
            shift[InertialState.Block.position + axis] = 1
            #expect(try mapped(fej, shift) == shift)
        }
    }

    @Test func aStillStartIsUncertainInTiltNotInYaw() throws {
        // A start tilted 30° about x: the attitude variance is 1e-4 rad² for any rotation axis
        // across the vertical and (almost) none about it, whatever the IMU's orientation.
        let state = InertialState(rotation: SO3.exp(Vector3(0.5236, 0, 0)))
        let p = StaticInitializer.covariance(of: state)
        func variance(about axis: Vector3) -> Double {
            let a = [axis.x, axis.y, axis.z]
            return (0..<3).reduce(0) { s, i in (0..<3).reduce(s) { $0 + a[i] * p[i, $1] * a[$1] } }
        }
        let vertical = state.rotation.inverse * Vector3(0, 0, 1)
        #expect(abs(variance(about: vertical) - 1e-9) < 1e-15)
        #expect(abs(variance(about: Vector3(1, 0, 0)) - 1e-4) < 1e-12)
        #expect(abs(variance(about: vertical.cross(Vector3(1, 0, 0)).normalized) - 1e-4) < 1e-12)
        #expect(p[3, 3] == 1e-8 && p[14, 14] == 1e-2)
        _ = try Cholesky(p, symmetryTolerance: 1e-15)
    }

    @Test func theStaticInitializerLevelsOnGravityAndTakesTheGyroBias() {
        var imu = IMUSimulator(noise: Self.noise, rateHz: 200)
        imu.initialGyroBias = Vector3(0.01, -0.02, 0.005)
        // Still, tilted: a constant pose.
        let tilt = SE3(rotation: .exp(Vector3(0.2, -0.1, 0.7)), translation: Vector3(1, 2, 3))
        let still = SE3Spline(start: 0, interval: 0.5, controlPoses: Array(repeating: tilt, count: 8))
        let data = imu.simulate(still, from: still.validRange.lowerBound, duration: 1.5, seed: 3).map {
            IMUMeasurement(time: $0.timestamp.seconds, gyroscope: $0.measurement.gyroscope, accelerometer: $0.measurement.accelerometer)
        }
        guard case let .success(state) = StaticInitializer().initialize(data) else { Issue.record("no initialization"); return }
        // Roll and pitch as the truth (yaw is free): gravity maps to −z both ways.
        let up = Vector3(0, 0, 1)
        let angle = acos(min(1, (state.rotation.inverse * up).dot(tilt.rotation.inverse * up)))
        #expect(angle * 180 / .pi < 0.1, "tilt error \(angle * 180 / .pi)°")
        #expect((state.gyroscopeBias - imu.initialGyroBias).norm < 2e-3)
        // Moving, or not gravity, is refused with the reason.
        let moving = measurements(IMUSimulator(noise: Self.noise, rateHz: 200), from: Self.spline.validRange.lowerBound + 1, seconds: 1.5, seed: 2)
        #expect(StaticInitializer().initialize(moving) == .failure(StaticInitializerRefusal(.moving)))
        let saturated = data.map { IMUMeasurement(time: $0.time, gyroscope: $0.gyroscope, accelerometer: $0.accelerometer * 0) }
        if case let .failure(r) = StaticInitializer().initialize(saturated), case .notGravity = r.reason {} else { Issue.record("a zero accelerometer is not gravity") }
        #expect(StaticInitializer().initialize(Array(data.prefix(10))) == .failure(StaticInitializerRefusal(.tooShort)))
    }
}
