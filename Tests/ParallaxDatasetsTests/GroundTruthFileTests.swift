import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
import ParallaxCodecs
@testable import ParallaxDatasets

/// `--groundtruth FILE`: a trajectory file replaces (or supplies) a dataset's ground truth.
@Suite struct GroundTruthFileTests {
    static let cut = EuRoCSourceTests.cut

    /// A scratch folder removed at the end of the test.
    func withScratch(_ body: (URL) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gt-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try body(dir)
    }

    /// Poses at 100 Hz over the cut's time span, moving along x.
    static func trajectory(start: Timestamp, count: Int) -> Trajectory {
        Trajectory(poses: (0..<count).map { k in
            let t = Timestamp(nanoseconds: start.nanoseconds + Int64(k) * 10_000_000)
            return StampedPose(time: t.seconds, timestamp: t, pose: SE3(translation: Vector3(0.01 * Double(k), 0, 1)))
        })
    }

    @Test func replacesTheEuRoCGroundTruthAndItsStream() throws {
        try withScratch { dir in
            let own = try EuRoCSource(path: Self.cut)
            let first = try #require(own.listing.stamps["cam0"]?.first)
            let file = dir.appendingPathComponent("gt.csv").path
            try TrajectoryFile.writeEuRoC(Self.trajectory(start: first, count: 30), to: file)
            let source = try DatasetFolder.open(Self.cut, options: DatasetOptions(groundTruth: file))
            #expect(source.groundTruth?.count == 30, "the cut's own ground truth has 7 poses")
            #expect(source.listing.stamps[DatasetStreams.groundTruth]?.count == 30)
            var poses: [Pose] = []
            while let p = try source.next() {
                if p.stream == DatasetStreams.groundTruth, let pose = p.payload as? Pose { poses.append(pose) }
            }
            #expect(poses.count == 30)
            #expect(abs((poses.last?.worldFromBody.translation.x ?? 0) - 0.29) < 1e-12)
        }
    }

    @Test func givesAnImageFolderAGroundTruthStream() throws {
        try withScratch { dir in
            let images = dir.appendingPathComponent("images")
            try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
            let png = EuRoCSourceTests.cut + "/mav0/cam0/data/1403715273262142976.png"
            for k in 0..<3 { try FileManager.default.copyItem(atPath: png, toPath: images.appendingPathComponent("\(k).png").path) }
            let file = dir.appendingPathComponent("gt.txt").path
            try TrajectoryFile.writeTUM(Self.trajectory(start: Timestamp(nanoseconds: 0), count: 250), to: file)
            let source = try DatasetFolder.open(images.path, options: DatasetOptions(groundTruth: file))
            #expect(source.streams.map(\.name) == ["cam0", DatasetStreams.groundTruth])
            var count = 0
            while let p = try source.next() { if p.stream == DatasetStreams.groundTruth { count += 1 } }
            #expect(count == 250)
        }
    }

    @Test func refusesFilesThatCannotBeTheDatasetsGroundTruth() throws {
        try withScratch { dir in
            // Times relative to the start where the dataset's are since 1970: no overlap.
            let shifted = dir.appendingPathComponent("relative.txt").path
            try "0.0 0 0 0 0 0 0 1\n0.5 0 0 0 0 0 0 1\n".write(toFile: shifted, atomically: true, encoding: .utf8)
            #expect { try DatasetFolder.open(Self.cut, options: DatasetOptions(groundTruth: shifted)) } throws: { error in
                guard case .noOverlap(let file, _, _, _, _)? = error as? GroundTruthFileError else { return false }
                return file == shifted && "\(error)".contains("no overlap")
            }
            let kitti = dir.appendingPathComponent("kitti.txt").path
            try "1 0 0 0 0 1 0 0 0 0 1 0\n".write(toFile: kitti, atomically: true, encoding: .utf8)
            #expect(throws: GroundTruthFileError.noTimes(file: kitti)) { try DatasetFolder.open(Self.cut, options: DatasetOptions(groundTruth: kitti)) }
            // Times going back are named with the file.
            let back = dir.appendingPathComponent("back.txt").path
            try "1403715273.3 0 0 0 0 0 0 1\n1403715273.2 0 0 0 0 0 0 1\n".write(toFile: back, atomically: true, encoding: .utf8)
            #expect { try DatasetFolder.open(Self.cut, options: DatasetOptions(groundTruth: back)) } throws: { "\($0)".contains(back) }
            #expect(throws: (any Error).self) { try DatasetFolder.open(Self.cut, options: DatasetOptions(groundTruth: dir.appendingPathComponent("missing.txt").path)) }
        }
    }
}
