import Foundation
import Testing
@testable import ParallaxCLI
import Parallax

/// Video files through the CLI: `inspect` reports the frames that decode, and a chain runs over
/// one (OpenCV's `tree.avi`, whose header claims 444 frames where 68 decode).
@Suite struct VideoCommandTests {
    static let tree = Paths.root.appendingPathComponent("../shared/data/video/tree.avi").standardized.path

    @Test func aVideoFileIsADataset() throws {
        guard FileManager.default.fileExists(atPath: Self.tree) else {
            print("skipped: \(Self.tree) is not present on this machine"); return
        }
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
    @Test func videoPixelsChoosesGrayOrColour() throws {
        guard FileManager.default.fileExists(atPath: Self.tree) else {
            print("skipped: \(Self.tree) is not present on this machine"); return
        }
        _ = BuiltinDatasetFormats.installed  // video files are a format of the Parallax umbrella
        for (gray, format) in [(true, CameraFrame.Format.gray8), (false, .rgb8)] {
            let source = try DatasetFolder.open(Self.tree, options: DatasetOptions(grayVideo: gray))
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
}
