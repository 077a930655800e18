import Foundation
import Testing
import ParallaxMath
@testable import ParallaxCodecs

@Suite struct HomographyFileTests {
    func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-H-\(UUID())").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func readsRowsAndNamesTheBadLine() throws {
        let good = try write("2 0 10\n0 2 -5\n0.001 0 1\n")
        defer { try? FileManager.default.removeItem(atPath: good) }
        let h = try HomographyFile.read(path: good)
        #expect(h[0, 2] == 10 && h[1, 1] == 2 && h[2, 0] == 0.001)
        let bad = try write("2 0 10\n0 2 x\n0 0 1\n")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        #expect(throws: DenseFileError.malformed(path: bad, reason: "line 2: expected three numbers, got '0 2 x'")) { _ = try HomographyFile.read(path: bad) }
        let short = try write("1 0 0\n0 1 0\n")
        defer { try? FileManager.default.removeItem(atPath: short) }
        #expect(throws: DenseFileError.malformed(path: short, reason: "2 rows, a homography has 3")) { _ = try HomographyFile.read(path: short) }
        let singular = try write("1 0 0\n2 0 0\n0 0 0\n")
        defer { try? FileManager.default.removeItem(atPath: singular) }
        #expect(throws: DenseFileError.malformed(path: singular, reason: "singular homography")) { _ = try HomographyFile.read(path: singular) }
    }
}
