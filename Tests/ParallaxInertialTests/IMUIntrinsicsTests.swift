import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxSim
@testable import ParallaxInertial

@Suite struct IMUIntrinsicsTests {
    static let spline = SyntheticMotion.orbit(seconds: 12)

    func measurements(from: Double, seconds: Double) -> [IMUMeasurement] {
        IMUSimulator.ideal(rateHz: 200).simulate(Self.spline, from: from, duration: seconds, seed: 1).map {
            IMUMeasurement(time: $0.timestamp.seconds, gyroscope: $0.measurement.gyroscope, accelerometer: $0.measurement.accelerometer)
        }
    }

    func truth(at t: Double) -> InertialState {
        let s = Self.spline.evaluate(t)
        return InertialState(rotation: s.pose.rotation, position: s.pose.translation, velocity: s.velocity,
                             gyroscopeBias: Vector3(0.002, -0.001, 0.003), accelerometerBias: Vector3(0.05, -0.02, 0.03))
    }

    /// The error (δθ, δp, δv) of `x` from `reference`, as the filter defines it.
    func error(_ x: InertialState, from reference: InertialState) -> [Double] {
        let r = (reference.rotation.inverse * x.rotation).log, p = x.position - reference.position, v = x.velocity - reference.velocity
        return [r.x, r.y, r.z, p.x, p.y, p.z, v.x, v.y, v.z]
    }

    @Test func psiIsTheDerivativeOfThePropagatedStateByTheScales() throws {
        // Central differences of the propagated rotation, position and velocity over 0.5 s of a
        // turning, accelerating orbit, one scale at a time, against Ψ's columns.
        let t0 = Self.spline.validRange.lowerBound + 2
        let data = measurements(from: t0, seconds: 0.51)
        let propagation = IMUPropagation(noise: .init(gyroscopeNoiseDensity: 1e-4, gyroscopeRandomWalk: 1e-5,
                                                      accelerometerNoiseDensity: 1e-3, accelerometerRandomWalk: 1e-4))
        let base = IMUIntrinsics(accelerometerScale: Vector3(0.003, -0.002, 0.001), gyroscopeScale: Vector3(-0.001, 0.002, 0.004))
        let (center, interval) = try propagation.propagate(truth(at: t0), data, from: t0, to: t0 + 0.5, intrinsics: base, intrinsicsJacobian: true)
        let psi = try #require(interval.intrinsicsTransition)
        #expect(psi.rows == 15 && psi.columns == IMUIntrinsics.errorDimension)
        let h = 1e-4
        for column in 0..<IMUIntrinsics.errorDimension {
            var dx = [Double](repeating: 0, count: 6)
            dx[column] = h
            let plus = base.corrected(by: dx[...])
            dx[column] = -h
            let minus = base.corrected(by: dx[...])
            let (xp, _) = try propagation.propagate(truth(at: t0), data, from: t0, to: t0 + 0.5, intrinsics: plus)
            let (xm, _) = try propagation.propagate(truth(at: t0), data, from: t0, to: t0 + 0.5, intrinsics: minus)
            let ep = error(xp, from: center), em = error(xm, from: center)
            for row in 0..<9 {
                let numeric = (ep[row] - em[row]) / (2 * h)
                // Φ's own blocks are linearized at each step's start (the bias blocks alike): the
                // velocity's dependence on a gyroscope scale, through the turned force, comes out
                // within a few percent of the exact derivative, the direct terms within 1 %.
                let scale = max(1e-3, abs(numeric))
                #expect(abs(psi[row, column] - numeric) <= 0.05 * scale,
                        "Ψ[\(row), \(column)] = \(psi[row, column]), central difference \(numeric)")
            }
            // The biases do not depend on the scales.
            for row in 9..<15 { #expect(psi[row, column] == 0) }
        }
    }

    @Test func aScaleErrorIsCorrectedOutOfTheReadings() throws {
        // Readings of an IMU whose accelerometer reads 1 % high on x and gyroscope 2 % low on z:
        // propagated with those scales known, the truth comes back; taken as they are, it does not.
        let t0 = Self.spline.validRange.lowerBound + 1
        let scale = IMUIntrinsics(accelerometerScale: Vector3(-0.01 / 1.01, 0, 0), gyroscopeScale: Vector3(0, 0, 0.02 / 0.98))
        let clean = measurements(from: t0, seconds: 1.01)
        let bias = truth(at: t0)
        // Reading = true / (1 + s) + bias, so that (1 + s)(reading − bias) is the truth.
        let read = clean.map { m in
            IMUMeasurement(time: m.time,
                           gyroscope: m.gyroscope / (Vector3(1, 1, 1) + scale.gyroscopeScale) + bias.gyroscopeBias,
                           accelerometer: m.accelerometer / (Vector3(1, 1, 1) + scale.accelerometerScale) + bias.accelerometerBias)
        }
        let propagation = IMUPropagation(noise: .init(gyroscopeNoiseDensity: 1e-4, gyroscopeRandomWalk: 1e-5,
                                                      accelerometerNoiseDensity: 1e-3, accelerometerRandomWalk: 1e-4))
        let end = truth(at: t0 + 1)
        let (known, _) = try propagation.propagate(bias, read, from: t0, to: t0 + 1, intrinsics: scale)
        let (ignored, _) = try propagation.propagate(bias, read, from: t0, to: t0 + 1)
        #expect((known.position - end.position).norm < 2e-3, "\((known.position - end.position).norm) m")
        #expect((known.rotation.inverse * end.rotation).angle < 1e-4)
        #expect((ignored.position - end.position).norm > 5 * (known.position - end.position).norm)
        #expect((ignored.rotation.inverse * end.rotation).angle > 10 * max(1e-6, (known.rotation.inverse * end.rotation).angle))
    }

    @Test func withoutScalesThePropagationIsUnchanged() throws {
        // No intrinsics asked for: no Ψ; zero intrinsics asked for: the same state and Φ, bit for bit.
        let t0 = Self.spline.validRange.lowerBound + 1
        let data = measurements(from: t0, seconds: 0.31)
        let propagation = IMUPropagation(noise: .init(gyroscopeNoiseDensity: 1e-4, gyroscopeRandomWalk: 1e-5,
                                                      accelerometerNoiseDensity: 1e-3, accelerometerRandomWalk: 1e-4))
        let (a, plain) = try propagation.propagate(truth(at: t0), data, from: t0, to: t0 + 0.3)
        let (b, withPsi) = try propagation.propagate(truth(at: t0), data, from: t0, to: t0 + 0.3, intrinsics: .none, intrinsicsJacobian: true)
        #expect(plain.intrinsicsTransition == nil)
        #expect(a == b)
        #expect(plain.transition.elements == withPsi.transition.elements)
        #expect(plain.noise.elements == withPsi.noise.elements)
        #expect(withPsi.intrinsicsTransition.map { $0.elements.contains { $0 != 0 } } == true)
    }
}
