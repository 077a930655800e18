import Foundation
import Testing
import ParallaxImage
import ParallaxGeometry
import ParallaxMath
import VisionTestSupport
@testable import ParallaxVision

@Suite struct MultiViewTriangulationTests {
    /// Cameras on a 1 m baseline looking at points 1–5 m away.
    func views(of point: Vector3, noise: Double = 0, seed: UInt64 = 1) -> [MultiViewTriangulation.Observation] {
        var rng = SeededGenerator(seed: seed)
        return (0..<5).map { k in
            let pose = SE3(rotation: .exp(Vector3(0, 0.05 * Double(k), 0)), translation: Vector3(0.25 * Double(k), 0, 0))
            let c = pose.inverse * point
            return .init(worldFromCamera: pose, normalized: Vector2(c.x / c.z, c.y / c.z) + Vector2(rng.nextGaussian(), rng.nextGaussian()) * noise)
        }
    }

    @Test func exactObservationsGiveTheExactPoint() throws {
        for point in [Vector3(0.3, -0.2, 1.0), Vector3(-1, 0.5, 3), Vector3(0.5, 0.1, 5)] {
            let r = try MultiViewTriangulation.triangulate(views(of: point), minParallaxDegrees: 1, maxRMSNormalized: 1e-3).get()
            #expect((r.position - point).norm < 1e-9)
            #expect(r.rmsNormalized < 1e-12)
        }
    }

    @Test func noisyObservationsStayWithinTheirCovariance() throws {
        // 1 px noise at f = 460 px; the error should be consistent with the reported covariance.
        let sigma = 1.0 / 460
        var normalizedSquared: [Double] = []
        for seed in 1...60 {
            let point = Vector3(0.2, -0.1, 3)
            let r = try MultiViewTriangulation.triangulate(views(of: point, noise: sigma, seed: UInt64(seed)), minParallaxDegrees: 1, maxRMSNormalized: 10 * sigma).get()
            let cov = (sigma * sigma) * r.covariance
            let e = r.position - point
            if let inv = cov.inverse { normalizedSquared.append(e.dot(inv * e)) }
        }
        // Mean Mahalanobis² of a 3-D Gaussian is 3.
        let mean = normalizedSquared.reduce(0, +) / Double(normalizedSquared.count)
        #expect(mean > 1.5 && mean < 5, "mean normalized squared error \(mean)")
    }

    @Test func rejectsBadGeometry() {
        let point = Vector3(0, 0, 4)
        let same = Array(repeating: views(of: point)[0], count: 3)
        #expect(throws: MultiViewTriangulation.Rejection.lowParallax) { try MultiViewTriangulation.triangulate(same, minParallaxDegrees: 1, maxRMSNormalized: 1).get() }
        #expect(throws: MultiViewTriangulation.Rejection.tooFewObservations) { try MultiViewTriangulation.triangulate([views(of: point)[0]], minParallaxDegrees: 1, maxRMSNormalized: 1).get() }
        var outlier = views(of: point)
        outlier[2].normalized += Vector2(0.05, 0)
        #expect(throws: MultiViewTriangulation.Rejection.highReprojectionError) { try MultiViewTriangulation.triangulate(outlier, minParallaxDegrees: 1, maxRMSNormalized: 2.0 / 460).get() }
    }
}
