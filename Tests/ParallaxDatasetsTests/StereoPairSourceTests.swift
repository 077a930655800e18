import Foundation
import Testing
import ParallaxFiles
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxCodecs
@testable import ParallaxDatasets

/// The Middlebury and KITTI stereo readers, on folders written here in their layouts.
@Suite struct StereoBenchmarkFormatsTests {
    static func rgb(_ w: Int, _ h: Int, seed: UInt8) -> ImageBuffer<UInt8> {
        ImageBuffer(width: w, height: h, channels: 3, samples: (0..<(w * h * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) })
    }

    static let calib = """
        cam0=[500 0 20.5; 0 500 15; 0 0 1]
        cam1=[500 0 24.5; 0 500 15; 0 0 1]
        doffs=4
        baseline=120.0
        width=40
        height=30
        ndisp=16
        """

    /// A Middlebury folder of a 40×30 pair, its truth (NaN in the first row) and mask (the
    /// first column occluded).
    static func middlebury(calib: String = calib, truthSize: (Int, Int) = (40, 30)) throws -> URL {
        let dir = try TemporaryFolder.make("stereo-middlebury")
        try calib.write(to: dir.appendingPathComponent("calib.txt"), atomically: true, encoding: .utf8)
        try ImageEncoder.writePNG(rgb(40, 30, seed: 1), to: dir.appendingPathComponent("im0.png").path)
        try ImageEncoder.writePNG(rgb(40, 30, seed: 2), to: dir.appendingPathComponent("im1.png").path)
        let (tw, th) = truthSize
        try DenseFiles.writePFM(ImageBuffer(width: tw, height: th, samples: (0..<(tw * th)).map { $0 < tw ? Float.nan : Float($0 % 7) + 0.5 }),
                                path: dir.appendingPathComponent("disp0.pfm").path)
        try ImageEncoder.writePNG(ImageBuffer(width: 40, height: 30, samples: (0..<1200).map { $0 % 40 == 0 ? UInt8(128) : 255 }),
                                  to: dir.appendingPathComponent("mask0nocc.png").path)
        return dir
    }

    @Test func aMiddleburyFolderIsTwoCamerasWithTheirCalibrationAndTruth() throws {
        let dir = try Self.middlebury()
        let source = try DatasetFolder.open(dir.path)
        #expect(source.formatName == "Middlebury")
        #expect(source.streams.map(\.name) == ["cam0", "cam1"])
        let left = try #require(source.streams[0].metadata.camera), right = try #require(source.streams[1].metadata.camera)
        #expect(left.model.intrinsics == PinholeIntrinsics(fx: 500, fy: 500, cx: 20.5, cy: 15))
        #expect(right.model.intrinsics.cx == 24.5)
        #expect(abs((left.bodyFromSensor.inverse * right.bodyFromSensor).translation.x - 0.12) < 1e-12)
        #expect(source.streams[0].metadata.stereo?.stream == "cam1")
        var frames: [(String, Int64, Int)] = []
        while let p = try source.next() {
            let f = try #require(p.payload as? CameraFrame)
            frames.append((p.stream, p.timestamp.nanoseconds, f.image.channels))
        }
        #expect(frames.map(\.0) == ["cam0", "cam1"] && frames.allSatisfy { $0.1 == 0 && $0.2 == 3 })
        let truth = try #require(try (source as? any DisparityTruthProviding)?.disparityTruth(at: Timestamp(nanoseconds: 0)))
        #expect(truth.disparity.samples[0].isNaN && truth.disparity.samples[40] == Float(40 % 7) + 0.5)
        #expect(truth.nonOccluded?[0] == false && truth.nonOccluded?[1] == true)
        // The pair is rectified as it is (only the principal points' columns differ).
        #expect(StereoRectification.isRectified(left: left.model, right: right.model, rightFromLeft: right.bodyFromSensor.inverse * left.bodyFromSensor))
    }

    /// calib.txt's `ndisp` is the left camera's disparity search; a file with CRLF lines reads
    /// the same; one far larger than any calib.txt is refused unread.
    @Test func theDisparitySearchCRLFAndAHugeCalibTxt() throws {
        let dir = try Self.middlebury()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try DatasetFolder.open(dir.path).streams[0].metadata.stereo?.disparitySearch == DisparitySearch(levels: 16, origin: "calib.txt (ndisp)"))
        let crlf = try Self.middlebury(calib: Self.calib.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n")
        defer { try? FileManager.default.removeItem(at: crlf) }
        #expect(try DatasetFolder.open(crlf.path).streams[0].metadata.stereo?.disparitySearch?.levels == 16)
        let calib = dir.appendingPathComponent("calib.txt")
        let handle = try FileHandle(forWritingTo: calib)
        try handle.truncate(atOffset: UInt64(FileContents.maxDescriptionBytes + 1))  // sparse
        try handle.close()
        #expect { _ = try DatasetFolder.open(dir.path) } throws: { "\($0)".contains("bytes: a description file is at most") }
    }

    @Test func aBadMiddleburyCalibrationNamesTheFileAndLine() throws {
        let file = { (dir: URL) in dir.appendingPathComponent("calib.txt").path }
        var dir = try Self.middlebury(calib: Self.calib.replacingOccurrences(of: "baseline=120.0\n", with: ""))
        #expect(throws: DatasetError.malformedRow(file: file(dir), line: 0, reason: "no 'baseline=' line")) { try DatasetFolder.open(dir.path) }
        // A key that is missing is the file's, not a line's: no 'calib.txt:0'.
        dir = try Self.middlebury(calib: Self.calib.replacingOccurrences(of: "cam1=[500 0 24.5; 0 500 15; 0 0 1]\n", with: ""))
        #expect { try DatasetFolder.open(dir.path) } throws: { "\($0)" == "\(file(dir)): no 'cam1=' line" }
        dir = try Self.middlebury(calib: Self.calib.replacingOccurrences(of: "cam1=[500 0 24.5; 0 500 15; 0 0 1]", with: "cam1=[500 0 24.5; 0 500 15]"))
        #expect(throws: DatasetError.malformedRow(file: file(dir), line: 2, reason: "'cam1' must be a 3×3 matrix '[f 0 cx; 0 f cy; 0 0 1]'")) {
            try DatasetFolder.open(dir.path)
        }
        dir = try Self.middlebury(calib: Self.calib.replacingOccurrences(of: "0 500 15; 0 0 1]\ndoffs", with: "0 500 16; 0 0 1]\ndoffs"))
        #expect(throws: DatasetError.malformedRow(file: file(dir), line: 2, reason: "cam0 and cam1 must be a rectified pair: one positive focal length (fx = fy) and one cy")) {
            try DatasetFolder.open(dir.path)
        }
        dir = try Self.middlebury(calib: Self.calib.replacingOccurrences(of: "doffs=4", with: "doffs=9"))
        #expect(throws: DatasetError.malformedRow(file: file(dir), line: 3, reason: "doffs 9.0 is not cam1's cx minus cam0's (4.0)")) { try DatasetFolder.open(dir.path) }
        dir = try Self.middlebury(calib: Self.calib.replacingOccurrences(of: "width=40", with: "width=41"))
        let source = try DatasetFolder.open(dir.path)
        #expect(throws: ImageDecodingError.notTheCalibratedSize(path: dir.appendingPathComponent("im0.png").path, width: 40, height: 30, calibratedWidth: 41, calibratedHeight: 30)) {
            _ = try source.next()
        }
        dir = try Self.middlebury(truthSize: (39, 30))
        let truthFile = dir.appendingPathComponent("disp0.pfm").path
        #expect(throws: DatasetError.malformedRow(file: truthFile, line: 0, reason: "the disparity is 39×30, the images 40×30 (calib.txt)")) {
            _ = try (DatasetFolder.open(dir.path) as? any DisparityTruthProviding)?.disparityTruth(at: Timestamp(nanoseconds: 0))
        }
    }

    /// A KITTI 2015 `training/` folder with `frames` scenes; `focal` per scene.
    static func kitti(focal: [Double], malformed: Bool = false) throws -> URL {
        let dir = try TemporaryFolder.make("stereo-kitti")
        for sub in ["image_2", "image_3", "disp_occ_0", "disp_noc_0", "calib_cam_to_cam"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for (i, f) in focal.enumerated() {
            let name = String(format: "%06d", i)
            try ImageEncoder.writePNG(rgb(24, 10, seed: UInt8(i)), to: dir.appendingPathComponent("image_2/\(name)_10.png").path)
            try ImageEncoder.writePNG(rgb(24, 10, seed: UInt8(i + 9)), to: dir.appendingPathComponent("image_3/\(name)_10.png").path)
            // The second frame of a scene, not played.
            try ImageEncoder.writePNG(rgb(24, 10, seed: 0), to: dir.appendingPathComponent("image_2/\(name)_11.png").path)
            // Truth: 2.5 px everywhere but the first column (unknown); non-occluded: not the last column.
            try ImageEncoder.writePNG16(ImageBuffer(width: 24, height: 10, samples: (0..<240).map { $0 % 24 == 0 ? UInt16(0) : 640 }),
                                        to: dir.appendingPathComponent("disp_occ_0/\(name)_10.png").path)
            try ImageEncoder.writePNG16(ImageBuffer(width: 24, height: 10, samples: (0..<240).map { $0 % 24 == 0 || $0 % 24 == 23 ? UInt16(0) : 640 }),
                                        to: dir.appendingPathComponent("disp_noc_0/\(name)_10.png").path)
            let p2 = "\(f) 0.0 12.0 \(0.06 * f) 0.0 \(f) 5.0 0.0 0.0 0.0 1.0 0.0"
            let p3 = malformed ? "\(f) 0.0 12.0" : "\(f) 0.0 12.0 \(-0.47 * f) 0.0 \(f) 5.0 0.0 0.0 0.0 1.0 0.0"
            try "S_rect_02: 24 10\nP_rect_02: \(p2)\nP_rect_03: \(p3)\n".write(to: dir.appendingPathComponent("calib_cam_to_cam/\(name).txt"), atomically: true, encoding: .utf8)
        }
        return dir
    }

    @Test func aKITTIFolderPlaysEachSceneWithItsTruth() throws {
        let dir = try Self.kitti(focal: [700, 700])
        let source = try DatasetFolder.open(dir.path)
        #expect(source.formatName == "KITTI stereo")
        let left = try #require(source.streams[0].metadata.camera), right = try #require(source.streams[1].metadata.camera)
        #expect(left.model.width == 24 && left.model.height == 10 && left.model.intrinsics == PinholeIntrinsics(fx: 700, fy: 700, cx: 12, cy: 5))
        #expect(abs(right.bodyFromSensor.translation.x - 0.53) < 1e-9)
        var times: [String: [Int64]] = [:]
        while let p = try source.next() { times[p.stream, default: []].append(p.timestamp.nanoseconds) }
        #expect(times == ["cam0": [0, 100_000_000], "cam1": [0, 100_000_000]])
        let truth = try #require(try (source as? any DisparityTruthProviding)?.disparityTruth(at: Timestamp(nanoseconds: 100_000_000)))
        #expect(truth.disparity.samples[0].isNaN && truth.disparity.samples[1] == 2.5)
        #expect(truth.nonOccluded?[1] == true && truth.nonOccluded?[23] == false)
        #expect(truth.file.hasSuffix("disp_occ_0/000001_10.png"))
    }

    @Test func kittiScenesOfDifferentDrivesOpenOneAtATime() throws {
        let dir = try Self.kitti(focal: [700, 721.5])
        let second = dir.appendingPathComponent("calib_cam_to_cam/000001.txt").path
        let one = dir.appendingPathComponent("image_2/000001_10.png").path
        #expect(throws: DatasetError.malformedRow(file: second, line: 0, reason: "its calibration differs from \(dir.appendingPathComponent("calib_cam_to_cam/000000.txt").path)'s "
                                                  + "(the scenes come from different drives); open one frame: \(one)")) {
            try DatasetFolder.open(dir.path)
        }
        let source = try DatasetFolder.open(one)
        #expect(source.streams[0].metadata.camera?.model.intrinsics.fx == 721.5)
        var count = 0
        while try source.next() != nil { count += 1 }
        #expect(count == 2)
    }

    @Test func aMalformedKITTIProjectionNamesTheFileAndLine() throws {
        let dir = try Self.kitti(focal: [700], malformed: true)
        #expect(throws: DatasetError.malformedRow(file: dir.appendingPathComponent("calib_cam_to_cam/000000.txt").path, line: 3,
                                                  reason: "'P_rect_03' must hold 12 numbers (a 3×4 projection matrix)")) {
            try DatasetFolder.open(dir.path)
        }
    }
}
