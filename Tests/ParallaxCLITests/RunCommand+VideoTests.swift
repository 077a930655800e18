import Foundation
import Testing
import TestSupport
@testable import ParallaxCLI
@testable import ParallaxApp
import Parallax

/// Video files through the CLI: `inspect` reports the frames that decode, and a chain runs over
/// one (OpenCV's `tree.avi`, whose header claims 444 frames where 68 decode).
@Suite struct VideoCommandTests {
    static let tree = Paths.root.appendingPathComponent("../shared/data/video/tree.avi").standardized.path

    @Test(.enabled(if: RepositoryPaths.hasSharedData("video/tree.avi"), "../shared/data/video/tree.avi is not present on this machine"))
    func aVideoFileIsADataset() throws {
        let out = Paths.temporary("video-klt")
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(parallax(["inspect", Self.tree]) == 0)
        #expect(parallax(["run", "klt camera=cam0", Self.tree, "--out", out.path, "--quiet"]) == 0)
        let events = try String(contentsOf: out.appendingPathComponent("events.jsonl"), encoding: .utf8)
        let tracks = events.split(separator: "\n").filter { $0.contains("\"stream\":\"cam0/tracks\"") }
        #expect(tracks.count == 68)
        #expect(tracks.allSatisfy { $0.contains("\"features\":[{") })
    }

    /// `--video-pixels gray` delivers the luma plane; anything else is a usage error.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("video/tree.avi"), "../shared/data/video/tree.avi is not present on this machine"))
    func videoPixelsChoosesGrayOrColour() throws {
        for (gray, format) in [(true, CameraFrame.Format.gray8), (false, .rgb8)] {
            let source = try DatasetFolder.open(Self.tree, options: .builtin(DatasetOptions(grayVideo: gray)))
            let frame = try #require(try source.next()?.payload as? CameraFrame)
            #expect(frame.format == format)
        }
        let out = Paths.temporary("video-gray")
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(parallax(["run", "klt camera=cam0", Self.tree, "--video-pixels", "gray", "--out", out.path, "--quiet"]) == 0)
        #expect(parallax(["inspect", Self.tree, "--video-pixels", "blue"]) == 2)
    }

    @Test func notAVideoExitsWithTwo() throws {
        let dir = Paths.temporary("video-bad")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("clip.mp4")
        try Data("not a video".utf8).write(to: file)
        #expect(parallax(["inspect", file.path]) == 2)
        #expect(parallax(["run", "klt camera=cam0", file.path, "--out", dir.appendingPathComponent("out").path, "--quiet"]) == 2)
    }

    /// `convert --video ffv1` keeps the bundled EuRoC cut's cameras as lossless video: `klt`
    /// gives byte-identical tracks on it; `--video h264` and `--to video` write smaller files;
    /// options that cannot work exit 2 before anything is written.
    @Test func convertKeepsCamerasAsVideo() throws {
        let cut = Paths.root.appendingPathComponent("datasets/euroc_v1_01_cut").path
        let dir = Paths.temporary("video-convert")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ffv1 = dir.appendingPathComponent("ffv1").path, h264 = dir.appendingPathComponent("h264").path
        #expect(parallax(["convert", cut, "--out", ffv1, "--video", "ffv1"]) == 0)
        #expect(parallax(["convert", cut, "--out", h264, "--video", "h264", "--video-quality", "23"]) == 0)
        func tracks(_ dataset: String, _ name: String) throws -> [Substring] {
            let out = dir.appendingPathComponent("klt-\(name)")
            #expect(parallax(["run", "klt camera=cam0", dataset, "--out", out.path, "--quiet"]) == 0)
            let events = try String(contentsOf: out.appendingPathComponent("events.jsonl"), encoding: .utf8)
            return events.split(separator: "\n").filter { $0.contains("\"stream\":\"cam0/tracks\"") }
        }
        let original = try tracks(cut, "png")
        #expect(original.count == 6)
        #expect(try tracks(ffv1, "ffv1") == original)
        #expect(try tracks(h264, "h264").count == 6)
        func size(_ path: String) throws -> Int { try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 }
        #expect(try size(h264 + "/cam0/data.mp4") < size(ffv1 + "/cam0/data.mkv"))

        let file = dir.appendingPathComponent("cam1.mkv").path
        #expect(parallax(["convert", cut, "--to", "video", "--camera", "cam1", "--out", file]) == 0)
        let video = try DatasetFolder.open(file, options: .builtin())
        #expect(video.listing.stamps["cam0"]?.count == 6)

        let refused = dir.appendingPathComponent("refused").path
        #expect(parallax(["convert", cut, "--out", refused, "--video", "vp9"]) == 2)
        #expect(parallax(["convert", cut, "--out", refused, "--video", "ffv1", "--video-quality", "3"]) == 2)
        #expect(parallax(["convert", cut, "--out", refused, "--video", "h264", "--video-quality", "52"]) == 2)
        #expect(parallax(["convert", cut, "--out", refused, "--to", "euroc", "--video", "ffv1"]) == 2)
        #expect(parallax(["convert", cut, "--to", "video", "--out", refused + ".avi"]) == 2)
        #expect(parallax(["convert", cut, "--to", "video", "--camera", "imu0", "--out", refused + ".mkv"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: refused) && !FileManager.default.fileExists(atPath: refused + ".mkv"))
    }
}
