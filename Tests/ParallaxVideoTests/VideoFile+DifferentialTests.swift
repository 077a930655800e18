import Foundation
import Testing
import TestSupport
import ParallaxImage
@testable import ParallaxVideo

/// Frames decoded by ``VideoFile`` against the `ffmpeg` command's own decode of the same file
/// (the slice of `scripts/video-corpus` that runs with the tests): sizes whose rows are no
/// multiple of swscale's SIMD block (8 mod 16, odd), several codecs and pixel formats. RGB must
/// match exactly (the same swscale conversion), gray too.
@Suite struct VideoDecodeDifferentialTests {
    /// (codec arguments, pixel format, width, height, container)
    static let corpus: [([String], String, Int, Int, String)] = [
        (["-c:v", "libx264", "-preset", "ultrafast"], "yuv420p", 360, 240, "mkv"),
        (["-c:v", "libx264", "-preset", "ultrafast"], "yuv444p", 328, 40, "mp4"),
        (["-c:v", "ffv1"], "yuv444p", 17, 9, "mkv"),
        (["-c:v", "ffv1"], "gray", 33, 7, "mkv"),
        (["-c:v", "rawvideo"], "pal8", 344, 24, "avi"),
        (["-c:v", "mjpeg"], "yuvj420p", 376, 8, "avi"),
        (["-c:v", "ffv1"], "yuv420p10le", 42, 24, "mkv"),
    ]

    static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(ExternalTool.path("ffmpeg")))
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "ffmpeg \(arguments.joined(separator: " "))")
        return data
    }

    @Test(.enabled(if: ExternalTool.installed("ffmpeg"), "the ffmpeg command is not installed (apt-get install ffmpeg)"), arguments: corpus.indices)
    func framesMatchFFmpegsOwnDecode(_ index: Int) throws {
        let (codec, format, width, height, container) = Self.corpus[index]
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-differential-\(getpid())-\(index).\(container)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try Self.run(["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(width + width % 2)x\(height + height % 2):rate=10",
                          // testsrc2 makes even sizes only: odd ones are cropped from the next even.
                          "-vf", "format=rgb24,crop=\(width):\(height):0:0", "-frames:v", "4"]
                         + codec + ["-pix_fmt", format, path])
        for pixels in VideoFile.Pixels.allCases {
            let expected = try Self.run(["-v", "error", "-i", path, "-fps_mode", "passthrough", "-sws_flags", "bicubic",
                                         "-pix_fmt", pixels == .gray ? "gray" : "rgb24", "-f", "rawvideo", "-"])
            let file = try VideoFile(path: path)
            var decoded = Data()
            var count = 0
            while let image = try file.nextFrame(pixels, at: nil) {
                #expect(image.width == width && image.height == height)
                decoded.append(contentsOf: image.samples)
                count += 1
            }
            #expect(count == 4, "\(path) \(pixels)")
            #expect(decoded == expected, "\(format) \(width)×\(height) \(pixels): \(decoded.count) bytes, ffmpeg's \(expected.count)")
        }
    }

    /// Frames written by ``VideoWriter`` (its RGB source goes through swscale too) at widths that
    /// are 8 mod 16 or odd come back exactly (FFV1 is lossless).
    @Test(arguments: [(360, 240), (328, 17), (17, 9), (2040, 8)])
    func writtenAndReadAtAwkwardWidths(width: Int, height: Int) throws {
        let path = VideoWriterTests.temporary("awkward-\(width)x\(height).mkv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let images = VideoWriterTests.frames(3, width: width, height: height, channels: 3)
        try VideoWriterTests.write(images, to: path, codec: .ffv1)
        #expect(try VideoWriterTests.read(path, gray: false).images == images)
    }

    /// A stream tagged to be shown turned (`rotate=90`, as phones tag upright video) is read as
    /// stored, and the reader says so in a note rather than in silence; an untagged one has none.
    @Test(.enabled(if: ExternalTool.installed("ffmpeg"), "the ffmpeg command is not installed (apt-get install ffmpeg)"))
    func aDisplayRotationIsNamedNotApplied() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-rotation-\(getpid())").path
        defer { for p in [base + ".mp4", base + "-turned.mp4"] { try? FileManager.default.removeItem(atPath: p) } }
        _ = try Self.run(["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-frames:v", "3", "-c:v", "mpeg4", base + ".mp4"])
        _ = try Self.run(["-v", "error", "-y", "-i", base + ".mp4", "-c", "copy", "-metadata:s:v:0", "rotate=90", base + "-turned.mp4"])
        #expect(try VideoFile(path: base + ".mp4").displayRotationDegrees == nil)
        let turned = try VideoFile(path: base + "-turned.mp4")
        #expect(turned.displayRotationDegrees.map { abs($0) } == 90 && turned.header.width == 64 && turned.header.height == 48)
        let source = try VideoFileSource(path: base + "-turned.mp4")
        #expect(source.notes.contains { $0.contains("turned by") && $0.contains("64×48, not turned") }, "\(source.notes)")
    }
}
