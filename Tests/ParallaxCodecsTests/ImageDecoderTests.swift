import Foundation
import Testing
import TestSupport
import ParallaxPayloads
@testable import ParallaxCodecs
@testable import ParallaxDatasets
import ParallaxGeometry
import ParallaxBus

@Suite struct ImageDecoderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let tum = root.appendingPathComponent("datasets/tum_rgbd_frame")

    @Test func decodesRGBAnd16BitPNGsToTheValuesPypngReads() throws {
        guard case let .rgb8(rgb) = try ImageDecoder.decode(path: Self.tum.appendingPathComponent("rgb/1341847980.722988.png").path) else {
            Issue.record("color PNG not decoded as RGB"); return
        }
        #expect(rgb.width == 640 && rgb.height == 480 && rgb.channels == 3)
        #expect([rgb[320, 240, 0], rgb[320, 240, 1], rgb[320, 240, 2]] == [252, 252, 250])
        #expect(rgb.samples.reduce(0) { $0 + Int($1) } == 101_558_687)
        guard case let .gray16(depth) = try ImageDecoder.decode(path: Self.tum.appendingPathComponent("depth/1341847980.722988.png").path) else {
            Issue.record("depth PNG not decoded as 16-bit"); return
        }
        // Raw values, no gamma conversion: exactly what pypng reads.
        #expect(depth[320, 240] == 10920 && depth[100, 100] == 11205 && depth[0, 0] == 0)
        #expect(depth.samples.reduce(0) { $0 + Int($1) } == 3_074_716_315)
    }

    /// A 16-bit gray PNG read as a camera image (TUM VI's `_16` frames) is scaled to 8 bits,
    /// full range onto full range, rounded; read as data (depth) it keeps its raw values.
    @Test func sixteenBitGrayIsScaledWhenReadAsACameraImage() throws {
        let path = Self.tum.appendingPathComponent("depth/1341847980.722988.png").path
        guard case let .gray16(raw) = try ImageDecoder.decode(path: path) else { Issue.record("not 16-bit"); return }
        let camera = try ImageDecoder.decode8Bit(path: path)
        #expect(camera.width == raw.width && camera.height == raw.height && camera.channels == 1)
        #expect(camera[320, 240] == 42 && camera[0, 0] == 0)  // 10920 · 255 / 65535 = 42.49
        #expect(zip(raw.samples, camera.samples).allSatisfy { abs(Double($0) * 255 / 65535 - Double($1)) <= 0.5 })
        #expect(ImageDecoder.scaledTo8Bit(ImageBuffer(width: 3, height: 1, samples: [0, 32896, 65535])).samples == [0, 128, 255])
    }

    @Test func decodesEuRoCGrayAndConvertsColorToLuma() throws {
        let gray = try ImageDecoder.decodeGray8(path: Self.root.appendingPathComponent("datasets/euroc_v1_01_cut/mav0/cam0/data/1403715273262142976.png").path)
        #expect(gray.width == 752 && gray.height == 480 && gray.channels == 1)
        let luma = ImageBuffer<UInt8>(width: 2, height: 1, channels: 3, samples: [255, 255, 255, 255, 0, 0]).luma
        #expect(luma.samples == [255, 77])
    }

    @Test(.enabled(if: RepositoryPaths.hasSharedData("faces/aflw2000_subset/image00050.jpg"), "../shared/data/faces/aflw2000_subset/image00050.jpg is not present on this machine"))
    func decodesJPEG() throws {
        let jpeg = RepositoryPaths.sharedData("faces/aflw2000_subset/image00050.jpg").path
        guard case let .rgb8(image) = try ImageDecoder.decode(path: jpeg) else { Issue.record("not RGB"); return }
        #expect(image.width == 450 && image.height == 450)
        let mean = Double(image.samples.reduce(0) { $0 + Int($1) }) / Double(image.samples.count)
        #expect(mean > 20 && mean < 235)
        // A JPEG cut in half is an error naming the file, not a half-gray image.
        let data = try Data(contentsOf: URL(fileURLWithPath: jpeg))
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-cut-\(UUID()).jpg")
        try data.prefix(data.count / 2).write(to: cut)
        defer { try? FileManager.default.removeItem(at: cut) }
        #expect { _ = try ImageDecoder.decode(path: cut.path) } throws: { error in
            guard case let ImageDecodingError.corrupt(path, _) = error else { return false }
            return path == cut.path
        }
    }

    @Test func decodesBinaryPNMWithCommentsAndRefusesTruncatedOnes() throws {
        let dir = FileManager.default.temporaryDirectory
        // P6 2×1 with a comment in the header.
        let p6 = dir.appendingPathComponent("parallax-\(UUID()).ppm")
        try (Data("P6\n# made by a test\n2 1\n255\n".utf8) + Data([10, 20, 30, 40, 50, 60])).write(to: p6)
        defer { try? FileManager.default.removeItem(at: p6) }
        guard case let .rgb8(rgb) = try ImageDecoder.decode(path: p6.path) else { Issue.record("P6 not RGB"); return }
        #expect(rgb.width == 2 && rgb.height == 1 && rgb.samples == [10, 20, 30, 40, 50, 60])
        // P5 with maxval 15 is rescaled to 0…255; 16-bit P5 keeps raw big-endian values.
        let p5 = dir.appendingPathComponent("parallax-\(UUID()).pgm")
        try (Data("P5 2 1 15\n".utf8) + Data([15, 5])).write(to: p5)
        defer { try? FileManager.default.removeItem(at: p5) }
        #expect(try ImageDecoder.decodeGray8(path: p5.path).samples == [255, 85])
        let p16 = dir.appendingPathComponent("parallax-\(UUID()).pgm")
        try (Data("P5 1 2 65535\n".utf8) + Data([0x12, 0x34, 0xFF, 0xFE])).write(to: p16)
        defer { try? FileManager.default.removeItem(at: p16) }
        guard case let .gray16(wide) = try ImageDecoder.decode(path: p16.path) else { Issue.record("16-bit P5 not gray16"); return }
        #expect(wide.samples == [0x1234, 0xFFFE])
        // Truncated samples and a missing header field are errors naming the file.
        let cut = dir.appendingPathComponent("parallax-\(UUID()).ppm")
        try (Data("P6 2 2 255\n".utf8) + Data([1, 2, 3])).write(to: cut)
        defer { try? FileManager.default.removeItem(at: cut) }
        #expect(throws: ImageDecodingError.corrupt(path: cut.path, message: "PNM has 3 sample bytes, 2×2×3 needs 12")) {
            _ = try ImageDecoder.decode(path: cut.path)
        }
        try Data("P6 2\n".utf8).write(to: cut)
        #expect(throws: ImageDecodingError.corrupt(path: cut.path, message: "PNM header: height missing")) {
            _ = try ImageDecoder.decode(path: cut.path)
        }
        // Samples above maxval (8- and 16-bit) are errors, not a trap or a wrapped value (found by fuzzing).
        try (Data("P5 2 1 15\n".utf8) + Data([15, 200])).write(to: cut)
        #expect(throws: ImageDecodingError.corrupt(path: cut.path, message: "PNM sample 1 is 200, above maxval 15")) {
            _ = try ImageDecoder.decode(path: cut.path)
        }
        try (Data("P5 1 1 1000\n".utf8) + Data([0x12, 0x34])).write(to: cut)
        #expect(throws: ImageDecodingError.corrupt(path: cut.path, message: "PNM sample 0 is 4660, above maxval 1000")) {
            _ = try ImageDecoder.decode(path: cut.path)
        }
    }

    /// A real HPatches image (binary P6).
    @Test(.enabled(if: RepositoryPaths.hasSharedData("homography/churchill/1.ppm"), "../shared/data/homography/churchill/1.ppm is not present on this machine"))
    func decodesARealHPatchesPPM() throws {
        let churchill = RepositoryPaths.sharedData("homography/churchill/1.ppm").path
        guard case let .rgb8(photo) = try ImageDecoder.decode(path: churchill) else { Issue.record("churchill not RGB"); return }
        #expect(photo.width == 768 && photo.height == 1024)
        // The first pixel's bytes follow the 15-byte header "P6\n768 1024\n255\n".
        #expect([photo[0, 0, 0], photo[0, 0, 1], photo[0, 0, 2]] == [0x6C, 0x5C, 0x4C])
    }

    /// A PNG: signature, an IHDR chunk declaring `width × height` (8-bit gray) with its CRC, an
    /// (empty) IDAT, IEND.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return ~c
        }
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return be(UInt32(body.count)) + typed + be(crc32(typed))
        }
        let ihdr = be(width) + be(height) + [8, 0, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", []))
    }

    /// Headers declaring huge sizes are refused before anything is allocated, naming the file and
    /// the size, for every image and dense-data format (a trap or gigabytes allocated before).
    @Test func hugeDeclaredSizesAreRefusedBeforeAllocating() throws {
        let dir = FileManager.default.temporaryDirectory
        let file = dir.appendingPathComponent("parallax-\(UUID()).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        func refused(_ data: Data, _ read: (String) throws -> Void) throws {
            try data.write(to: file)
            #expect { try read(file.path) } throws: { error in
                let text = "\(error)"
                return text.contains(file.path) && text.contains("exceeds the limit of 100.0 megapixels")
            }
        }
        for (w, h) in [(999_999, 999_999), (50_000, 50_000)] {
            try refused(Self.pngHeader(width: UInt32(w), height: UInt32(h))) { _ = try ImageDecoder.decode(path: $0) }
            try refused(Data("P5 \(w) \(h) 255\n".utf8)) { _ = try ImageDecoder.decode(path: $0) }
            try refused(Data("Pf\n\(w) \(h)\n-1\n".utf8)) { _ = try DenseFiles.readPFM(path: $0) }
            var flo = Data()
            for v in [Float(202021.25).bitPattern, UInt32(w), UInt32(h)] { withUnsafeBytes(of: v.littleEndian) { flo.append(contentsOf: $0) } }
            try refused(flo) { _ = try DenseFiles.readFlo(path: $0) }
        }
        // A PFM size whose product overflows Int is refused, not trapped.
        try refused(Data("Pf\n9999999999 9999999999\n-1\n".utf8)) { _ = try DenseFiles.readPFM(path: $0) }
        #expect(ImageSizeLimit.check(width: Int.max, height: 2) == .failure(.tooLarge(width: Int.max, height: 2, limit: ImageSizeLimit.maxPixels)))
        #expect(ImageSizeLimit.check(width: 752, height: 480) == .success(360_960))
        #expect(ImageSizeLimit.check(width: 0, height: 480) == .failure(.empty(width: 0, height: 480)))
    }

    @Test func pfmWrittenIsReadBackWithUnknownsAsNaN() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-\(UUID()).pfm").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // 3 × 2, top row first, one unknown: the file stores rows bottom to top, the unknown as +∞.
        let image = ImageBuffer<Float>(width: 3, height: 2, samples: [1.5, .nan, 3, -4, 5.25, 6])
        try DenseFiles.writePFM(image, path: path)
        let back = try DenseFiles.readPFM(path: path)
        #expect(back.width == 3 && back.height == 2)
        #expect(back[0, 0] == 1.5 && back[1, 0].isNaN && back[2, 1] == 6 && back[0, 1] == -4)
        #expect(throws: DenseFileError.self) { try DenseFiles.writePFM(image, path: "/nonexistent-dir/x.pfm") }
    }

    @Test func nonImagesAreRefusedByName() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-\(UUID()).png")
        try Data("not an image".utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        #expect(throws: ImageDecodingError.unsupported(path: path.path, reason: "not PNG, JPEG or binary PNM (P5/P6)")) {
            _ = try ImageDecoder.decode(path: path.path)
        }
        #expect(throws: ImageDecodingError.unreadable(path: "/nonexistent.png")) { _ = try ImageDecoder.decode(path: "/nonexistent.png") }
    }
}

@Suite struct TUMRGBDSourceTests {
    @Test func readsTheBundledFrame() throws {
        let source = try TUMRGBDSource(path: ImageDecoderTests.tum.path)
        #expect(source.streams.map(\.name) == ["rgb", "depth"])
        let rgb = try #require(try source.next())
        let depth = try #require(try source.next())
        #expect(try source.next() == nil)
        #expect(rgb.stream == "rgb" && rgb.timestamp.nanoseconds == 1_341_847_980_722_988_000)
        let frame = try #require(rgb.payload as? CameraFrame)
        #expect(frame.format == .rgb8 && frame.width == 640)
        let map = try #require(depth.payload as? DepthMap)
        #expect(map.kind == .depth)
        #expect(map.values[320, 240] == Float(10920) / 5000)
        #expect(!map.isValid(x: 0, y: 0))
        let invalid = map.values.samples.filter(\.isNaN).count
        #expect(abs(Double(invalid) / Double(640 * 480) - 0.192) < 0.001)
        #expect(source.groundTruth == nil)
        // Decoded depth statistics (the issue's median 2.42 m is 2.415 m rounded: raw 12075 / 5000; 19.2 % invalid).
        let stats = try map.depthStatistics()
        #expect(stats.valid + stats.invalid == 640 * 480)
        #expect(abs(Double(stats.invalid) / Double(640 * 480) - 0.192) < 0.0005)
        #expect(abs((stats.median ?? 0) - 2.415) < 1e-6)
        // The folder's sensor.yaml (TUM's freiburg3 calibration) describes rgb and the depth registered to it.
        let rgbCamera = try #require(source.streams.first { $0.name == "rgb" }?.metadata.camera)
        #expect(rgbCamera.model.intrinsics == PinholeIntrinsics(fx: 535.4, fy: 539.2, cx: 320.1, cy: 247.6))
        #expect(source.streams.first { $0.name == "depth" }?.metadata.depth?.camera == rgbCamera)
    }

    @Test func freiburg3InThePathGivesTUMsCalibrationAndNoneOtherwise() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-rgbd_dataset_freiburg3_test-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "1.0 rgb/1.png\n".write(to: folder.appendingPathComponent("rgb.txt"), atomically: true, encoding: .utf8)
        let source = try TUMRGBDSource(path: folder.path, strict: false)
        #expect(source.streams.first?.metadata.camera?.model == TUMRGBDSource.freiburg3)
        let other = folder.deletingLastPathComponent().appendingPathComponent("parallax-tum-\(UUID())")
        defer { try? FileManager.default.removeItem(at: other) }
        try FileManager.default.copyItem(at: folder, to: other)
        #expect(try TUMRGBDSource(path: other.path).streams.first?.metadata.camera == nil)
        // A malformed sensor.yaml is an error naming it, not a silent default.
        try "sensor_type: camera\n".write(to: other.appendingPathComponent("sensor.yaml"), atomically: true, encoding: .utf8)
        #expect { _ = try TUMRGBDSource(path: other.path) } throws: { "\($0)".contains("sensor.yaml") }
    }

    @Test func framesOfAnotherSizeThanTheCalibrationAreErrorsNamingTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-tum-size-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: ImageDecoderTests.tum, to: folder)
        let yaml = folder.appendingPathComponent("sensor.yaml")
        try String(contentsOf: yaml, encoding: .utf8).replacingOccurrences(of: "[640, 480]", with: "[320, 240]").write(to: yaml, atomically: true, encoding: .utf8)
        let source = try TUMRGBDSource(path: folder.path)
        #expect { _ = try source.next() } throws: { "\($0)".contains("rgb/1341847980.722988.png: the image is 640×480 px but its camera's calibration") }
    }

    @Test func notATUMFolderSaysWhatWasExpected() {
        #expect(throws: DatasetError.notADataset(path: "/tmp", expected: "a TUM RGB-D folder with rgb.txt and/or depth.txt")) {
            _ = try TUMRGBDSource(path: "/tmp")
        }
    }
}
