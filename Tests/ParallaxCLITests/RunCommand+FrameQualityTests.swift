import Foundation
import Testing
import Parallax
@testable import ParallaxCLI
@testable import ParallaxApp

/// `frame-quality` through the command line: what a port wired to another stream is named, and
/// stream names too long for a file name.
@Suite struct FrameQualityCommandTests {
    /// `frames=@cam1` measures cam1, and says so: the payload names the stream really read
    /// (`AnalyzerContext.stream(of:)`), so the report draws it over cam1's frames.
    @Test func aRemappedInputIsNamedAsTheStreamRead() throws {
        let out = Paths.temporary("quality-remap")
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(parallax(["run", "frame-quality frames=@cam1", Paths.cut, "--out", out.path, "--quiet"]) == 0)
        let events = try String(contentsOf: out.appendingPathComponent("events.jsonl"), encoding: .utf8)
        let qualities = events.split(separator: "\n").filter { $0.contains(#""stream":"cam0/quality""#) }
        #expect(qualities.count == 6)
        #expect(qualities.allSatisfy { $0.contains(#""camera":"cam1""#) })
        let csv = try String(contentsOf: out.appendingPathComponent("cam0/quality.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 7)
    }

    /// A stream whose file name (with its staging suffix) exceeds 255 bytes is refused before the
    /// run, naming the stream; nothing is left behind.
    @Test func aStreamNameTooLongForAFileIsRefusedUpFront() throws {
        let out = Paths.temporary("quality-long")
        defer { try? FileManager.default.removeItem(at: out) }
        let long = String(repeating: "L", count: 246)
        #expect(parallax(["run", "frame-quality quality=@\(long)", Paths.cut, "--out", out.path, "--quiet"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(!FileManager.default.fileExists(atPath: out.path + ".partial"))
        // 239 bytes leave room for any writer's extension and `.partial`.
        let fits = String(repeating: "L", count: 239)
        #expect(parallax(["run", "frame-quality quality=@\(fits)", Paths.cut, "--out", out.path, "--quiet"]) == 0)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("\(fits).csv").path))
    }
}
