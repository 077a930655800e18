import Foundation
import Testing
@testable import ParallaxCLI
import Parallax

/// `parallax run … --mcap FILE`: the inputs and every output in an MCAP file for Foxglove,
/// checked by the Python reference reader (`scripts/check-mcap`; skipped without `pip install
/// mcap`).
@Suite struct FoxgloveCommandTests {
    static func pythonMCAP() -> Bool {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import mcap"]
        probe.standardError = FileHandle.nullDevice
        probe.standardOutput = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }

    @Test func runWritesAnMCAPThatTheReferenceReaderDecodes() throws {
        let dir = Paths.temporary("mcap")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("run.mcap").path
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        #expect(parallax(["run", "klt camera=cam0 ! triangulate", Paths.cut, "--out", dir.appendingPathComponent("out").path, "--quiet", "--mcap", file]) == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(bytes.prefix(5) == Data([0x89, 0x4D, 0x43, 0x41, 0x50]) && bytes.count > 100_000)
        #expect(!FileManager.default.fileExists(atPath: file + ".partial"))
        // Same run, same bytes.
        let again = dir.appendingPathComponent("again.mcap").path
        #expect(parallax(["run", "klt camera=cam0 ! triangulate", Paths.cut, "--out", dir.appendingPathComponent("out2").path, "--quiet", "--mcap", again]) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == bytes)
        guard Self.pythonMCAP() else { print("skipped: the Python mcap reader is not installed (pip install mcap)"); return }
        let check = Process()
        check.executableURL = Paths.root.appendingPathComponent("scripts/check-mcap")
        check.arguments = [file, "/cam0=6", "/cam1=6", "/imu0=61", "/groundtruth=7", "/cam0/tracks=6"]
        let output = Pipe()
        check.standardOutput = output
        try check.run()
        check.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(check.terminationStatus == 0, "\(text)")
        #expect(text.contains("/cam0\tfoxglove.CompressedImage\t6") && text.contains("/groundtruth\tfoxglove.PoseInFrame\t7"))
    }

    @Test func anMCAPThatCannotBeCreatedExitsWithTwo() throws {
        let dir = Paths.temporary("mcap-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(parallax(["run", "stream-stats", Paths.cut, "--out", dir.path, "--quiet", "--mcap", "/nonexistent-folder/x.mcap"]) == 2)
    }
}
