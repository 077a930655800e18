import Foundation
import Testing
import ParallaxImage
import ParallaxGeometry
import ParallaxMath
import VisionTestSupport
@testable import ParallaxVision

@Suite struct FundamentalMatrixTests {
    @Test func eightPointFitsTwoViews() throws {
        // Random 3D points seen by two cameras (K·[R|t]): the epipolar constraint holds exactly.
        var rng = SeededGenerator(seed: 3)
        let k = Matrix3(rows: Vector3(400, 0, 320), Vector3(0, 400, 240), Vector3(0, 0, 1))
        let r = SO3.exp(Vector3(0.05, -0.1, 0.02)), t = Vector3(0.3, 0.05, 0.02)
        var a: [Vector2] = [], b: [Vector2] = []
        for _ in 0..<40 {
            let p = Vector3(Double.random(in: -2...2, using: &rng), Double.random(in: -1.5...1.5, using: &rng), Double.random(in: 3...8, using: &rng))
            let q = r * p + t
            let pa = k * p, pb = k * q
            a.append(Vector2(pa.x / pa.z, pa.y / pa.z)); b.append(Vector2(pb.x / pb.z, pb.y / pb.z))
        }
        let f = try #require(FundamentalMatrix.eightPoint(a, b))
        for (p, q) in zip(a, b) { #expect(FundamentalMatrix.sampsonError(f, p, q) < 1e-6) }
        #expect(FundamentalMatrix.sampsonError(f, a[0], b[0] + Vector2(0, 5)) > 0.5)
        #expect(FundamentalMatrix.eightPoint(Array(a.prefix(7)), Array(b.prefix(7))) == nil)
    }
}
