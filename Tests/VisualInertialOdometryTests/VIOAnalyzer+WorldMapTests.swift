import Foundation
import Parallax
import ParallaxTesting
import ParallaxVision
import Testing
import VisualInertialOdometry

/// The world-map side of `vio`: bad maps are clear errors when the run opens. (The map builder's
/// rules and the filter's move into the map's frame: ParallaxVIOTests; relocalization on
/// rendered images is measured by scripts/map-relocalization.)
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
        // One frame between two IMU readings: a run that opens and finishes (never started).
        for t in [0, 2_000_000] as [Int64] {
            harness.push(IMUSample(gyroscope: .zero, accelerometer: Vector3(0, 0, 9.81)), on: StreamKey<IMUSample>("imu0"), at: Timestamp(nanoseconds: t))
        }
        harness.push(FeatureTracks(camera: "cam0", imageWidth: 376, imageHeight: 240, features: [], ended: []),
                     on: StreamKey<FeatureTracks>("cam0/tracks"), at: Timestamp(nanoseconds: 1_000_000))
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
        #expect(second.report.notes.contains { $0.hasPrefix("vio: relocalized into") }, "\(second.report.notes)")
        // Found is as it should be: a note, never a warning.
        #expect(!second.report.warnings.contains { $0.contains("relocalized into") }, "\(second.report.warnings)")
        // The calibration estimated online (the default) is said, once.
        #expect(second.report.notes.filter { $0.contains("calibration estimated") }.count == 1, "\(second.report.notes)")
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
        #expect(!other.report.notes.contains { $0.hasPrefix("vio: relocalized into") }, "another room relocalized: \(other.report.notes)")
        // A map given and never found is a warning.
        #expect(other.report.warnings.contains { $0.contains("never relocalized into") }, "\(other.report.warnings)")
        let poses: [Packet<Pose>] = other.packets(on: "vio/pose")
        #expect(poses.allSatisfy { [.limited(.initializing), .limited(.relocalizing), .notAvailable].contains($0.payload.trackingState) })
        #expect(poses.contains { $0.payload.trackingState == .limited(.relocalizing) }, "the filter ran, relocalizing")
    }
}
