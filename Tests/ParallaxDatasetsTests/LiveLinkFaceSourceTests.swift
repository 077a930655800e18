import Foundation
import Testing
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
@testable import ParallaxDatasets

@Suite struct LiveLinkFaceSourceTests {
    static let take = RepositoryPaths.sharedData("faces/arkit_livelinkface/alex_rom_4.csv").path
    static let header = "Timecode,BlendShapeCount,EyeBlinkLeft,JawOpen,HeadYaw,HeadPitch,HeadRoll,LeftEyeYaw,LeftEyePitch,LeftEyeRoll,RightEyeYaw,RightEyePitch,RightEyeRoll"

    static func write(_ rows: [String]) throws -> URL {
        let folder = try TemporaryFolder.make("livelink")
        let file = folder.appendingPathComponent("take.csv")
        try ([header] + rows).joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Times from the 60 fps timecode; eyes turned by yaw toward the person's right (head −x),
    /// by pitch down; the head facing the camera at the assumed distance.
    @Test func readsAnglesAndBlendShapes() throws {
        let file = try Self.write(["01:00:00:00.000,2,0.1,0.5,0,0,0,0.3,0,0,0.3,0,0", "01:00:00:02.000,2,0.2,0.4,0,0,0,0,0.2,0,0,0.2,0"])
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        #expect(LiveLinkFaceFormat.recognizes(file.path))
        let source = try #require(try DatasetFolder.open(file.path) as? LiveLinkFaceSource)
        var packets: [AnyPacket] = []
        while let p = try source.next() { packets.append(p) }
        #expect(packets.map(\.timestamp.nanoseconds) == [3_600_000_000_000, 3_600_000_000_000, 3_600_033_333_333, 3_600_033_333_333])
        let first = try #require(packets[0].payload as? FaceAnchor), second = try #require(packets[2].payload as? FaceAnchor)
        let shapes = try #require(packets[1].payload as? FaceBlendShapes)
        #expect(shapes.names == ["EyeBlinkLeft", "JawOpen"] && shapes["JawOpen"] == 0.5)
        #expect(first.cameraFromHead.translation == Vector3(0, 0, LiveLinkFaceSource.headDistance))
        let sight = first.leftEye.rotation * Vector3(0, 0, 1)
        #expect(abs(sight.x + sin(0.3)) < 1e-12 && abs(sight.y) < 1e-12)  // toward the person's right
        let down = second.rightEye.rotation * Vector3(0, 0, 1)
        #expect(abs(down.y + sin(0.2)) < 1e-12)  // head +y is up: pitch 0.2 looks down
        #expect(second.lookAtPoint.z > 0.1)  // parallel lines of sight: 2 m ahead
    }

    @Test func badRowsNameTheFileAndLine() throws {
        for (rows, expected) in [(["01:00:00:75.000,2,0,0,0,0,0,0,0,0,0,0,0"], "take.csv:2: timecode"),
                                 (["01:00:00:01.000,2,0,0,0,0,0,0,0,0,0,0"], "take.csv:2: expected 13 columns"),
                                 (["01:00:00:01.000,2,0,x,0,0,0,0,0,0,0,0,0"], "'JawOpen' is 'x'"),
                                 (["01:00:00:02.000,2,0,0,0,0,0,0,0,0,0,0,0", "01:00:00:01.000,2,0,0,0,0,0,0,0,0,0,0,0"], "take.csv:3")] {
            let file = try Self.write(rows)
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            #expect { _ = try LiveLinkFaceSource(path: file.path) } throws: { "\($0)".contains(expected) }
        }
    }

    /// The real take: 3809 rows over 127 s at 30 Hz, eyes moving both ways.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("faces/arkit_livelinkface/alex_rom_4.csv"), "../shared/data/faces/arkit_livelinkface/alex_rom_4.csv is not present on this machine"))
    func readsTheRealTake() throws {
        let source = try LiveLinkFaceSource(path: Self.take)
        let stamps = try #require(source.listing.stamps[LiveLinkFaceSource.anchorStream])
        #expect(stamps.count == 3809)
        #expect(abs(try #require(stamps.last).seconds(since: stamps[0]) - 126.983) < 0.001)
    }
}
