import Testing
@testable import ParallaxMath

@Suite struct QuaternionTests {
    @Test func matrixRoundTripIncludingHalfTurns() {
        let rotations: [Vector3] = [.zero, Vector3(3.14159, 0, 0), Vector3(0, .pi, 0), Vector3(0, 0, .pi),
                                    Vector3(1, 1, 1).normalized * .pi, Vector3(0.3, -2, 0.1)]
        for phi in rotations {
            let q = SO3.exp(phi).quaternion
            let back = Quaternion(rotationMatrix: q.rotationMatrix)
            // q and −q are the same rotation.
            let same = min((back.vector - q.vector).norm + abs(back.w - q.w), (back.vector + q.vector).norm + abs(back.w + q.w))
            #expect(same < 1e-12, "\(phi)")
        }
    }

    @Test func hamiltonProductRule() {
        let i = Quaternion(w: 0, x: 1, y: 0, z: 0), j = Quaternion(w: 0, x: 0, y: 1, z: 0)
        #expect(i * j == Quaternion(w: 0, x: 0, y: 0, z: 1))
        #expect(j * i == Quaternion(w: 0, x: 0, y: 0, z: -1))
    }

    @Test func rotateAgreesWithMatrix() {
        let q = SO3.exp(Vector3(0.5, -0.1, 1.2)).quaternion
        let v = Vector3(0.3, 4, -2)
        #expect(TestSupport.close(q.rotate(v), q.rotationMatrix * v, 1e-14))
    }

    @Test func slerpTakesShortArc() {
        let a = Quaternion.identity
        let b = SO3.exp(Vector3(0, 0, 1)).quaternion
        let negB = Quaternion(w: -b.w, x: -b.x, y: -b.y, z: -b.z)
        let mid = SO3(a.slerp(to: negB, t: 0.5))
        #expect((mid.log - Vector3(0, 0, 0.5)).norm < 1e-14)
    }
}
