import Foundation
import ParallaxGeometry
import ParallaxMath
import Testing
@testable import ParallaxVision

@Suite struct MapLocalizerTests {
    static let camera = CameraModel(width: 752, height: 480, intrinsics: PinholeIntrinsics(fx: 458.654, fy: 457.296, cx: 367.215, cy: 248.375),
                                    distortion: .radialTangential(k1: -0.28340811, k2: 0.07395907, p1: 0.00019359, p2: 1.76187114e-05))

    /// A random descriptor.
    static func descriptor(_ rng: inout SeededGenerator) -> BinaryDescriptor {
        BinaryDescriptor(words: SIMD4(rng.next(), rng.next(), rng.next(), rng.next()))
    }

    /// `d` with `bits` bits flipped.
    static func flipped(_ d: BinaryDescriptor, bits: Int, _ rng: inout SeededGenerator) -> BinaryDescriptor {
        var out = d
        for _ in 0..<bits {
            let k = Int(rng.next() % 256)
            out.words[k >> 6] ^= 1 << UInt64(k & 63)
        }
        return out
    }

    /// A camera looking along world +x, tilted and turned, 3 m from a cloud of points.
    static let worldFromCamera: SE3 = {
        // Camera z forward along world x, x right (−y), y down (−z), then turned 35° in yaw and tilted.
        let base = SO3(Matrix3(rows: Vector3(0, 0, 1), Vector3(-1, 0, 0), Vector3(0, -1, 0)))
        let r = SO3.exp(Vector3(0, 0, 35 * Double.pi / 180)) * base * SO3.exp(Vector3(0.12, -0.05, 0.03))
        return SE3(rotation: r, translation: Vector3(0.4, -1.2, 1.3))
    }()

    /// A map of `count` points in front of ``worldFromCamera`` and the view's pixels and
    /// descriptors: every point seen, with `noisePx` pixel noise and a few bits flipped, plus
    /// `outliers` features with random descriptors.
    static func scene(count: Int, outliers: Int, noisePx: Double, seed: UInt64) -> (map: WorldMap, pixels: [Vector2], query: [BinaryDescriptor?]) {
        var rng = SeededGenerator(seed: seed)
        var map = WorldMap(camera: camera, bodyFromCamera: .identity)
        var pixels: [Vector2] = [], query: [BinaryDescriptor?] = []
        while map.points.count < count {
            let pc = Vector3(Double(rng.next() % 2000) / 1000 - 1, Double(rng.next() % 1400) / 1000 - 0.7, 2 + Double(rng.next() % 3000) / 1000)
            guard let px = camera.project(pc), camera.contains(px, margin: 25) else { continue }
            let d = descriptor(&rng)
            map.points.append(WorldMap.Point(position: worldFromCamera * pc, descriptors: [d]))
            pixels.append(px + Vector2(noisePx * rng.nextGaussian(), noisePx * rng.nextGaussian()))
            query.append(flipped(d, bits: 12, &rng))
        }
        for _ in 0..<outliers {
            pixels.append(Vector2(Double(30 + rng.next() % 690), Double(30 + rng.next() % 420)))
            query.append(descriptor(&rng))
        }
        return (map, pixels, query)
    }

    @Test func gravityAlignedPoseIsExactOnThreePoints() throws {
        let truth = Self.worldFromCamera
        let points = [Vector3(0.3, -0.2, 2.5), Vector3(-0.6, 0.4, 3.1), Vector3(0.1, 0.5, 4.0)].map { truth * $0 }
        let normalized = points.map { p -> Vector2 in let c = truth.inverse * p; return Vector2(c.x / c.z, c.y / c.z) }
        let found = try #require(MapLocalizer.gravityAlignedPose(model: points, normalized: normalized, worldFromCameraTilt: truth.rotation.matrix))
        #expect((found.inverse.translation - truth.translation).norm < 1e-9)
        #expect((found.inverse.rotation.inverse * truth.rotation).angle < 1e-9)
        // The tilt alone is what it uses: a camera yawed by 50° more gives the same answer.
        let yawed = SO3.exp(Vector3(0, 0, 0.87)) * truth.rotation
        let again = try #require(MapLocalizer.gravityAlignedPose(model: points, normalized: normalized, worldFromCameraTilt: yawed.matrix))
        #expect((again.inverse.translation - truth.translation).norm < 1e-9)
    }

    @Test func localizesAViewWithOutliers() throws {
        let (map, pixels, query) = Self.scene(count: 150, outliers: 150, noisePx: 0.5, seed: 3)
        // The odometry's attitude: the true tilt, yaw off by 70° (another frame).
        let tilt = SO3.exp(Vector3(0, 0, -1.2)) * Self.worldFromCamera.rotation
        let result = MapLocalizer(map: map).localize(pixels: pixels, query: query, camera: Self.camera, tilt: tilt)
        guard case let .success(found) = result else { Issue.record("not localized: \(result)"); return }
        #expect((found.worldFromCamera.translation - Self.worldFromCamera.translation).norm < 0.01)
        #expect((found.worldFromCamera.rotation.inverse * Self.worldFromCamera.rotation).angle * 180 / .pi < 0.2)
        #expect(found.inliers.count >= 140)
        #expect(found.inliers.allSatisfy { $0.query == $0.point })
        #expect(found.rmsPixels < 1.5)
    }

    @Test func aWrongTiltIsRefused() {
        let (map, pixels, query) = Self.scene(count: 150, outliers: 0, noisePx: 0.5, seed: 4)
        // An IMU that says the camera is tilted 8° otherwise: the pose that fits the points is refused.
        let tilt = Self.worldFromCamera.rotation * SO3.exp(Vector3(0.14, 0, 0))
        let result = MapLocalizer(map: map).localize(pixels: pixels, query: query, camera: Self.camera, tilt: tilt)
        if case .success = result { Issue.record("localized against gravity") }
    }

    @Test func anotherPlaceIsNotFound() {
        let (map, _, _) = Self.scene(count: 300, outliers: 0, noisePx: 0.5, seed: 5)
        let (_, pixels, query) = Self.scene(count: 200, outliers: 100, noisePx: 0.5, seed: 6)
        let result = MapLocalizer(map: map).localize(pixels: pixels, query: query, camera: Self.camera, tilt: Self.worldFromCamera.rotation)
        // Random descriptors of another place: (almost) nothing passes the distance and ratio tests.
        switch result {
        case let .failure(.tooFewMatches(n)): #expect(n < 20)
        case .failure(.tooFewInliers): break
        case let other: Issue.record("another place: \(other)")
        }
    }

    @Test func aPointSeenFromSeveralKeyframesDoesNotFailTheRatioTest() {
        var rng = SeededGenerator(seed: 9)
        let d = Self.descriptor(&rng)
        let other = Self.descriptor(&rng)
        let map = WorldMap(camera: Self.camera, bodyFromCamera: .identity,
                           points: [WorldMap.Point(position: .zero, descriptors: [d, Self.flipped(d, bits: 2, &rng)]),
                                    WorldMap.Point(position: .zero, descriptors: [other])])
        let matches = MapLocalizer(map: map).match([Self.flipped(d, bits: 3, &rng)])
        #expect(matches.map(\.point) == [0])
    }
}
