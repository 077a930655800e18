import Testing
@testable import ParallaxMath

@Suite struct SE3Tests {
    let a = SE3(rotation: .exp(Vector3(0.1, -0.4, 0.3)), translation: Vector3(1, 2, 3))
    let b = SE3(rotation: .exp(Vector3(-1.2, 0.2, 0.7)), translation: Vector3(-0.5, 0, 4))

    @Test func compositionInverseAndPoints() {
        let p = Vector3(0.3, -1, 2)
        #expect(TestSupport.close((a * b) * p, a * (b * p), 1e-14))
        #expect(TestSupport.close((a * a.inverse) * p, p, 1e-14))
        #expect(TestSupport.close(a.inverse * (a * p), p, 1e-14))
    }

    @Test func expLogRoundTrip() {
        for t in [a, b, SE3.identity, SE3(rotation: .exp(Vector3(0, 0, .pi - 1e-6)), translation: Vector3(1, 0, 0))] {
            let (rho, phi) = t.log
            let back = SE3.exp(rho: rho, phi: phi)
            #expect(TestSupport.close(back.translation, t.translation, 1e-9))
            #expect((back.rotation.inverse * t.rotation).angle < 1e-12)
        }
    }

    @Test func interpolationEndpointsAndConstantScrew() {
        #expect(TestSupport.close(a.interpolated(to: b, t: 0).translation, a.translation, 1e-14))
        #expect(TestSupport.close(a.interpolated(to: b, t: 1).translation, b.translation, 1e-13))
        // Two half steps of a screw motion make the full step.
        let half = a.inverse * a.interpolated(to: b, t: 0.5)
        let full = a.inverse * b
        #expect(TestSupport.close((half * half).translation, full.translation, 1e-13))
    }

    @Test func homogeneousMatrixRoundTripAndValidation() throws {
        let back = try SE3(homogeneous: a.matrix)
        #expect(TestSupport.close(back.translation, a.translation, 1e-15))
        #expect((back.rotation.inverse * a.rotation).angle < 1e-14)

        var bad = a.matrix
        bad[3, 0] = 1
        #expect(throws: TransformError.self) { _ = try SE3(homogeneous: bad) }
        var sheared = a.matrix
        sheared[0, 1] += 0.01
        #expect(throws: TransformError.self) { _ = try SE3(homogeneous: sheared) }
        var reflected = Matrix.identity(4)
        reflected[2, 2] = -1
        #expect(throws: TransformError.self) { _ = try SE3(homogeneous: reflected) }
        #expect(throws: LinearAlgebraError.self) { _ = try SE3(homogeneous: Matrix.identity(3)) }
    }
}

@Suite struct Sim3Tests {
    @Test func composeInverseApply() {
        let s = Sim3(scale: 2.5, rotation: .exp(Vector3(0.2, 0.1, -0.3)), translation: Vector3(1, -1, 0.5))
        let t = Sim3(scale: 0.4, rotation: .exp(Vector3(-0.7, 0, 0.2)), translation: Vector3(0, 3, 1))
        let p = Vector3(0.1, 0.2, 0.3)
        #expect(TestSupport.close((s * t) * p, s * (t * p), 1e-14))
        #expect(TestSupport.close(s.inverse * (s * p), p, 1e-14))
        #expect(abs((s * s.inverse).scale - 1) < 1e-15)
        let pose = SE3(rotation: .exp(Vector3(0, 0, 1)), translation: Vector3(1, 1, 1))
        #expect(TestSupport.close(s.apply(to: pose).translation, s * pose.translation, 1e-15))
        let mid = s.interpolated(to: t, t: 0.5)
        #expect(abs(mid.scale - (2.5 * 0.4).squareRoot()) < 1e-15)
    }
}
