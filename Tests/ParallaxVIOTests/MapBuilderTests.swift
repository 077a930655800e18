import Testing
import ParallaxGeometry
import ParallaxMath
import ParallaxVision
@testable import ParallaxVIO

/// The world map as odometry goes: keyframes spaced by motion, the mapping status's rule, and
/// which points enter the map.
@Suite struct MapBuilderTests {
    @Test func keyframesAreSpacedAndTheStatusFollowsItsRule() {
        var b = MapBuilder(minDistance: 0.2, minAngleDegrees: 10, maxPointSigma: 0.05, base: nil)
        let d = BinaryDescriptor(words: SIMD4(7, 7, 7, 7))
        func pose(_ x: Double, yawDegrees: Double = 0) -> SE3 { SE3(rotation: SO3.exp(Vector3(0, 0, yawDegrees * .pi / 180)), translation: Vector3(x, 0, 0)) }
        #expect(b.status(at: pose(0), time: 0, tracking: .limited(.initializing)) == .notAvailable)
        #expect(b.status(at: pose(0), time: 0, tracking: .normal) == .limited)   // fewer than 3 keyframes
        for (k, x) in [0.0, 0.25, 0.5].enumerated() {
            #expect(b.wantsKeyframe(at: pose(x)))
            b.add(MapBuilder.Keyframe(time: Int64(k), worldFromCamera: pose(x), features: [(UInt64(k), Vector2(50, 50), d)]), time: Double(k), tracked: [UInt64(k)])
        }
        #expect(!b.wantsKeyframe(at: pose(0.6)))
        #expect(b.wantsKeyframe(at: pose(0.5, yawDegrees: 12)))
        // New ground, and keyframes too recent to count as mapped: extending.
        #expect(b.status(at: pose(0.55), time: 3, tracking: .normal) == .extending)
        // Back near the first keyframe, made more than 2 s earlier: mapped.
        #expect(b.status(at: pose(0.05), time: 3, tracking: .normal) == .mapped)
        #expect(b.status(at: pose(0.05), time: 3, tracking: .limited(.insufficientFeatures)) == .limited)
        // Points: vague ones stay out; only features with a point enter the map.
        b.record(point: Vector3(1, 1, 1), sigma: 0.01, of: 0)
        b.record(point: Vector3(2, 2, 2), sigma: 0.2, of: 1)
        b.record(point: Vector3(3, 3, 3), sigma: 0.01, of: 99)   // tracked, not yet described …
        #expect(b.points[99] != nil)
        b.add(MapBuilder.Keyframe(time: 9, worldFromCamera: pose(2), features: [(7, Vector2(60, 60), d)]), time: 9, tracked: [7])
        #expect(b.points[99] == nil, "… and no longer tracked: dropped")
        let map = b.worldMap(camera: VIOTestScene.camera.model, bodyFromCamera: .identity)
        #expect(map.points.map(\.position) == [Vector3(1, 1, 1)])
        #expect(map.keyframes.count == 1 && map.keyframes[0].observations.count == 1)   // keyframes without points stay out
    }
}
