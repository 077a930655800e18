import Foundation
import Testing
@testable import ParallaxMath

@Suite struct SO3Tests {
    static let axes: [Vector3] = [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1), Vector3(1, -2, 0.5).normalized]
    /// Angles near 0, ordinary ones, and near π.
    static let angles: [Double] = [0, 1e-12, 1e-8, 1e-5, 1e-3, 0.3, 1, 2, 3, .pi - 1e-4, .pi - 1e-8, .pi]

    @Test(arguments: angles)
    func expLogRoundTrip(angle: Double) {
        for axis in Self.axes {
            let phi = axis * angle
            let r = SO3.exp(phi)
            let back = r.log
            if angle < .pi - 1e-6 {
                // Absolute error 1e-15 rad (relative for tiny angles).
                #expect((back - phi).norm <= max(1e-15, 1e-12 * angle), "angle \(angle): \(back) vs \(phi)")
            } else {
                // At π, φ and −φ are the same rotation; compare rotations.
                #expect(abs(back.norm - angle) < 1e-9)
                #expect((SO3.exp(back).matrix - r.matrix).frobeniusNorm < 1e-12)
            }
            #expect(abs(r.angle - angle) <= max(1e-15, 1e-12 * angle) || angle > .pi - 1e-6)
        }
    }

    @Test func expMatchesRodrigues() {
        let phi = Vector3(0.3, -0.2, 0.9)
        let theta = phi.norm
        let k = Matrix3.skew(phi / theta)
        let rodrigues = Matrix3.identity + sin(theta) * k + (1 - cos(theta)) * (k * k)
        #expect((SO3.exp(phi).matrix - rodrigues).frobeniusNorm < 1e-15)
        // Hamilton convention: rotating x by +90° about z gives y.
        #expect(TestSupport.close(SO3.exp(Vector3(0, 0, .pi / 2)) * Vector3(1, 0, 0), Vector3(0, 1, 0), 1e-15))
    }

    @Test func compositionAndInverse() {
        let a = SO3.exp(Vector3(0.1, 0.2, -0.3)), b = SO3.exp(Vector3(-1, 0.5, 2))
        let v = Vector3(1, 2, 3)
        #expect(TestSupport.close((a * b) * v, a * (b * v), 1e-14))
        #expect((a * a.inverse).angle < 1e-15)
        #expect(((a * b).matrix - a.matrix * b.matrix).frobeniusNorm < 1e-14)
    }

    @Test(arguments: [Vector3(0, 0, 0), Vector3(1e-7, 0, 0), Vector3(0.4, -0.2, 0.1), Vector3(1, 2, -1.5)])
    func jacobiansMatchFiniteDifferences(phi: Vector3) {
        let h = 1e-7
        let jl = SO3.leftJacobian(phi), jr = SO3.rightJacobian(phi)
        for i in 0..<3 {
            var d = Vector3.zero
            d[i] = h
            // exp(φ + δ) ≈ exp(Jl δ) exp(φ) ≈ exp(φ) exp(Jr δ)
            let left = (SO3.exp(phi + d) * SO3.exp(phi).inverse).log / h
            let right = (SO3.exp(phi).inverse * SO3.exp(phi + d)).log / h
            #expect(TestSupport.close(left, jl * Vector3(i == 0 ? 1 : 0, i == 1 ? 1 : 0, i == 2 ? 1 : 0), 1e-6))
            #expect(TestSupport.close(right, jr * Vector3(i == 0 ? 1 : 0, i == 1 ? 1 : 0, i == 2 ? 1 : 0), 1e-6))
        }
        #expect((jl * SO3.inverseLeftJacobian(phi) - .identity).frobeniusNorm < 1e-12)
        #expect((jr * SO3.inverseRightJacobian(phi) - .identity).frobeniusNorm < 1e-12)
    }

    @Test func interpolationIsGeodesic() {
        let a = SO3.exp(Vector3(0.1, 0, 0)), b = SO3.exp(Vector3(0.1, 0, 0)) * SO3.exp(Vector3(0, 0, 1))
        let mid = a.interpolated(to: b, t: 0.5)
        #expect(((a.inverse * mid).log - Vector3(0, 0, 0.5)).norm < 1e-14)
        #expect((a.interpolated(to: b, t: 0).log - a.log).norm < 1e-15)
        #expect((a.interpolated(to: b, t: 1).log - b.log).norm < 1e-14)
    }

    @Test func orthonormalizingProjectsOntoSO3() throws {
        var m = SO3.exp(Vector3(0.2, 0.3, 0.4)).matrix
        m[0, 1] += 1e-7
        let r = try SO3(orthonormalizing: m)
        #expect((r.matrix.transposed * r.matrix - .identity).frobeniusNorm < 1e-14)
        #expect((r.matrix - m).frobeniusNorm < 1e-6)
    }

    /// The Newton polar iteration gives the SVD's polar factor `U Vᵀ` (the closest rotation)
    /// for matrices as far from orthonormal as 7-digit files and farther; reflections and
    /// singular matrices are left to the SVD.
    @Test func polarIterationEqualsTheSVDPolarFactor() throws {
        var rng = SeededGenerator(seed: 11)
        for k in 0..<200 {
            var m = SO3.exp(Vector3(Double.random(in: -3...3, using: &rng), Double.random(in: -3...3, using: &rng), Double.random(in: -3...3, using: &rng))).matrix
            let size = [1e-7, 1e-4, 1e-2][k % 3]
            for i in 0..<3 { for j in 0..<3 { m[i, j] += Double.random(in: -size...size, using: &rng) } }
            let polar = try #require(m.nearestRotationByPolarIteration)
            let svd = try SVD(m.matrix)
            let reference = try Matrix3(svd.u.multiplied(by: svd.vt))
            #expect((polar - reference).frobeniusNorm < 1e-13, "perturbation \(size)")
        }
        #expect(Matrix3.diagonal(Vector3(1, 1, -1)).nearestRotationByPolarIteration == nil)
        #expect(Matrix3.zero.nearestRotationByPolarIteration == nil)
    }
}
