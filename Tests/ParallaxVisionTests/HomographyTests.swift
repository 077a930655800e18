import Foundation
import Testing
import ParallaxEval
import ParallaxImage
import ParallaxGeometry
import ParallaxMath
import VisionTestSupport
@testable import ParallaxVision

@Suite struct HomographyTests {
    let truth = Matrix3(rows: Vector3(1.2, 0.1, 15), Vector3(-0.05, 0.9, -8), Vector3(2e-4, -1e-4, 1))

    func points(_ n: Int, seed: UInt64) -> [Vector2] {
        var rng = SeededGenerator(seed: seed)
        return (0..<n).map { _ in Vector2(Double.random(in: 0...640, using: &rng), Double.random(in: 0...480, using: &rng)) }
    }

    @Test func directLinearTransformIsExactOnFourAndManyPoints() throws {
        for n in [4, 50] {
            let a = points(n, seed: UInt64(n)), b = a.map { truth.transferring($0)! }
            let h = try #require(Homography.directLinearTransform(a, b))
            for i in 0..<9 { #expect(abs(h[i / 3, i % 3] - truth[i / 3, i % 3]) < 1e-8 * max(1, abs(truth[i / 3, i % 3]))) }
        }
    }

    @Test func degenerateSamplesAreRefused() {
        let line = (0..<4).map { Vector2(Double($0), 2 * Double($0) + 1) }
        let square = [Vector2(0, 0), Vector2(1, 0), Vector2(0, 1), Vector2(1, 1)]
        #expect(Homography.directLinearTransform(line, square) == nil)
        #expect(Homography.directLinearTransform(square, line) == nil)
        #expect(Homography.directLinearTransform(Array(square.prefix(3)), Array(square.prefix(3))) == nil)
    }

    @Test func ransacFindsTheModelAmongOutliersAndRefinementLowersTheError() throws {
        var rng = SeededGenerator(seed: 7)
        let a = points(300, seed: 3)
        var b = a.map { truth.transferring($0)! + Vector2(rng.nextGaussian(), rng.nextGaussian()) * 0.5 }
        for i in stride(from: 0, to: 300, by: 3) { b[i] = Vector2(Double.random(in: 0...640, using: &rng), Double.random(in: 0...480, using: &rng)) }
        let estimate = try #require(Homography.estimate(a, b, threshold: 3))
        let outliers = Set(stride(from: 0, to: 300, by: 3))
        #expect(estimate.inliers.filter { outliers.contains($0) }.count < 5)
        #expect(estimate.inliers.count >= 190)
        #expect(HomographyMetrics.cornerError(estimated: estimate.homography, truth: truth, width: 640, height: 480) < 0.5)
        // LM on the transfer error never does worse than the algebraic DLT on the same inliers.
        let ia = estimate.inliers.map { a[$0] }, ib = estimate.inliers.map { b[$0] }
        let dlt = try #require(Homography.directLinearTransform(ia, ib))
        let refined = try #require(Homography.refine(dlt, ia, ib))
        func cost(_ h: Matrix3) -> Double { zip(ia, ib).reduce(0) { $0 + pow(Homography.transferError(h, $1.0, $1.1), 2) } }
        #expect(cost(refined) <= cost(dlt))
        // Same seed, same result.
        #expect(Homography.estimate(a, b, threshold: 3)!.homography == estimate.homography)
    }
}
