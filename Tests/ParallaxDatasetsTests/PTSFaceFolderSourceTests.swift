import Foundation
import Testing
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
@testable import ParallaxDatasets

@Suite struct PTSFaceFolderSourceTests {
    static func pts(_ points: [(Double, Double)], declared: Int? = nil, closed: Bool = true) -> String {
        "version: 1\nn_points:  \(declared ?? points.count)\n{\n" + points.map { "\($0.0) \($0.1)" }.joined(separator: "\n") + (closed ? "\n}\n" : "\n")
    }

    /// 68 points beside an image: a face folder; the points move to 0-based pixels.
    @Test func readsImagesWithTheirLandmarks() throws {
        let folder = try TemporaryFolder.make("pts")
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = RepositoryPaths.aflwSynthetic.appendingPathComponent("image00001.png").path
        let points = (0..<68).map { (Double($0) + 1.5, 2 * Double($0) + 1) }
        for name in ["b", "a"] {
            try FileManager.default.copyItem(atPath: png, toPath: folder.appendingPathComponent("\(name).png").path)
            try Self.pts(points).write(to: folder.appendingPathComponent("\(name).pts"), atomically: true, encoding: .utf8)
        }
        #expect(PTSFaceFolderFormat.recognizes(folder.path))
        let source = try #require(try DatasetFolder.open(folder.path) as? PTSFaceFolderSource)
        #expect(source.files.map { ($0.image as NSString).lastPathComponent } == ["a.png", "b.png"])
        #expect(source.streams.map(\.name) == ["cam0", "face0/landmarks"])
        let truth = try #require(source.faceTruth["face0"]?.first)
        #expect(truth.angles == nil && truth.landmarks?[3] == Vector2(3.5, 6))
    }

    @Test func badFilesAreErrorsNamingFileAndLine() throws {
        let folder = try TemporaryFolder.make("pts-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("x.pts")
        for (text, expected) in [(Self.pts([(1, 2), (3, 4)], declared: 3), "n_points says 3"),
                                 (Self.pts([(1, 2)], closed: false), "truncated"),
                                 ("version: 1\nn_points: 2\n{\n1 2\n3 nan\n}\n", "x.pts:5"),
                                 ("hello\n", "x.pts:1"),
                                 ("version: 1\nn_points: -4\n{\n}\n", "n_points must be a positive")] {
            try text.write(to: file, atomically: true, encoding: .utf8)
            #expect(throws: DatasetError.self) { _ = try PTSFaceFolderSource.readPTS(file.path) }
            do { _ = try PTSFaceFolderSource.readPTS(file.path) } catch { #expect("\(error)".contains(expected), "\(error)") }
        }
    }
}
