import Foundation
import Testing
import ParallaxGeometry
import ParallaxMath
@testable import ParallaxVision

@Suite struct PerspectivePointsPackedTests {
    /// 23 face-like points (not a multiple of four: the last block is padded), their noisy
    /// normalized images and weights, at a pose near the true one.
    static func problem() throws -> (packed: PerspectivePoints.Packed, model: [Vector3], normalized: [Vector2], weights: [Double], pose: SE3) {
        let model = Array(PerspectivePointsTests.faceLike(seed: 5).prefix(23))
        let truth = PerspectivePointsTests.pose(yaw: 0.5, pitch: 0.2)
        var rng = SeededGenerator(seed: 2)
        let normalized = model.map { p -> Vector2 in
            let c = truth * p
            return Vector2(c.x / c.z, c.y / c.z) + 0.004 * Vector2(rng.nextGaussian(), rng.nextGaussian())  // ~2.4 px at f = 600
        }
        let weights = model.indices.map { $0 % 3 == 0 ? 0.25 : 1 }
        let pose = SE3(rotation: SO3.exp(Vector3(0.01, -0.02, 0.015)) * truth.rotation, translation: truth.translation + Vector3(0.002, -0.001, 0.01))
        return (PerspectivePoints.Packed(model: model, normalized: normalized, weights: weights, focal: Vector2(600, 610)), model, normalized, weights, pose)
    }

    /// The weighted Huber cost, and H and g from a central-difference Jacobian of the pixel
    /// errors in the retraction's parameters: an independent check of the closed-form rows.
    static func reference(_ p: (packed: PerspectivePoints.Packed, model: [Vector3], normalized: [Vector2], weights: [Double], pose: SE3), huber: Double)
        -> (cost: Double, h: [[Double]], g: [Double]) {
        let focal = Vector2(600, 610)
        func errors(_ pose: SE3) -> [Vector2] {
            zip(p.model, p.normalized).map { m, n in
                let c = pose * m
                return (Vector2(c.x / c.z, c.y / c.z) - n) * focal
            }
        }
        let e0 = errors(p.pose)
        var jacobian = [[Vector2]](repeating: [], count: 6)
        for k in 0..<6 {
            var d = SIMD8<Double>.zero
            d[k] = 1e-6
            let plus = errors(PerspectivePoints.Packed.retract(p.pose, d))
            d[k] = -1e-6
            let minus = errors(PerspectivePoints.Packed.retract(p.pose, d))
            jacobian[k] = zip(plus, minus).map { ($0 - $1) / 2e-6 }
        }
        var cost = 0.0, h = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 6), g = [Double](repeating: 0, count: 6)
        for i in e0.indices {
            let norm = e0[i].norm
            cost += p.weights[i] * (norm <= huber ? 0.5 * norm * norm : huber * (norm - 0.5 * huber))
            let w = p.weights[i] * (norm <= huber ? 1 : huber / norm)
            for a in 0..<6 {
                g[a] += w * (jacobian[a][i] * e0[i]).sum()
                for b in 0..<6 { h[a][b] += w * (jacobian[a][i] * jacobian[b][i]).sum() }
            }
        }
        return (cost, h, g)
    }

    @Test func equationsMatchANumericalJacobian() throws {
        let p = try Self.problem()
        let reference = Self.reference(p, huber: 2)
        let e = p.packed.equations(at: p.pose, huber: 2)
        #expect(abs(e.cost - reference.cost) <= 1e-12 * reference.cost)
        let h = e.normal.matrix, g = e.normal.vector
        let hScale = reference.h.flatMap { $0 }.map(abs).max() ?? 1, gScale = reference.g.map(abs).max() ?? 1
        for a in 0..<6 {
            #expect(abs(g[a] - reference.g[a]) <= 1e-5 * gScale, "g[\(a)] \(g[a]) vs \(reference.g[a])")
            for b in 0..<6 { #expect(abs(h[a * 6 + b] - reference.h[a][b]) <= 1e-5 * hScale, "H[\(a)][\(b)]") }
        }
    }

    /// Every instruction-set variant of the C pass (portable, AVX2, AVX-512VL; levels the
    /// processor lacks run its best) gives the same bits.
    @Test func everyVariantGivesTheSameBits() throws {
        let p = try Self.problem()
        let results = (0...2).map { p.packed.equations(at: p.pose, huber: 2, level: Int32($0)) }
        for r in results.dropFirst() {
            #expect(r.cost.bitPattern == results[0].cost.bitPattern)
            #expect(zip(r.normal.matrix, results[0].normal.matrix).allSatisfy { $0.bitPattern == $1.bitPattern })
            #expect(zip(r.normal.vector, results[0].normal.vector).allSatisfy { $0.bitPattern == $1.bitPattern })
        }
    }

    @Test func aPointBehindTheCameraMakesTheCostInfinite() throws {
        let p = try Self.problem()
        let turned = SE3(rotation: p.pose.rotation, translation: p.pose.translation - Vector3(0, 0, 0.65))
        #expect(p.packed.equations(at: turned, huber: 2).cost == .infinity)
        #expect(p.packed.equations(at: p.pose, huber: 2).cost.isFinite)
    }

    /// The squared errors the pass sums give the projected RMS for an undistorted camera.
    @Test func squaresGiveTheProjectedRMS() throws {
        let p = try Self.problem()
        let camera = CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 600, fy: 610, cx: 319.5, cy: 239.5))
        let pixels = p.normalized.map { Vector2(600 * $0.x + 319.5, 610 * $0.y + 239.5) }
        let projected = PerspectivePoints.rmsPixels(p.pose, model: p.model, pixels: pixels, camera: camera)
        let squares = p.packed.evaluate(at: p.pose, huber: 2).squares
        #expect(abs((squares / Double(p.model.count)).squareRoot() - projected) <= 1e-9 * projected)
    }
}
