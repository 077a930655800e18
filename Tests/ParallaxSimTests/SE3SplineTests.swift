import Foundation
import Testing
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
@testable import ParallaxSim
import ParallaxBus

@Suite struct SE3SplineTests {
    let spline = SimulationFixtures.parametricSpline()

    @Test func derivativesMatchFiniteDifferences() {
        let h = 1e-5
        for t in stride(from: 0.3, through: 12.0, by: 0.37) {
            let s = spline.evaluate(t)
            let before = spline.evaluate(t - h), after = spline.evaluate(t + h)
            let v = (after.pose.translation - before.pose.translation) / (2 * h)
            let a = (after.velocity - before.velocity) / (2 * h)
            let w = (before.pose.rotation.inverse * after.pose.rotation).log / (2 * h)
            #expect((v - s.velocity).norm < 1e-7, "velocity at \(t)")
            #expect((a - s.acceleration).norm < 1e-5, "acceleration at \(t)")
            #expect((w - s.angularVelocity).norm < 1e-7, "angular velocity at \(t)")
        }
    }

    @Test func isContinuousAcrossKnots() {
        for k in 2..<100 {
            let t = Double(k) * spline.interval
            let a = spline.evaluate(t - 1e-9), b = spline.evaluate(t + 1e-9)
            #expect((a.pose.translation - b.pose.translation).norm < 1e-8)
            #expect((a.acceleration - b.acceleration).norm < 1e-5)
            #expect((a.angularVelocity - b.angularVelocity).norm < 1e-6)
        }
    }

    @Test func fitFollowsARealTrajectory() throws {
        let controls = (0..<60).map { k in StampedPose(time: Double(k) * 0.05, pose: SE3(rotation: .exp(Vector3(0, 0, 0.02 * Double(k))), translation: Vector3(0.01 * Double(k), 0, 0))) }
        let fitted = SE3Spline.fit(Trajectory(poses: controls), interval: 0.1)
        // A uniformly moving body is reproduced exactly by the cubic B-spline.
        let p = fitted.pose(at: 1.0)
        #expect((p.translation - Vector3(0.2, 0, 0)).norm < 1e-12)
        #expect(abs(p.rotation.log.z - 0.4) < 1e-12)
    }
}

@Suite struct IMUSimulatorTests {
    let spline = SimulationFixtures.parametricSpline()

    /// Strapdown integration, RK4 with step 2Δt using the sample in the middle.
    func integrate(_ samples: [IMUSimulator.Sample], from start: (pose: SE3, velocity: Vector3), gravity: Double) -> SE3 {
        var r = start.pose.rotation, v = start.velocity, p = start.pose.translation
        let g = Vector3(0, 0, -gravity)
        let h = 2 * samples[1].timestamp.seconds(since: samples[0].timestamp)
        var k = 0
        while k + 2 < samples.count {
            let w0 = samples[k].measurement.gyroscope, w1 = samples[k + 1].measurement.gyroscope, w2 = samples[k + 2].measurement.gyroscope
            let a0 = samples[k].measurement.accelerometer, a1 = samples[k + 1].measurement.accelerometer, a2 = samples[k + 2].measurement.accelerometer
            // Rotation by RK4 on the quaternion, then position/velocity with the rotations at the RK4 nodes.
            func qdot(_ q: Quaternion, _ w: Vector3) -> Quaternion {
                let d = q * Quaternion(w: 0, vector: w)
                return Quaternion(w: 0.5 * d.w, x: 0.5 * d.x, y: 0.5 * d.y, z: 0.5 * d.z)
            }
            func add(_ q: Quaternion, _ d: Quaternion, _ s: Double) -> Quaternion {
                Quaternion(w: q.w + s * d.w, x: q.x + s * d.x, y: q.y + s * d.y, z: q.z + s * d.z)
            }
            let q = r.quaternion
            let k1 = qdot(q, w0), k2 = qdot(add(q, k1, h / 2), w1), k3 = qdot(add(q, k2, h / 2), w1), k4 = qdot(add(q, k3, h), w2)
            let qNext = Quaternion(w: q.w + h / 6 * (k1.w + 2 * k2.w + 2 * k3.w + k4.w), x: q.x + h / 6 * (k1.x + 2 * k2.x + 2 * k3.x + k4.x),
                                   y: q.y + h / 6 * (k1.y + 2 * k2.y + 2 * k3.y + k4.y), z: q.z + h / 6 * (k1.z + 2 * k2.z + 2 * k3.z + k4.z))
            // R(t + h/2) by an RK4 half step; ω(t + h/4) from the quadratic through the three samples.
            let wQuarter = 0.375 * w0 + 0.75 * w1 - 0.125 * w2
            let m1 = k1, m2 = qdot(add(q, m1, h / 4), wQuarter), m3 = qdot(add(q, m2, h / 4), wQuarter), m4 = qdot(add(q, m3, h / 2), w1)
            let rMid = SO3(Quaternion(w: q.w + h / 12 * (m1.w + 2 * m2.w + 2 * m3.w + m4.w), x: q.x + h / 12 * (m1.x + 2 * m2.x + 2 * m3.x + m4.x),
                                      y: q.y + h / 12 * (m1.y + 2 * m2.y + 2 * m3.y + m4.y), z: q.z + h / 12 * (m1.z + 2 * m2.z + 2 * m3.z + m4.z)))
            let f0 = r * a0 + g, f1 = rMid * a1 + g, f2 = SO3(qNext) * a2 + g
            // Simpson's rule on v and on p (p uses v at the nodes).
            let v1 = v + h / 2 * (5 * f0 + 8 * f1 - f2) / 12
            let vNext = v + h / 6 * (f0 + 4 * f1 + f2)
            p += h / 6 * (v + 4 * v1 + vNext)
            v = vNext
            r = SO3(qNext)
            k += 2
        }
        return SE3(rotation: r, translation: p)
    }

    @Test func noiselessIMUIntegratesBackToTheSplinePose() {
        let imu = IMUSimulator.ideal(rateHz: 200)
        let t0 = 0.5
        let samples = imu.simulate(spline, from: t0, duration: 10, seed: 1)
        #expect(samples.count == 2001)
        let start = spline.evaluate(t0)
        let end = integrate(samples, from: (start.pose, start.velocity), gravity: imu.gravity)
        let truth = spline.pose(at: t0 + 10)
        let positionError = (end.translation - truth.translation).norm
        #expect(positionError < 1e-6, "position error after 10 s: \(positionError) m")
        #expect((end.rotation.inverse * truth.rotation).angle < 1e-8)
    }

    @Test func sameSeedGivesBitIdenticalSamples() {
        let imu = IMUSimulator(noise: SimulationFixtures.euroc, rateHz: 200)
        let a = imu.simulate(spline, from: 1, duration: 2, seed: 42), b = imu.simulate(spline, from: 1, duration: 2, seed: 42)
        #expect(a.map(\.measurement) == b.map(\.measurement))
        let c = imu.simulate(spline, from: 1, duration: 2, seed: 43)
        #expect(a.map(\.measurement) != c.map(\.measurement))
    }

    @Test func noiseMatchesTheRequestedDensitiesByAllanDeviation() {
        // Static body: the measurement minus truth is pure sensor error.
        let still = SE3Spline(start: 0, interval: 1, controlPoses: [SE3](repeating: .identity, count: 1205))
        var white = SimulationFixtures.euroc
        white.gyroscopeRandomWalk = 0
        white.accelerometerRandomWalk = 0
        let samples = IMUSimulator(noise: white, rateHz: 200).simulate(still, from: 1, duration: 600, seed: 7)
        let gx = samples.map(\.measurement.gyroscope.x)
        let ax = samples.map { $0.measurement.accelerometer.x }
        // White noise: σ_A(τ) = σ_c / √τ; at τ = 1 s it equals the density.
        let gyroAllan = AllanDeviation.overlapping(gx, clusterSize: 200)
        let accelAllan = AllanDeviation.overlapping(ax, clusterSize: 200)
        #expect(abs(gyroAllan / white.gyroscopeNoiseDensity - 1) < 0.1, "gyro σ_A(1 s) = \(gyroAllan)")
        #expect(abs(accelAllan / white.accelerometerNoiseDensity - 1) < 0.1, "accel σ_A(1 s) = \(accelAllan)")
        // Bias random walk alone: σ_A(τ) = σ_b √(τ/3); check at τ = 10 s.
        var walk = SimulationFixtures.euroc
        walk.gyroscopeNoiseDensity = 0
        walk.accelerometerNoiseDensity = 0
        let drift = IMUSimulator(noise: walk, rateHz: 200).simulate(still, from: 1, duration: 1200, seed: 8)
        let expected = walk.gyroscopeRandomWalk * (10.0 / 3).squareRoot()
        let measured = AllanDeviation.overlapping(drift.map(\.measurement.gyroscope.y), clusterSize: 2000)
        #expect(abs(measured / expected - 1) < 0.25, "gyro random walk σ_A(10 s) = \(measured), expected \(expected)")
    }
}
