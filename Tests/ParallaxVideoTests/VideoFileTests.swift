import Foundation
import Testing
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxFiles
@testable import ParallaxVideo
import ParallaxDatasets

/// Real videos from `../shared/data/video` (OpenCV's samples and an MP4 from 3DDFA): what their
/// headers claim, and what a reader must report instead when a header lies.
@Suite struct VideoFileTests {
    static func video(_ name: String) -> String {
        RepositoryPaths.sharedData("video/" + name).path
    }

    /// Every frame the source gives, with its time.
    static func decodeAll(_ source: VideoFileSource) throws -> [(Timestamp, CameraFrame)] {
        var frames: [(Timestamp, CameraFrame)] = []
        while let packet = try source.next() {
            guard let frame = packet.payload as? CameraFrame else { continue }
            frames.append((packet.timestamp, frame))
        }
        return frames
    }

    @Test(.enabled(if: RepositoryPaths.hasSharedData("video"), "../shared/data/video is not present on this machine"),
          arguments: [("tree.avi", 444, 68, 320, 240), ("obama.mp4", 158, 55, 1280, 720), ("vtest.avi", 795, 795, 768, 576),
                      ("Megamind.avi", 270, 270, 720, 528)])
    func framesAreCountedByDecodingNotByTheHeader(name: String, claimed: Int, decoding: Int, width: Int, height: Int) throws {
        let path = Self.video(name)
        let source = try VideoFileSource(path: path, pixels: .gray)
        #expect(source.header.frameCount == claimed)
        // The listing (inspect) and the frames a run gets agree with each other, not with the header.
        #expect(source.listing.stamps[VideoFileSource.stream]?.count == decoding)
        let frames = try Self.decodeAll(source)
        #expect(frames.count == decoding)
        #expect(frames.map(\.0) == source.listing.stamps[VideoFileSource.stream])
        #expect(frames.allSatisfy { $0.1.width == width && $0.1.height == height && $0.1.image.channels == 1 })
        #expect(source.droppedFrames == 0)
    }

    /// vtest.avi is 10 fps: frame k at k × 100 ms, from its presentation times.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("video/vtest.avi"), "../shared/data/video/vtest.avi is not present on this machine"))
    func timesArePresentationTimes() throws {
        let path = Self.video("vtest.avi")
        let source = try VideoFileSource(path: path)
        let times = try #require(source.listing.stamps[VideoFileSource.stream])
        #expect(times.enumerated().allSatisfy { $0.element.nanoseconds == Int64($0.offset) * 100_000_000 })
        #expect(source.header.frameRate == 10)
    }

    /// Gray frames are the luma plane stretched to full range through a table: what swscale's
    /// conversion to gray gives (within a level of rounding), at a fraction of the cost.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("video"), "../shared/data/video is not present on this machine"), arguments: ["vtest.avi", "obama.mp4", "tree.avi"])
    func grayIsSwscalesGray(_ name: String) throws {
        let path = Self.video(name)
        let fast = try VideoFile(path: path), slow = try VideoFile(path: path)
        for _ in 0..<3 {
            let a = try #require(try fast.nextFrame(.gray, at: nil)), b = try #require(try slow.nextFrame(.gray, at: nil, lumaShortcut: false))
            #expect(a.width == b.width && a.height == b.height && a.channels == 1)
            let worst = zip(a.samples, b.samples).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "\(name): \(worst) levels")
        }
    }

    /// The same file decodes to the same pixels every time (one decoding thread).
    @Test(.enabled(if: RepositoryPaths.hasSharedData("video/obama.mp4"), "../shared/data/video/obama.mp4 is not present on this machine"))
    func decodingIsReproducible() throws {
        let path = Self.video("obama.mp4")
        let a = try Self.decodeAll(VideoFileSource(path: path)).map(\.1.image.samples)
        let b = try Self.decodeAll(VideoFileSource(path: path)).map(\.1.image.samples)
        #expect(a == b)
        #expect(a.first?.count == 1280 * 720 * 3)
    }

    @Test func whatIsNotAVideoIsACleanErrorNamingTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = dir.appendingPathComponent("notes.mp4")
        try Data("this is not a video\n".utf8).write(to: text)
        let empty = dir.appendingPathComponent("empty.avi")
        try Data().write(to: empty)
        for file in [text, empty] {
            #expect { _ = try VideoFileSource(path: file.path) } throws: { error in
                guard let e = error as? VideoError, case .unreadable = e else { return false }
                return "\(e)".contains(file.path) && e is any BadInput
            }
        }
    }

    /// A file cut short: what was there decodes, then either the end comes early or a clear
    /// error names the file; never a crash, never a frame of garbage size.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("video/vtest.avi"), "../shared/data/video/vtest.avi is not present on this machine"))
    func aTruncatedVideoKeepsWhatWasThere() throws {
        let path = Self.video("vtest.avi")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = dir.appendingPathComponent("cut.avi")
        try data.prefix(data.count / 3).write(to: cut)
        let source = try VideoFileSource(path: cut.path, pixels: .gray)
        var frames = 0
        do {
            while let packet = try source.next() {
                #expect((packet.payload as? CameraFrame)?.width == 768)
                frames += 1
            }
        } catch let error as VideoError {
            #expect("\(error)".contains(cut.path))
        }
        #expect(frames > 100 && frames < 795)
    }
}

/// Small videos written by OpenCV (`scripts/reference/video-fixtures`), in the repository: the
/// reader's behaviour without ../shared.
@Suite struct VideoFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/video")

    @Test func threeFramesAtTheirTimesInGrayOrColour() throws {
        let path = Self.folder.appendingPathComponent("three.avi").path
        for (pixels, channels) in [(VideoFile.Pixels.gray, 1), (.rgb, 3)] {
            let frames = try VideoFileTests.decodeAll(VideoFileSource(path: path, pixels: pixels))
            #expect(frames.map(\.0.nanoseconds) == [0, 100_000_000, 200_000_000])
            #expect(frames.allSatisfy { $0.1.width == 64 && $0.1.height == 48 && $0.1.image.channels == channels })
            // MJPEG is lossy: the flat levels come back within a few gray levels.
            let levels = frames.map { Int($0.1.image.samples[$0.1.image.samples.count / 2]) }
            #expect(zip(levels, [0, 80, 160]).allSatisfy { abs($0 - $1) <= 3 }, "\(levels)")
        }
    }

    /// A file with two video streams: the best one is read and the other named in a note
    /// (`ffmpeg … -map 0 -map 1 -c:v ffv1 two-streams.mkv`: 32×24 at 10 Hz and 16×16 at 5 Hz).
    @Test func aSecondVideoStreamIsNamedNotIgnoredInSilence() throws {
        let path = Self.folder.appendingPathComponent("two-streams.mkv").path
        let source = try VideoFileSource(path: path)
        #expect(source.notes.contains { $0.contains("stream 0 (ffv1 32×24) is read as cam0") && $0.contains("stream 1: ffv1 16×16") }, "\(source.notes)")
        let frames = try VideoFileTests.decodeAll(source)
        #expect(frames.count == 2 && frames.allSatisfy { $0.1.width == 32 && $0.1.height == 24 })
        // One stream alone: no note.
        #expect(try VideoFileSource(path: Self.folder.appendingPathComponent("three.avi").path).notes.isEmpty)
    }

    /// A file cut short (the container declares 1 s, the packets span half of it): its frames
    /// are read and a note says where they end.
    @Test func aFileCutShortIsNamedInANote() throws {
        let whole = try Data(contentsOf: Self.folder.appendingPathComponent("ten.mkv"))
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-cut-\(UUID()).mkv")
        defer { try? FileManager.default.removeItem(at: cut) }
        try whole.prefix(whole.count / 2).write(to: cut)
        #expect(try VideoFileSource(path: Self.folder.appendingPathComponent("ten.mkv").path).notes.isEmpty)
        let source = try VideoFileSource(path: cut.path)
        #expect(source.notes.contains { $0.contains("declares 1.000 s") && $0.contains("cut short") }, "\(source.notes)")
        #expect(try VideoFileTests.decodeAll(source).count < 10)
    }

    @Test func videosWithoutFramesAreCleanErrors() throws {
        for (name, message) in [("empty.avi", "no frame that decodes"), ("empty.mp4", "no video stream")] {
            let path = Self.folder.appendingPathComponent(name).path
            #expect { _ = try VideoFileSource(path: path) } throws: { error in
                error is any BadInput && "\(error)".contains(name) && "\(error)".contains(message)
            }
        }
    }
}
