import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxImage
@testable import ParallaxVideo
import ParallaxDatasets

/// Camera streams written to video (``VideoWriter``) and read back (``VideoFile``): lossless
/// FFV1 gives the pixels back exactly, H.264 close and smaller, every frame at its time.
@Suite struct VideoWriterTests {
    /// `count` textured frames: a checkerboard of 8-pixel cells with seeded brightness sliding
    /// over a gradient by a pixel a frame, plus seeded noise of a few levels (a camera's), gray
    /// or RGB.
    static func frames(_ count: Int, width: Int = 64, height: Int = 48, channels: Int) -> [ImageBuffer<UInt8>] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { k in
            var samples = [UInt8](repeating: 0, count: width * height * channels)
            for i in samples.indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let x = (i / channels) % width, y = (i / channels) / width
                let cell = ((x + k) / 8 * 7 + y / 8 * 13) % 5
                samples[i] = UInt8(truncatingIfNeeded: x + y + cell * 30 + i % channels * 40 + Int(state >> 62))
            }
            return ImageBuffer(width: width, height: height, channels: channels, samples: samples)
        }
    }

    /// EuRoC-like times: nanoseconds that no container keeps exactly.
    static func times(_ count: Int) -> [Timestamp] { (0..<count).map { Timestamp(nanoseconds: 1_403_715_273_262_142_976 + Int64($0) * 50_000_128) } }

    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("parallax-\(name)-\(getpid())").path
    }

    static func write(_ images: [ImageBuffer<UInt8>], to path: String, codec: VideoWriter.Codec, quality: Int? = nil) throws {
        let writer = try VideoWriter(path: path, codec: codec, width: images[0].width, height: images[0].height, gray: images[0].channels == 1, quality: quality)
        for (image, t) in zip(images, times(images.count)) { try writer.write(image, at: t) }
        try writer.finish()
    }

    static func read(_ path: String, gray: Bool) throws -> (times: [Timestamp], images: [ImageBuffer<UInt8>]) {
        let times = try VideoFile(path: path).packetTimes()
        let file = try VideoFile(path: path)
        var images: [ImageBuffer<UInt8>] = []
        while let image = try file.nextFrame(gray ? .gray : .rgb, at: nil) { images.append(image) }
        return (times, images)
    }

    @Test(arguments: [1, 3])
    func ffv1IsLossless(channels: Int) throws {
        let path = Self.temporary("ffv1-\(channels).mkv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let images = Self.frames(10, channels: channels)
        try Self.write(images, to: path, codec: .ffv1)
        let back = try Self.read(path, gray: channels == 1)
        #expect(back.images == images)
        // Matroska keeps milliseconds: the times relative to the first frame, rounded.
        let expected = Self.times(10).map { Timestamp(nanoseconds: (($0.nanoseconds - Self.times(1)[0].nanoseconds + 500_000) / 1_000_000) * 1_000_000) }
        #expect(back.times == expected)
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
    }

    /// H.264 at the default CRF: every frame (the last one too: MP4's edit list ends at the
    /// last packet's end), close to the original, smaller than FFV1; CRF 40 is coarser.
    @Test func h264IsCloseAndSmall() throws {
        let lossless = Self.temporary("ref.mkv"), fine = Self.temporary("fine.mp4"), coarse = Self.temporary("coarse.mp4")
        defer { for p in [lossless, fine, coarse] { try? FileManager.default.removeItem(atPath: p) } }
        let images = Self.frames(12, width: 96, height: 64, channels: 1)
        try Self.write(images, to: lossless, codec: .ffv1)
        try Self.write(images, to: fine, codec: .h264)
        try Self.write(images, to: coarse, codec: .h264, quality: 40)
        func psnr(_ path: String) throws -> Double {
            let back = try Self.read(path, gray: true)
            #expect(back.images.count == images.count)
            #expect(back.times == Self.times(12).map { Timestamp(nanoseconds: ($0.nanoseconds - Self.times(1)[0].nanoseconds + 500) / 1000 * 1000) })
            var squared = 0.0, n = 0.0
            for (a, b) in zip(images, back.images) {
                for (x, y) in zip(a.samples, b.samples) { squared += (Double(x) - Double(y)) * (Double(x) - Double(y)); n += 1 }
            }
            return 10 * log10(255 * 255 / max(squared / n, 1e-12))
        }
        let finePSNR = try psnr(fine), coarsePSNR = try psnr(coarse)
        print("h264 PSNR: CRF 18 \(finePSNR) dB, CRF 40 \(coarsePSNR) dB")
        #expect(finePSNR > 35)
        #expect(coarsePSNR < finePSNR - 5)
        func size(_ p: String) throws -> Int { try FileManager.default.attributesOfItem(atPath: p)[.size] as? Int ?? 0 }
        #expect(try size(fine) < size(lossless))
        #expect(try size(coarse) < size(fine))
    }

    /// Same frames, same bytes.
    @Test(arguments: [VideoWriter.Codec.ffv1, .h264])
    func writingIsReproducible(codec: VideoWriter.Codec) throws {
        let a = Self.temporary("a.\(codec.fileExtension)"), b = Self.temporary("b.\(codec.fileExtension)")
        defer { for p in [a, b] { try? FileManager.default.removeItem(atPath: p) } }
        let images = Self.frames(6, channels: 3)
        try Self.write(images, to: a, codec: codec)
        try Self.write(images, to: b, codec: codec)
        // Matroska and MP4 name no file and no date: the bytes are equal.
        #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)))
    }

    /// A frame of another size, a time that does not advance, an impossible size or quality:
    /// clear errors, and a writer never finished leaves no file.
    /// H.264 colour frames of an odd width or height are written 4:4:4 (4:2:0 needs even
    /// sides) and come back close, every frame at its time.
    @Test(arguments: [(63, 48), (64, 47), (17, 9)])
    func h264TakesOddSizes(width: Int, height: Int) throws {
        let path = Self.temporary("odd-\(width)x\(height).mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let images = Self.frames(4, width: width, height: height, channels: 3)
        try Self.write(images, to: path, codec: .h264)
        let back = try Self.read(path, gray: false)
        #expect(back.images.count == 4)
        #expect(try VideoFile(path: path).header.pixelFormat == "yuv444p")
        for (a, b) in zip(images, back.images) {
            #expect(a.width == b.width && a.height == b.height)
            let error = zip(a.samples, b.samples).map { abs(Int($0) - Int($1)) }.reduce(0, +)
            #expect(Double(error) / Double(a.samples.count) < 6, "mean absolute error \(Double(error) / Double(a.samples.count))")
        }
    }

    @Test func badFramesAreRefusedAndLeaveNoFile() throws {
        let path = Self.temporary("bad.mkv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let writer = try VideoWriter(path: path, codec: .ffv1, width: 64, height: 48, gray: true)
            let t = Self.times(2)
            try writer.write(Self.frames(1, channels: 1)[0], at: t[1])
            #expect(throws: VideoWriter.WriteError.frameMismatch(path: path, time: t[1], expected: "64×48×1", found: "64×48×3")) {
                try writer.write(Self.frames(1, channels: 3)[0], at: t[1])
            }
            #expect(throws: VideoWriter.WriteError.timeNotIncreasing(path: path, time: t[0], previous: t[1])) {
                try writer.write(Self.frames(1, channels: 1)[0], at: t[0])
            }
            #expect(FileManager.default.fileExists(atPath: path + ".partial"))
        }
        #expect(!FileManager.default.fileExists(atPath: path) && !FileManager.default.fileExists(atPath: path + ".partial"))
        #expect(throws: VideoWriter.WriteError.badSize(path: path, width: 1, height: 48)) {
            _ = try VideoWriter(path: path, codec: .ffv1, width: 1, height: 48, gray: true)
        }
        #expect(throws: VideoWriter.WriteError.badSize(path: path, width: 64, height: 16385)) {
            _ = try VideoWriter(path: path, codec: .h264, width: 64, height: 16385, gray: false)
        }
        #expect(throws: VideoWriter.WriteError.badQuality(codec: "h264", quality: 52, range: 0...51)) {
            _ = try VideoWriter(path: path, codec: .h264, width: 64, height: 48, gray: true, quality: 52)
        }
        #expect(throws: VideoWriter.WriteError.unsupportedCodec("vp9")) {
            _ = try VideoWriter(path: path, encoding: .init(codec: "vp9"), width: 64, height: 48, gray: true)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

extension VideoWriterTests {
    /// `convert --to video --out DIR` on a user's folder: refused before anything is encoded
    /// (bad input); a folder that appears at the path while encoding is not replaced at the end:
    /// the error keeps the finished video as `.partial`, the folder keeps its files.
    @Test func anExistingFolderIsNeverReplaced() throws {
        let path = Self.temporary("folder.mkv")
        defer { for p in [path, path + ".partial"] { try? FileManager.default.removeItem(atPath: p) } }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try "keep".write(toFile: path + "/notes.txt", atomically: true, encoding: .utf8)
        #expect { _ = try VideoWriter(path: path, codec: .ffv1, width: 64, height: 48, gray: true) } throws: { error in
            (error as? VideoWriter.WriteError)?.isBadInput == true && "\(error)".contains(path)
        }
        try FileManager.default.removeItem(atPath: path)
        let writer = try VideoWriter(path: path, codec: .ffv1, width: 64, height: 48, gray: true)
        try writer.write(Self.frames(1, channels: 1)[0], at: Self.times(1)[0])
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try "keep".write(toFile: path + "/notes.txt", atomically: true, encoding: .utf8)
        #expect { try writer.finish() } throws: { "\($0)".contains(path + ".partial") }
        #expect(try String(contentsOfFile: path + "/notes.txt", encoding: .utf8) == "keep")
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["notes.txt"])
        #expect((try? Data(contentsOf: URL(fileURLWithPath: path + ".partial")).count) ?? 0 > 0)
    }
}
