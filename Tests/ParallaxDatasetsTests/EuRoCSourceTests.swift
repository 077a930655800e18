import Foundation
import Testing
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxCodecs
import ParallaxFiles
@testable import ParallaxDatasets

@Suite struct EuRoCSourceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let cut = root.appendingPathComponent("datasets/euroc_v1_01_cut").path
    static let shared = RepositoryPaths.sharedData("euroc/V1_01_easy_micro").path

    func drain(_ source: EuRoCSource) throws -> [String: [AnyPacket]] {
        var byStream: [String: [AnyPacket]] = [:]
        while let p = try source.next() { byStream[p.stream, default: []].append(p) }
        return byStream
    }

    @Test func readsTheBundledCut() throws {
        let source = try EuRoCSource(path: Self.cut)
        // The ground truth kept in groundtruth/ (OpenVINS's vicon2gt rows) is read too.
        #expect(source.streams.map(\.name) == ["cam0", "cam1", "imu0", "groundtruth"])
        #expect(source.groundTruth?.count == 7)
        let packets = try drain(source)
        #expect(packets["cam0"]?.count == 6 && packets["cam1"]?.count == 6 && packets["imu0"]?.count == 61)
        let frame = try #require(packets["cam0"]?.first?.payload as? CameraFrame)
        #expect(frame.width == 752 && frame.height == 480 && frame.format == .gray8)
        // Calibration is stream metadata, read once: cameras from sensor.yaml (a stereo pair),
        // the IMU's rate and noise densities from imu0/sensor.yaml.
        let metadata = Dictionary(uniqueKeysWithValues: source.streams.map { ($0.name, $0.metadata) })
        #expect(metadata["cam0"]?.camera?.model.intrinsics.fx == 458.654)
        #expect(metadata["cam0"]?.stereo?.stream == "cam1" && metadata["cam1"]?.stereo?.stream == "cam0")
        let baseline = try #require(metadata["cam0"]?.stereo?.partnerFromThis.translation.norm)
        #expect(abs(baseline - 0.110) < 0.001, "EuRoC's stereo baseline is 11 cm, got \(baseline)")
        #expect(metadata["imu0"]?.imu?.rateHz == 200)
        #expect(metadata["imu0"]?.imu?.noise.gyroscopeNoiseDensity == 1.6968e-04)
        #expect(packets["cam0"]?.first?.timestamp.nanoseconds == 1403715273262142976)
    }

    /// TUM-VI's EuRoC exports keep their ground truth (the IMU's pose from motion capture) in
    /// `mav0/mocap0/data.csv`, with EuRoC's columns: read as the ground truth.
    @Test func tumVIsMotionCaptureFileIsTheGroundTruth() throws {
        let copy = try TemporaryFolder.make("tumvi")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(atPath: Self.cut + "/mav0", toPath: copy.appendingPathComponent("mav0").path)
        let mocap = copy.appendingPathComponent("mav0/mocap0")
        try FileManager.default.createDirectory(at: mocap, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.cut + "/groundtruth/V1_01_easy_openvins_vicon2gt_gt.csv", toPath: mocap.appendingPathComponent("data.csv").path)
        let source = try EuRoCSource(path: copy.path)
        #expect(source.streams.map(\.name) == ["cam0", "cam1", "imu0", "groundtruth"])
        let truth = try #require(source.groundTruth)
        let bundled = try #require(try EuRoCSource(path: Self.cut).groundTruth)
        #expect(truth.poses.map(\.timestamp) == bundled.poses.map(\.timestamp))
        #expect(zip(truth.poses, bundled.poses).allSatisfy { $0.pose.translation == $1.pose.translation })
    }

    @Test(.enabled(if: RepositoryPaths.hasSharedData("euroc/V1_01_easy_micro"), "../shared/data/euroc/V1_01_easy_micro is not present on this machine"))
    func missingImagesAreSkippedAndCountedOrStrictlyRejected() throws {
        let source = try EuRoCSource(path: Self.shared)
        let packets = try drain(source)
        #expect(packets["cam1"]?.count == 95)
        #expect(source.missingImages == ["cam1": 4])
        #expect { _ = try EuRoCSource(path: Self.shared, strict: true) } throws: { error in
            guard case let DatasetError.missingImage(file, line, _) = error else { return false }
            return file.hasSuffix("cam1/data.csv") && line == 97
        }
    }

    @Test func badInputNamesTheFile() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-bad-\(UUID())")
        defer { try? FileManager.default.removeItem(at: tmp) }
        #expect(throws: DatasetError.self) { _ = try EuRoCSource(path: tmp.path) }
        // Copy the cut, then damage it.
        try FileManager.default.copyItem(atPath: Self.cut, toPath: tmp.path)
        let csv = tmp.appendingPathComponent("mav0/imu0/data.csv")
        var text = try String(contentsOf: csv, encoding: .utf8)
        text = text.replacingOccurrences(of: "\n1403715273262142976,", with: "\n1403715273262142976,x,")
        try text.write(to: csv, atomically: true, encoding: .utf8)
        #expect { _ = try EuRoCSource(path: tmp.path) } throws: { error in
            guard case let DatasetError.malformedRow(file, line, reason) = error else { return false }
            return file.hasSuffix("imu0/data.csv") && line > 1 && reason.contains("columns")
        }
        // A truncated PNG (cut a real file in half) is an error naming the file.
        try FileManager.default.removeItem(at: tmp)
        try FileManager.default.copyItem(atPath: Self.cut, toPath: tmp.path)
        let png = tmp.appendingPathComponent("mav0/cam0/data/1403715273262142976.png")
        let bytes = try Data(contentsOf: png)
        try bytes.prefix(bytes.count / 2).write(to: png)
        let source = try EuRoCSource(path: tmp.path)
        #expect { _ = try drain(source) } throws: { error in
            guard case let ImageDecodingError.corrupt(path, _) = error else { return false }
            return path.hasSuffix("1403715273262142976.png")
        }
        // An image of another size than its calibration is an error naming the file and both sizes
        // (the intrinsics would be wrong for every pixel).
        try ImageEncoder.writePNG(ImageBuffer(width: 100, height: 80, repeating: 7), to: png.path)
        let resized = try EuRoCSource(path: tmp.path)
        #expect { _ = try drain(resized) } throws: { error in
            guard case let ImageDecodingError.notTheCalibratedSize(path, 100, 80, 752, 480) = error else { return false }
            return path.hasSuffix("1403715273262142976.png") && "\(error)".contains("752×480")
        }
    }
}

extension EuRoCSourceTests {
    /// A `data.csv` that lists nothing (empty, or its header only) gives an empty stream and a
    /// note naming the file, which a run shows as a warning; one whose every file lists nothing
    /// (and no ground truth) has nothing to read and is refused.
    @Test func aDataFileListingNothingIsANote() throws {
        let dir = try TemporaryFolder.make("euroc-empty")
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("cut")
        try FileManager.default.copyItem(atPath: Self.cut, toPath: copy.path)
        #expect(try EuRoCSource(path: copy.path).notes.isEmpty)
        let mav0 = copy.appendingPathComponent("mav0")
        try Data().write(to: mav0.appendingPathComponent("cam0/data.csv"))
        let imu = mav0.appendingPathComponent("imu0/data.csv")
        let header = try #require(try String(contentsOf: imu, encoding: .utf8).split(separator: "\n").first)
        try (header + "\n").write(to: imu, atomically: true, encoding: .utf8)
        let source = try EuRoCSource(path: copy.path)
        #expect(source.notes == ["mav0/cam0/data.csv lists no frames: its stream is empty", "mav0/imu0/data.csv lists no samples: its stream is empty"])
        let packets = try drain(source)
        #expect(packets["cam0"] == nil && packets["imu0"] == nil && packets["cam1"]?.count == 6)
        // Nothing at all to read: refused, naming the dataset and the files.
        try Data().write(to: mav0.appendingPathComponent("cam1/data.csv"))
        try FileManager.default.removeItem(at: copy.appendingPathComponent("groundtruth"))
        #expect { _ = try EuRoCSource(path: copy.path) } throws: { error in
            error is any BadInput && "\(error)".hasPrefix("\(copy.path) is not a dataset: expected at least one row")
                && "\(error)".contains("mav0/cam1/data.csv lists no frames")
        }
    }
}
