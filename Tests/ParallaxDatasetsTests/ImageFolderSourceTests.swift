import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxCodecs
@testable import ParallaxDatasets

@Suite struct ImageFolderSourceTests {
    @Test func imagesInNaturalOrderAtOneSecondSteps() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-images-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Widths 10, 20, 30 name the intended order: 1 < 2 < 10 (not "1" < "10" < "2").
        for (name, width) in [("10.png", 30), ("2.png", 20), ("1.png", 10)] {
            try ImageEncoder.writePNG(ImageBuffer(width: width, height: 4, repeating: 7), to: folder.appendingPathComponent(name).path)
        }
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("H_1_2"))
        let source = try #require(try DatasetFolder.open(folder.path) as? ImageFolderSource)
        #expect(source.formatName == "image folder")
        #expect(source.files.map { ($0 as NSString).lastPathComponent } == ["1.png", "2.png", "10.png"])
        var frames: [(Timestamp, Int)] = []
        while let p = try source.next() { frames.append((p.timestamp, (p.payload as! CameraFrame).width)) }
        #expect(frames.map(\.0) == [Timestamp(seconds: 0), Timestamp(seconds: 1), Timestamp(seconds: 2)])
        #expect(frames.map(\.1) == [10, 20, 30])
        #expect(source.listing.stamps["cam0"]?.count == 3)
    }

    @Test func aFolderWithoutImagesSaysWhatWasExpected() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-noimages-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("x".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        #expect { _ = try DatasetFolder.open(folder.path) } throws: { "\($0)".contains("or a folder of images") }
        #expect(throws: DatasetError.notADataset(path: folder.path, expected: "a folder of images (png, jpg, ppm, pgm)")) {
            _ = try ImageFolderSource(path: folder.path)
        }
    }
}

/// Frame times of image folders: from the names when they are times, else k / rate.
@Suite struct ImageFolderTimingTests {
    func folder(_ names: [String], _ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-timing-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in names { try ImageEncoder.writePNG(ImageBuffer(width: 4, height: 4, repeating: 1), to: folder.appendingPathComponent(name).path) }
        try body(folder.path)
    }

    @Test func namesInNanosecondsAreTheTimes() throws {
        try folder(["1403715273312143104.png", "1403715273262142976.png"]) { path in
            let source = try ImageFolderSource(path: path)
            #expect(source.timing == .namesInNanoseconds)
            #expect(source.times == [Timestamp(nanoseconds: 1403715273262142976), Timestamp(nanoseconds: 1403715273312143104)])
            #expect(source.file(at: Timestamp(nanoseconds: 1403715273312143104)).map { ($0 as NSString).lastPathComponent } == "1403715273312143104.png")
            #expect(source.file(at: Timestamp(nanoseconds: 5)) == nil)
        }
    }

    /// Decimal seconds sort by value: 980.75 before 980.722988 would be name order.
    @Test func namesInDecimalSecondsSortByTime() throws {
        try folder(["1341847980.75.png", "1341847980.722988.png"]) { path in
            let source = try ImageFolderSource(path: path)
            #expect(source.timing == .namesInSeconds)
            #expect(source.times.map(\.nanoseconds) == [1341847980_722988000, 1341847980_750000000])
            #expect(source.files.map { ($0 as NSString).lastPathComponent } == ["1341847980.722988.png", "1341847980.75.png"])
        }
    }

    @Test func otherNamesPlayAtTheRate() throws {
        try folder(["frame_1.png", "frame_2.png", "frame_10.png"]) { path in
            let source = try ImageFolderSource(path: path, rateHz: 20)
            #expect(source.timing == .rate(20))
            #expect(source.times == [Timestamp(nanoseconds: 0), Timestamp(nanoseconds: 50_000_000), Timestamp(nanoseconds: 100_000_000)])
            // A rate that is not a positive number is refused, not replaced in silence.
            for bad in [0, -5, Double.nan, .infinity] {
                #expect { _ = try ImageFolderSource(path: path, rateHz: bad) } throws: { "\($0)".contains("--image-rate") }
            }
        }
        // Small integers are frame numbers (HPatches' 1.ppm … 6.ppm), not times.
        #expect(ImageFolderSource.timesFromNames(["1.ppm", "2.ppm"]) == nil)
        // One name that is not a time makes the whole folder index-timed.
        #expect(ImageFolderSource.timesFromNames(["1403715273262142976.png", "cover.png"]) == nil)
    }

    @Test func twoNamesForOneTimeAreAnError() throws {
        try folder(["1341847980.5.png", "1341847980.50.png"]) { path in
            #expect { _ = try ImageFolderSource(path: path) } throws: { "\($0)".contains("names the same time") }
        }
    }
}
