import Foundation
import Testing
import ParallaxCore
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
