import Foundation
import Testing
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxCodecs
@testable import ParallaxDatasets

@Suite struct AFLW2000SourceTests {
    static let fixture = RepositoryPaths.aflwSynthetic.path

    @Test func readsFacesWithAnAssumedCameraAndTheirTruth() throws {
        #expect(AFLW2000Format.recognizes(Self.fixture))
        let source = try DatasetFolder.open(Self.fixture)
        let aflw = try #require(source as? AFLW2000Source)
        #expect(aflw.streams.map(\.name) == ["cam0", "face0/landmarks"])
        let camera = try #require(aflw.streams[1].metadata.camera)
        // The benchmark's own projection (weak perspective), stated as an assumption.
        #expect(camera.model.intrinsics == PinholeIntrinsics(fx: 450_000, fy: 450_000, cx: 224.5, cy: 224.5))
        #expect(camera.comment?.contains("assumed") == true && camera.comment?.contains("weak perspective") == true)
        let truth = try #require(aflw.faceTruth["face0"])
        #expect(truth.count == 2)
        let first = try #require(truth[0].angles), second = try #require(truth[1].angles)
        #expect(abs(first.pitch - 12) < 1e-4 && abs(first.yaw + 35) < 1e-4 && abs(second.roll + 10) < 1e-4)
        var packets: [AnyPacket] = []
        while let p = try source.next() { packets.append(p) }
        #expect(packets.map(\.stream) == ["cam0", "face0/landmarks", "cam0", "face0/landmarks"])
        let landmarks = try #require(packets[1].payload as? FaceLandmarks)
        #expect(landmarks.scheme == .ibug68 && landmarks.points == truth[0].landmarks)
        #expect(packets[2].timestamp == Timestamp(seconds: 1))
    }

    @Test func aMATFileWithoutItsImageIsAnErrorNamingIt() throws {
        let folder = try TemporaryFolder.make("aflw")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: RepositoryPaths.aflwSynthetic.appendingPathComponent("image00002.mat").path, toPath: folder.appendingPathComponent("image00007.mat").path)
        #expect { _ = try DatasetFolder.open(folder.path) } throws: { "\($0)".contains("image00007.mat") && "\($0)".contains("image00007.jpg") }
    }

    @Test func aTruncatedMATFileIsAnErrorNamingIt() throws {
        let folder = try TemporaryFolder.make("aflw-cut")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.aflwSynthetic.appendingPathComponent("image00001.mat").path))
        try bytes.prefix(600).write(to: folder.appendingPathComponent("image00001.mat"))
        try FileManager.default.copyItem(atPath: (Self.fixture as NSString).appendingPathComponent("image00001.png"), toPath: folder.appendingPathComponent("image00001.png").path)
        #expect { _ = try DatasetFolder.open(folder.path) } throws: { error in
            error is MATFileError && "\(error)".contains("image00001.mat")
        }
    }
}
