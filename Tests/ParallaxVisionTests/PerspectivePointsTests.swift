import Foundation
import Testing
import ParallaxGeometry
import ParallaxMath
@testable import ParallaxVision

@Suite struct PerspectivePointsTests {
    static let camera = CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 600, fy: 600, cx: 319.5, cy: 239.5))

    /// A face-sized model: 68 points over 14 × 18 cm, their depth a dome 4 cm high (the nose
    /// forward), seeded.
    static func faceLike(seed: UInt64 = 1) -> [Vector3] {
        var rng = SeededGenerator(seed: seed)
        return (0..<68).map { _ in
            let x = (Double(rng.next() % 1000) / 1000 - 0.5) * 0.14, y = (Double(rng.next() % 1000) / 1000 - 0.5) * 0.18
            return Vector3(x, y, 0.04 * max(0, 1 - (x * x + y * y) / 0.01))
        }
    }

    /// The head at 0.6 m turned by yaw and pitch, facing the camera (model +z toward it).
    static func pose(yaw: Double, pitch: Double, roll: Double = 0.1) -> SE3 {
        let facing = SO3.exp(Vector3(0, .pi, 0))  // model +z toward the camera (camera +z away)
        let turn = SO3.exp(Vector3(0, yaw, 0)) * SO3.exp(Vector3(pitch, 0, 0)) * SO3.exp(Vector3(0, 0, roll))
        return SE3(rotation: facing * turn, translation: Vector3(0.05, -0.03, 0.6))
    }

    static func pixels(_ model: [Vector3], _ pose: SE3, noise: Double, seed: UInt64) throws -> [Vector2] {
        var rng = SeededGenerator(seed: seed)
        return try model.map { p in
            let px = try #require(camera.project(pose * p))
            return px + noise * Vector2(rng.nextGaussian(), rng.nextGaussian())
        }
    }

    static func degrees(_ a: SO3, _ b: SO3) -> Double { (a.inverse * b).log.norm * 180 / .pi }

    @Test func exactPixelsGiveTheExactPose() throws {
        let model = Self.faceLike()
        for yaw in stride(from: -1.3, through: 1.3, by: 0.325) {
            let truth = Self.pose(yaw: yaw, pitch: 0.2)
            let solved = try PerspectivePoints.solve(model: model, pixels: try Self.pixels(model, truth, noise: 0, seed: 1), camera: Self.camera)
            #expect(Self.degrees(solved.cameraFromModel.rotation, truth.rotation) < 1e-6, "yaw \(yaw)")
            #expect((solved.cameraFromModel.translation - truth.translation).norm < 1e-8)
            #expect(solved.rmsPixels < 1e-6)
        }
    }

    /// 1 px of noise, yaw 0–75°: a degree or two, and never the mirrored pose.
    @Test func noisyPixelsNeverGiveTheMirroredPose() throws {
        let model = Self.faceLike()
        var worst = 0.0
        for (k, yaw) in stride(from: 0.0, through: 1.3, by: 0.1).enumerated() {
            for pitch in [-0.3, 0.0, 0.3] {
                let truth = Self.pose(yaw: yaw, pitch: pitch)
                let solved = try PerspectivePoints.solve(model: model, pixels: try Self.pixels(model, truth, noise: 1, seed: UInt64(k + 7)), camera: Self.camera)
                worst = max(worst, Self.degrees(solved.cameraFromModel.rotation, truth.rotation))
            }
        }
        #expect(worst < 3)
    }

    /// The shortcuts — the race on a subset of a large model, the second start let go once it
    /// joins the first's minimum — pick the minimum a full race picks: both starts refined to
    /// the end on all points, the lower cost kept. 200 points, yaw 0–75°, near (f = 600 px at
    /// 0.6 m) and nearly orthographic (f = 60 000 px, the mirrored minimum almost as good).
    @Test func shortcutsPickTheMinimumOfAFullRace() throws {
        let model = (1...3).flatMap { Self.faceLike(seed: UInt64($0)) }.prefix(200).map { $0 }
        for focal in [600.0, 60_000] {
            let camera = CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: focal, fy: focal, cx: 319.5, cy: 239.5))
            for (k, yaw) in stride(from: 0.0, through: 1.3, by: 0.325).enumerated() {
                var truth = Self.pose(yaw: yaw, pitch: 0.15)
                truth = SE3(rotation: truth.rotation, translation: truth.translation * (focal / 600))
                var rng = SeededGenerator(seed: UInt64(k + 40))
                let pixels = try model.map { p in try #require(camera.project(truth * p)) + 1.5 * Vector2(rng.nextGaussian(), rng.nextGaussian()) }
                let solved = try PerspectivePoints.solve(model: model, pixels: pixels, camera: camera)
                // The full race.
                let normalized = try pixels.map { try camera.normalized($0) }
                let weights = [Double](repeating: 1, count: model.count)
                let start = try PerspectivePoints.linearStart(model: model, normalized: normalized, weights: weights)
                let d = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, -1))
                let centroid = model.reduce(Vector3.zero, +) / Double(model.count)
                let flippedRotation = SO3(d * start.rotation.matrix * d)
                let flipped = SE3(rotation: flippedRotation, translation: start * centroid - flippedRotation * centroid)
                let focal2 = Vector2(focal, focal)
                let full = [start, flipped].compactMap { try? PerspectivePoints.refine($0, model: model, normalized: normalized, focal: focal2, huber: 2, prior: weights) }
                let best = try #require(full.min { $0.cost < $1.cost })
                #expect(Self.degrees(solved.cameraFromModel.rotation, best.pose.rotation) < 0.01, "f \(focal) yaw \(yaw)")
            }
        }
    }

    @Test func outliersArePulledLessThanByLeastSquares() throws {
        let model = Self.faceLike()
        let truth = Self.pose(yaw: 0.4, pitch: 0.1)
        var px = try Self.pixels(model, truth, noise: 0.5, seed: 3)
        for i in [3, 17, 40] { px[i] += Vector2(40, -25) }  // three landmarks 47 px off
        let robust = try PerspectivePoints.solve(model: model, pixels: px, camera: Self.camera)
        let plain = try PerspectivePoints.solve(model: model, pixels: px, camera: Self.camera, huber: 1e9)
        #expect(Self.degrees(robust.cameraFromModel.rotation, truth.rotation) < Self.degrees(plain.cameraFromModel.rotation, truth.rotation))
        #expect(Self.degrees(robust.cameraFromModel.rotation, truth.rotation) < 1)
    }

    @Test func badInputIsAnErrorNamingWhat() {
        let model = Self.faceLike()
        let px = [Vector2](repeating: Vector2(300, 200), count: model.count)
        #expect(throws: PerspectivePoints.SolveError.tooFewPoints(5)) { _ = try PerspectivePoints.solve(model: Array(model.prefix(5)), pixels: Array(px.prefix(5)), camera: Self.camera) }
        #expect(throws: PerspectivePoints.SolveError.countMismatch(model: 68, pixels: 67)) { _ = try PerspectivePoints.solve(model: model, pixels: Array(px.prefix(67)), camera: Self.camera) }
        var nan = px
        nan[9] = Vector2(.nan, 1)
        #expect(throws: PerspectivePoints.SolveError.notFinite(index: 9)) { _ = try PerspectivePoints.solve(model: model, pixels: nan, camera: Self.camera) }
        // Collinear model points determine no pose.
        let line = (0..<10).map { Vector3(Double($0) * 0.01, 0, 0) }
        #expect(throws: PerspectivePoints.SolveError.self) { _ = try PerspectivePoints.solve(model: line, pixels: (0..<10).map { Vector2(300 + Double($0), 200) }, camera: Self.camera) }
    }
}
