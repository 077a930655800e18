import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxTesting
@testable import Triangulation
@testable import ParallaxVision

@Suite struct TriangulationAnalyzerTests {
    static let camera = CameraCalibration(model: CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 400, fy: 400, cx: 320, cy: 240)))

    /// `points` seen by a camera moving along x for `frames` frames (50 ms apart), with the pose
    /// of frame k reported as `reported(k, truePose)` on `groundtruth`.
    static func run(points: [Vector3], frames: Int, reported: (Int, SE3) -> Pose = { Pose(worldFromBody: $1) }) throws -> AnalyzerHarness.Result {
        var harness = AnalyzerHarness { try TriangulationAnalyzer(options: .init()) }
        harness.describe(StreamKey<FeatureTracks>("cam0/tracks"), as: StreamMetadata(camera: camera))
        for k in 0..<frames {
            let t = Timestamp(nanoseconds: Int64(k) * 50_000_000)
            let pose = SE3(translation: Vector3(0.1 * Double(k), 0.02 * Double(k), 0))
            harness.push(reported(k, pose), on: StreamKey<Pose>("groundtruth"), at: t)
            let features = points.enumerated().map { i, p -> TrackedFeature in
                let c = pose.inverse * p
                let n = Vector2(c.x / c.z, c.y / c.z)
                return TrackedFeature(id: UInt64(i), pixel: Vector2(400 * n.x + 320, 400 * n.y + 240), normalized: n, age: k + 1)
            }
            harness.push(FeatureTracks(camera: "cam0", imageWidth: 640, imageHeight: 480, features: features, ended: []),
                         on: StreamKey<FeatureTracks>("cam0/tracks"), at: t)
        }
        return try harness.run()
    }

    @Test func tracksAndPosesBecomeLandmarks() throws {
        let points = [Vector3(0.3, -0.2, 2), Vector3(-0.5, 0.4, 4), Vector3(0.1, 0.1, 1.5)]
        let landmarks: [Packet<Landmark>] = try Self.run(points: points, frames: 6).packets(on: "landmarks")
        #expect(landmarks.map(\.payload.id) == [0, 1, 2])
        for l in landmarks { #expect((l.payload.position - points[Int(l.payload.id)]).norm < 1e-8) }
        #expect(landmarks.allSatisfy { $0.payload.observations == 6 && $0.payload.covariance.count == 9 })
    }

    @Test func posesWithoutAnEstimateAreNotUsed() throws {
        // An estimator still initializing reports identity poses: they must not place landmarks.
        let points = [Vector3(0.3, -0.2, 2), Vector3(-0.5, 0.4, 4)]
        let result = try Self.run(points: points, frames: 8) { k, pose in
            k < 3 ? Pose(worldFromBody: .identity, trackingState: .limited(.initializing)) : Pose(worldFromBody: pose)
        }
        let landmarks: [Packet<Landmark>] = result.packets(on: "landmarks")
        #expect(landmarks.count == 2)
        for l in landmarks {
            #expect((l.payload.position - points[Int(l.payload.id)]).norm < 1e-8)
            #expect(l.payload.observations == 5)   // the three frames without a pose are left out
        }
        #expect(result.report.warnings.contains { $0.contains("had no pose") })
    }
}
