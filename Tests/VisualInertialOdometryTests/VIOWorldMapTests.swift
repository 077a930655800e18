import Foundation
import Parallax
import ParallaxTesting
import ParallaxVision
import Testing
@testable import VisualInertialOdometry

/// The world-map side of `vio`: bad maps are clear errors when the run opens, the map builder's
/// rules, and the filter's move into the map's frame. (Relocalization on rendered images is
/// measured by scripts/map-relocalization.)
@Suite struct VIOWorldMapTests {
    static let camera = VIOAnalyzerTests.camera

    static func map(camera: CameraModel, bodyFromCamera: SE3) -> WorldMap {
        WorldMap(camera: camera, bodyFromCamera: bodyFromCamera, keyframes: [],
                 points: [WorldMap.Point(position: Vector3(1, 2, 3), sigma: 0.01, descriptors: [BinaryDescriptor(words: SIMD4(1, 2, 3, 4))])])
    }

    /// The failure of a run whose `vio` loads the map file at `path`.
    static func failure(loading path: String) throws -> String {
        var options = VIOAnalyzer.Options()
        options.images = "cam0"
        options.map = path
        var harness = AnalyzerHarness { try VIOAnalyzer(options: options) }
        harness.describe(StreamKey<FeatureTracks>("cam0/tracks"), as: StreamMetadata(camera: camera))
        harness.describe(StreamKey<IMUSample>("imu0"), as: StreamMetadata(imu: IMUCalibration(rateHz: 200, noise: VIOAnalyzerTests.imuNoise)))
        harness.describe(StreamKey<CameraFrame>("cam0"), as: StreamMetadata(camera: camera))
        harness.push(FeatureTracks(camera: "cam0", imageWidth: 376, imageHeight: 240, features: [], ended: []),
                     on: StreamKey<FeatureTracks>("cam0/tracks"), at: Timestamp(nanoseconds: 1))
        let result = try harness.run()
        guard let failure = result.failure else { return "" }
        #expect(failure.isBadInput, "a bad map is bad input (exit 2)")
        return "\(failure)"
    }

    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)").path
    }

    @Test func aMapNeedsTheImages() {
        var options = VIOAnalyzer.Options()
        options.map = "place.pxmap"
        #expect(throws: AnalyzerError.invalidOption(analyzer: "vio", option: "map", reason: "relocalizing needs the camera's images: give images= (e.g. images=cam0)")) {
            try VIOAnalyzer(options: options)
        }
    }

    @Test func aTamperedTruncatedOrMissingMapIsAClearError() throws {
        let good = Self.map(camera: Self.camera.model, bodyFromCamera: Self.camera.bodyFromSensor)
        var bytes = WorldMapFile.encode(good)
        let tampered = Self.temporary("tampered.pxmap"), truncated = Self.temporary("truncated.pxmap")
        defer { for p in [tampered, truncated] { try? FileManager.default.removeItem(atPath: p) } }
        try Data(bytes.prefix(bytes.count - 7)).write(to: URL(fileURLWithPath: truncated))
        bytes[bytes.count - 3] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: tampered))
        #expect(try Self.failure(loading: tampered).contains("\(tampered): world map checksum mismatch"))
        #expect(try Self.failure(loading: truncated).contains("\(truncated): truncated world map"))
        #expect(try Self.failure(loading: "/nonexistent/place.pxmap").contains("option 'map': /nonexistent/place.pxmap: cannot read world map"))
    }

    @Test func aMapOfAnotherCalibrationIsRefused() throws {
        var other = Self.camera.model
        other.intrinsics.fx *= 1.01
        let path = Self.temporary("other.pxmap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try WorldMapFile.write(Self.map(camera: other, bodyFromCamera: Self.camera.bodyFromSensor), to: path)
        let failure = try Self.failure(loading: path)
        #expect(failure.contains("was made with another camera calibration") && failure.contains("intrinsics"), "\(failure)")
        // The right calibration opens (and, with one empty frame, finishes).
        try WorldMapFile.write(Self.map(camera: Self.camera.model, bodyFromCamera: Self.camera.bodyFromSensor), to: path)
        #expect(try Self.failure(loading: path) == "")
    }

    @Test func keyframesAreSpacedAndTheStatusFollowsItsRule() {
        var b = MapBuilder(minDistance: 0.2, minAngleDegrees: 10, maxPointSigma: 0.05, base: nil)
        let d = BinaryDescriptor(words: SIMD4(7, 7, 7, 7))
        func pose(_ x: Double, yawDegrees: Double = 0) -> SE3 { SE3(rotation: SO3.exp(Vector3(0, 0, yawDegrees * .pi / 180)), translation: Vector3(x, 0, 0)) }
        #expect(b.status(at: pose(0), time: 0, tracking: .limited(.initializing)) == .notAvailable)
        #expect(b.status(at: pose(0), time: 0, tracking: .normal) == .limited)   // fewer than 3 keyframes
        for (k, x) in [0.0, 0.25, 0.5].enumerated() {
            #expect(b.wantsKeyframe(at: pose(x)))
            b.add(MapBuilder.Keyframe(time: Timestamp(nanoseconds: Int64(k)), worldFromCamera: pose(x), features: [(UInt64(k), Vector2(50, 50), d)]), time: Double(k), tracked: [UInt64(k)])
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
        b.add(MapBuilder.Keyframe(time: Timestamp(nanoseconds: 9), worldFromCamera: pose(2), features: [(7, Vector2(60, 60), d)]), time: 9, tracked: [7])
        #expect(b.points[99] == nil, "… and no longer tracked: dropped")
        let map = b.worldMap(camera: Self.camera.model, bodyFromCamera: .identity)
        #expect(map.points.map(\.position) == [Vector3(1, 1, 1)])
        #expect(map.keyframes.count == 1 && map.keyframes[0].observations.count == 1)   // keyframes without points stay out
    }

    @Test func movingTheFilterIntoTheMapFrameTurnsStateAndCovariance() throws {
        let state = InertialState(rotation: SO3.exp(Vector3(0.1, 0.2, 0.3)), position: Vector3(1, 2, 3), velocity: Vector3(0.5, 0, 0))
        var p = Matrix(rows: 15, columns: 15)
        for i in 0..<15 { p[i, i] = 1e-4 }
        p[3, 3] = 4e-4   // position x more uncertain than y
        var f = MSCKF(state: state, time: 0, covariance: p, calibration: .init(imuFromCamera: .identity, timeOffset: 0),
                      propagation: IMUPropagation(noise: VIOAnalyzerTests.imuNoise), normalizedNoise: 0.001)
        f.clone(at: Timestamp(nanoseconds: 0), angularRate: .zero)
        try f.moveWorld(yaw: .pi / 2, translation: Vector3(10, 0, 0), positionVariance: 1e-6)
        // x' = R_z(90°) x + t: (1, 2, 3) → (−2 + 10, 1, 3); velocity (0.5, 0, 0) → (0, 0.5, 0).
        #expect((f.state.position - Vector3(8, 1, 3)).norm < 1e-12)
        #expect((f.state.velocity - Vector3(0, 0.5, 0)).norm < 1e-12)
        #expect((f.clones[0].position - Vector3(8, 1, 3)).norm < 1e-12)
        #expect((f.state.rotation.inverse * SO3.exp(Vector3(0, 0, .pi / 2)) * state.rotation).angle < 1e-12)
        // The uncertain x is now y; the common shift adds to every position block, correlated.
        #expect(abs(f.covariance[3, 3] - (1e-4 + 1e-6)) < 1e-12 && abs(f.covariance[4, 4] - (4e-4 + 1e-6)) < 1e-12)
        let c = f.cloneOffset(0) + 3
        #expect(abs(f.covariance[4, c + 1] - (4e-4 + 1e-6)) < 1e-12)
    }
}

/// Relocalization end to end on synthetic tracks whose frames draw every landmark as a patch of
/// its own: a map saved from one run, the same motion run again with it, and a room whose
/// landmarks look otherwise.
@Suite struct VIORelocalizationTests {
    static func run(room: UInt64, map: String? = nil) throws -> AnalyzerHarness.Result {
        var options = VIOAnalyzer.Options()
        options.images = "cam0"
        if let map { options.map = map }
        let (harness, _) = try VIOAnalyzerTests.harness(seconds: 6, pixelNoise: 0.3, trackLength: 40, images: room, options: options)
        return try harness.run()
    }

    @Test func aSavedMapRelocalizesTheSameMotionAndNotAnotherRoom() throws {
        let first = try Self.run(room: 1)
        #expect(first.failure == nil)
        let map = try #require(first.packets(on: "vio/pose-map", as: WorldMap.self).last?.payload)
        #expect(map.keyframes.count >= 5 && map.points.count >= 30, "\(map.keyframes.count) keyframes, \(map.points.count) points")
        let statuses = first.packets(on: "vio/pose-mapping", as: WorldMappingStatus.self).map(\.payload)
        #expect(statuses.first == .notAvailable && statuses.contains(.extending))
        let path = VIOWorldMapTests.temporary("run.pxmap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try WorldMapFile.write(map, to: path)

        let second = try Self.run(room: 1, map: path)
        #expect(second.failure == nil)
        #expect(second.report.warnings.contains { $0.hasPrefix("vio: relocalized into") }, "\(second.report.warnings)")
        let a: [Packet<Pose>] = first.packets(on: "vio/pose"), b: [Packet<Pose>] = second.packets(on: "vio/pose")
        #expect(a.count == b.count)
        // Before relocalizing: no pose in the map's frame; after: the first run's poses, with no alignment.
        var squares: [Double] = []
        for (pa, pb) in zip(a, b) where pb.payload.trackingState == .normal && pa.payload.trackingState == .normal {
            squares.append((pa.payload.worldFromBody.translation - pb.payload.worldFromBody.translation).squaredNorm)
        }
        #expect(squares.count >= a.count / 2)
        // The runs agree to the map's own error (its points were triangulated while the first run converged).
        let rmse = (squares.reduce(0, +) / Double(max(1, squares.count))).squareRoot()
        #expect(rmse < 0.02 && (squares.max() ?? 1).squareRoot() < 0.03, "RMSE \(rmse) m, \(map.points.count) points")
        // Once its filter runs it is relocalizing (no pose in the map's frame) until it has found
        // itself in the map: here within the 1.5 s still start (30 frames), whose view has no
        // points in the map (standing still gives no parallax to triangulate them).
        let running = b.filter { $0.payload.trackingState != .limited(.initializing) }
        let waiting = running.prefix { $0.payload.trackingState == .limited(.relocalizing) }.count
        #expect(waiting > 0 && waiting <= 30 && running.dropFirst(waiting).allSatisfy { $0.payload.trackingState != .limited(.relocalizing) }, "\(waiting) frames relocalizing")

        let other = try Self.run(room: 2, map: path)
        #expect(other.failure == nil)
        #expect(!other.report.warnings.contains { $0.hasPrefix("vio: relocalized into") }, "another room relocalized: \(other.report.warnings)")
        let poses: [Packet<Pose>] = other.packets(on: "vio/pose")
        #expect(poses.allSatisfy { [.limited(.initializing), .limited(.relocalizing), .notAvailable].contains($0.payload.trackingState) })
        #expect(poses.contains { $0.payload.trackingState == .limited(.relocalizing) }, "the filter ran, relocalizing")
    }
}
