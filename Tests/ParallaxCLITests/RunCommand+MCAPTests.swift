import Foundation
import Testing
@testable import ParallaxCLI
@testable import ParallaxApp
import Parallax

/// `parallax run … --mcap FILE`: the inputs and every output in an MCAP file for Foxglove,
/// checked by the Python reference reader (`scripts/check-mcap`; skipped without `pip install
/// mcap`).
@Suite struct FoxgloveCommandTests {
    @Test func runWritesTheSameMCAPEveryTime() throws {
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
    }

    @Test(.enabled(if: PythonModule.available("mcap"), "the Python mcap reader is not installed (pip install mcap)"))
    func runWritesAnMCAPThatTheReferenceReaderDecodes() throws {
        let dir = Paths.temporary("mcap-reference")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("run.mcap").path
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        #expect(parallax(["run", "klt camera=cam0 ! triangulate", Paths.cut, "--out", dir.appendingPathComponent("out").path, "--quiet", "--mcap", file]) == 0)
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

    /// An MCAP file inside --out may sit beside a stream's files (`OUT/vio/x.mcap`), but not
    /// where a stream needs its folder (`OUT/vio`) or a stream's own file (`OUT/vio/pose.tum`):
    /// refused naming --mcap, not the stream.
    @Test func anMCAPInsideAStreamsFolderIsFineBesideItsFilesAndRefusedInTheirPlace() throws {
        let dir = Paths.temporary("mcap-inside")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("r1").path
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        #expect(parallax(["run", "klt ! vio", Paths.cut, "--out", out, "--quiet", "--mcap", out + "/vio/x.mcap"]) == 0)
        #expect(FileManager.default.fileExists(atPath: out + "/vio/x.mcap") && FileManager.default.fileExists(atPath: out + "/vio/pose.tum"))
        for inside in ["/vio", "/vio/pose.tum"] {
            #expect(parallax(["run", "klt ! vio", Paths.cut, "--out", out, "--quiet", "--mcap", out + inside]) == 2, "\(inside)")
        }
        // Nor inside the folder a stream fills with a file per frame (one of its PNGs was replaced).
        let frames = dir.appendingPathComponent("r2").path
        #expect(parallax(["run", "video-format camera=cam0", Paths.cut, "--out", frames, "--quiet", "--mcap", frames + "/cam0/formatted/1403715273262142976.png"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: frames))
    }

    /// `convert --to mcap`: every stream of the dataset, ground truth too.
    @Test func convertWritesEveryStream() throws {
        let dir = Paths.temporary("mcap-convert")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("cut.mcap").path
        #expect(parallax(["convert", Paths.cut, "--to", "mcap", "--out", file]) == 0)
        #expect(parallax(["convert", Paths.cut, "--to", "mcap", "--out", dir.appendingPathComponent("cut.txt").path]) == 2)
        let records = try MCAPWriterChecks.channels(of: Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(records == ["/cam0", "/cam1", "/imu0", "/groundtruth", "/tf/groundtruth"].sorted())
    }
}

/// The topics an MCAP file's summary names (a reading of its channel records).
enum MCAPWriterChecks {
    static func channels(of file: Data) throws -> [String] {
        var topics: [String] = []
        var i = 8
        func u64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(file[file.startIndex + at + $1]) << (8 * $1) } }
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(file[file.startIndex + at + $1]) << (8 * $1) } }
        while i < file.count - 8 {
            let op = file[file.startIndex + i], length = u64(i + 1)
            if op == 0x04 {  // channel: id u16, schema u16, topic
                let n = u32(i + 9 + 4)
                topics.append(String(decoding: file.subdata(in: (i + 9 + 8)..<(i + 9 + 8 + n)), as: UTF8.self))
            }
            if op == 0x0F { break }  // data end: the summary repeats the channels
            i += 9 + length
        }
        return topics.sorted()
    }
}
