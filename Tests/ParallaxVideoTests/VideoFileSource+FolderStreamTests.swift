import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxDatasets
import ParallaxOutputs
import ParallaxGeometry
import ParallaxImage
@testable import ParallaxVideo

/// A Parallax folder whose camera streams are kept as video (`video: cam0/data.mkv`, times in
/// `cam0/data.csv`): written by ``ParallaxFolderWriter`` with a codec, read back with exact times
/// and, with FFV1, exact pixels; a listing that does not match its video is refused up front.
@Suite(.serialized) struct VideoFolderStreamTests {
    /// Datasets opened with video support (the video target's plugin bundle).
    static let withVideo = PluginRegistry().adding([StandardDatasetsPlugin.self, VideoPlugin.self]).datasetOptions()

    static let cut = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("datasets/euroc_v1_01_cut").path


    static func packets(_ source: any DatasetSource) throws -> [AnyPacket] {
        var all: [AnyPacket] = []
        while let p = try source.next() { all.append(p) }
        return all
    }

    /// The bundled EuRoC cut (two gray cameras, IMU, ground truth) through a folder with FFV1
    /// video: the same packets in the same order, the same calibrations.
    static func convert(_ codec: String, to folder: String) throws {
        let writer = try ParallaxFolderWriter(path: folder)
        writer.videoSupport = .ffmpeg
        writer.video = VideoSupport.Encoding(codec: codec)
        let source = try DatasetFolder.open(cut, options: Self.withVideo)
        try writer.write(streaming: source, groundTruth: source.groundTruth)
    }

    @Test func ffv1FolderGivesTheSamePackets() throws {
        let folder = VideoWriterTests.temporary("folder-ffv1")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.convert("ffv1", to: folder)
        let yaml = try String(contentsOfFile: folder + "/parallax.yaml", encoding: .utf8)
        #expect(yaml.contains("video: cam0/data.mkv") && yaml.contains("pixels: gray"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/cam0/data"))  // no PNG folder
        let original = try DatasetFolder.open(Self.cut, options: Self.withVideo), copy = try DatasetFolder.open(folder, options: Self.withVideo)
        #expect(copy.listing.stamps == original.listing.stamps)
        #expect(copy.streams.map(\.name) == original.streams.map(\.name))
        // The lens and rate as they were (the mounting's rotation is rewritten as a matrix and
        // read back through a quaternion: equal to the last digit or so, as for PNG folders).
        let camera = try #require(copy.streams.first { $0.name == "cam0" }?.metadata.camera)
        #expect(camera.model == original.streams.first { $0.name == "cam0" }?.metadata.camera?.model && camera.rateHz == 20)
        let a = try Self.packets(original), b = try Self.packets(copy)
        #expect(a.count == b.count && a.count > 60)
        var frames = 0
        for (p, q) in zip(a, b) {
            #expect(p.stream == q.stream && p.timestamp == q.timestamp)
            if let f = p.payload as? CameraFrame {
                frames += 1
                #expect((q.payload as? CameraFrame)?.image == f.image)
            }
            if let s = p.payload as? IMUSample { #expect(q.payload as? IMUSample == s) }
        }
        #expect(frames == 12)
    }

    /// H.264: the same frames at the same times, pixels close (the stream is lossy).
    @Test func h264FolderKeepsTimesAndCloseImages() throws {
        let folder = VideoWriterTests.temporary("folder-h264")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.convert("h264", to: folder)
        let original = try Self.packets(DatasetFolder.open(Self.cut, options: Self.withVideo)), copy = try Self.packets(DatasetFolder.open(folder, options: Self.withVideo))
        let a = original.filter { $0.payload is CameraFrame }, b = copy.filter { $0.payload is CameraFrame }
        #expect(a.map(\.timestamp) == b.map(\.timestamp) && a.count == 12)
        for (p, q) in zip(a, b) {
            let x = try #require(p.payload as? CameraFrame).image, y = try #require(q.payload as? CameraFrame).image
            let mse = zip(x.samples, y.samples).reduce(0.0) { $0 + (Double($1.0) - Double($1.1)) * (Double($1.0) - Double($1.1)) } / Double(x.samples.count)
            #expect(10 * log10(255 * 255 / max(mse, 1e-12)) > 38)
        }
    }

    /// What the reader refuses before the first frame, naming the file and line.
    @Test func aListingThatDoesNotMatchItsVideoIsRefused() throws {
        let folder = VideoWriterTests.temporary("folder-bad")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.convert("ffv1", to: folder)
        let csv = folder + "/cam0/data.csv", yamlPath = folder + "/parallax.yaml"
        let good = try String(contentsOfFile: csv, encoding: .utf8), yaml = try String(contentsOfFile: yamlPath, encoding: .utf8)
        func refused(_ fragment: String) {
            #expect { _ = try DatasetFolder.open(folder, options: Self.withVideo) } throws: { "\($0)".contains(fragment) }
        }
        try (good + "1403715273562143000,6\n").write(toFile: csv, atomically: true, encoding: .utf8)
        refused("data.csv:8: lists 7 frames, the video \(folder)/cam0/data.mkv holds 6")
        try good.replacingOccurrences(of: ",1\n", with: ",2\n").write(toFile: csv, atomically: true, encoding: .utf8)
        refused("data.csv:3: frame '2' out of sequence")
        let lines = good.split(separator: "\n").map(String.init)
        try ([lines[0], lines[2].replacingOccurrences(of: ",1", with: ",0"), lines[1].replacingOccurrences(of: ",0", with: ",1")] + lines[3...])
            .joined(separator: "\n").write(toFile: csv, atomically: true, encoding: .utf8)
        refused("does not increase")
        try good.write(toFile: csv, atomically: true, encoding: .utf8)
        try yaml.replacingOccurrences(of: "pixels: gray", with: "pixels: blue").write(toFile: yamlPath, atomically: true, encoding: .utf8)
        refused("pixels must be gray or rgb, got 'blue'")
        try yaml.write(toFile: yamlPath, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: folder + "/cam1/data.mkv")
        refused("\(folder)/cam1/data.mkv is not a dataset: expected the video file of stream 'cam1'")
    }

    /// The bundled real clip (20 s of EuRoC MH_01, the camera as H.264) reads on a fresh clone:
    /// 400 frames at 20 Hz with EuRoC's nanosecond times, every one decoded, IMU and ground truth.
    @Test func theBundledClipReads() throws {
        let clip = URL(fileURLWithPath: Self.cut).deletingLastPathComponent().appendingPathComponent("euroc_mh01_clip").path
        let source = try DatasetFolder.open(clip, options: Self.withVideo)
        let times = try #require(source.listing.stamps["cam0"])
        #expect(times.count == 400 && times.first?.nanoseconds == 1_403_636_584_763_555_584 && times.last?.nanoseconds == 1_403_636_604_713_555_456)
        #expect(source.listing.stamps["imu0"]?.count == 4391 && source.groundTruth?.poses.count == 4390)
        var frames = 0
        while let p = try source.next() {
            guard let frame = p.payload as? CameraFrame else { continue }
            #expect(p.timestamp == times[frames] && frame.width == 752 && frame.height == 480 && frame.image.channels == 1)
            frames += 1
        }
        #expect(frames == 400)
    }
}
