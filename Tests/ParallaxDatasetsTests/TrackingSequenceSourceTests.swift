import Foundation
import Testing
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxImage
import ParallaxCodecs
@testable import ParallaxDatasets
import ParallaxOutputs

/// OTB and VOT sequences: written here, read back as frames and true boxes.
@Suite struct TrackingSequenceSourceTests {
    static func image(_ k: Int) -> ImageBuffer<UInt8> {
        ImageBuffer(width: 16, height: 12, samples: (0..<192).map { UInt8(truncatingIfNeeded: $0 &+ k) })
    }

    static func packets(_ source: any DatasetSource) throws -> [AnyPacket] {
        var out: [AnyPacket] = []
        while let p = try source.next() { out.append(p) }
        return out
    }

    @Test func anOTBFolderPlaysFramesAndTrueBoxesAt30Hz() throws {
        let url = try TemporaryFolder.make("track-otb")
        defer { try? FileManager.default.removeItem(at: url) }
        let boxes: [BoundingBox?] = [BoundingBox(x: 1.5, y: 2.5, width: 5, height: 4), nil, BoundingBox(x: 2.5, y: 2.5, width: 5, height: 4)]
        try TrackingSequenceWriter.writeOTB((0..<3).map { (Self.image($0), boxes[$0]) }, to: url.path)
        #expect(OTBFormat.recognizes(url.path) && !VOTFormat.recognizes(url.path))
        let source = try DatasetFolder.open(url.path)
        #expect(source.formatName == "OTB")
        let all = try Self.packets(source)
        let frames = all.filter { $0.stream == "cam0" }, truth = all.filter { $0.stream == "object0/box" }
        #expect(frames.map(\.timestamp) == (0..<3).map { Timestamp(seconds: Double($0) / 30) })
        #expect(frames.compactMap { ($0.payload as? CameraFrame)?.image } == (0..<3).map(Self.image))
        #expect(truth.map(\.timestamp) == [frames[0].timestamp, frames[2].timestamp])
        #expect(truth.compactMap { $0.payload as? BoundingBox } == boxes.compactMap { $0 })
        let provider = try #require(source as? any BoxTruthProviding)
        #expect(provider.boxTruth.map(\.box) == boxes && provider.boxTruth.map(\.timestamp) == frames.map(\.timestamp))
        // --image-rate overrides the 30 Hz.
        let slow = try DatasetFolder.open(url.path, options: DatasetOptions(imageRateHz: 10))
        #expect(try Self.packets(slow).last?.timestamp == Timestamp(seconds: 0.2))
    }

    @Test func aMissingFrameIsCountedOrWithStrictAnErrorNamingTheTruthFileAndLine() throws {
        let url = try TemporaryFolder.make("track-missing")
        defer { try? FileManager.default.removeItem(at: url) }
        let box = BoundingBox(x: 1.5, y: 2.5, width: 5, height: 4)
        try TrackingSequenceWriter.writeOTB((0..<4).map { (Self.image($0), box) }, to: url.path)
        try FileManager.default.removeItem(at: url.appendingPathComponent("img/0003.png"))
        let source = try DatasetFolder.open(url.path)
        #expect(source.missingImages == ["cam0": 1])
        #expect(try Self.packets(source).filter { $0.stream == "cam0" }.count == 3)
        #expect((source as? any BoxTruthProviding)?.boxTruth.count == 3)
        let truthFile = url.appendingPathComponent("groundtruth_rect.txt").path
        #expect(throws: DatasetError.missingImage(file: truthFile, line: 3, image: "img/0003.png")) {
            try DatasetFolder.open(url.path, options: DatasetOptions(strict: true))
        }
    }

    @Test func aVOTFolderWithColorAndPolygons() throws {
        let url = try TemporaryFolder.make("track-vot")
        defer { try? FileManager.default.removeItem(at: url) }
        let color = url.appendingPathComponent("color")
        try FileManager.default.createDirectory(at: color, withIntermediateDirectories: true)
        for k in 1...2 { try ImageEncoder.writePNG(Self.image(k), to: color.appendingPathComponent(String(format: "%08d.png", k)).path) }
        try "1,1,9,1,9,7,1,7\n2,1,10,1,10,7,2,7\n".write(to: url.appendingPathComponent("groundtruth.txt"), atomically: true, encoding: .utf8)
        let source = try DatasetFolder.open(url.path)
        #expect(source.formatName == "VOT")
        let truth = try Self.packets(source).compactMap { $0.payload as? BoundingBox }
        #expect(truth == [BoundingBox(x: 0.5, y: 0.5, width: 8, height: 6), BoundingBox(x: 1.5, y: 0.5, width: 8, height: 6)])
    }

    @Test func badFoldersAreClearErrors() throws {
        let url = try TemporaryFolder.make("track-bad")
        defer { try? FileManager.default.removeItem(at: url) }
        try TrackingSequenceWriter.writeOTB([(Self.image(0), nil)], to: url.path)
        try ImageEncoder.writePNG(Self.image(1), to: url.appendingPathComponent("img/cover.png").path)
        #expect { try DatasetFolder.open(url.path) } throws: { "\($0)".contains("img/cover.png") && "\($0)".contains("frame named by its number") }
        try FileManager.default.removeItem(at: url.appendingPathComponent("img/cover.png"))
        try "1,1,4,4\n1,1,4\n".write(to: url.appendingPathComponent("groundtruth_rect.txt"), atomically: true, encoding: .utf8)
        #expect { try DatasetFolder.open(url.path) } throws: { "\($0)".contains("groundtruth_rect.txt:2: expected 4 numbers") }
    }
}
