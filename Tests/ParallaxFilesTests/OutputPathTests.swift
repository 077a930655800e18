import Foundation
import Testing
import TestSupport
import ParallaxBus
@testable import ParallaxFiles
import ParallaxCodecs

/// The output-path policy: a folder where a file is expected is refused up front and never
/// replaced by the final rename (the staged file is kept); data names become file names by one
/// rule that cannot leave the folder, and names that collide are found.
@Suite struct OutputPathTests {
    @Test func aFolderWhereAFileIsExpectedIsRefusedUpFrontNamingTheOption() throws {
        let dir = try TemporaryFolder.make("outpath")
        defer { try? FileManager.default.removeItem(at: dir) }
        let users = dir.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: users, withIntermediateDirectories: true)
        try "keep".write(to: users.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        #expect { try OutputPath.checkFileTarget(users.path, option: "--mcap", kind: MCAPWriter.fileKind) } throws: { error in
            "\(error)".contains("--mcap") && "\(error)".contains(users.path) && error is any BadInput
        }
        #expect(throws: OutputPath.RefusedError.self) { try OutputPath.checkFileTarget(dir.appendingPathComponent("no/such/x.mcap").path, option: "--mcap", kind: MCAPWriter.fileKind) }
        try OutputPath.checkFileTarget(dir.appendingPathComponent("x.mcap").path, option: "--mcap", kind: MCAPWriter.fileKind)
        #expect(try String(contentsOf: users.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep")
    }

    /// An existing file is replaced only when Parallax wrote it and it has not changed since
    /// (``OutputLedger``); a device never is; a staged name that holds a user's file is refused.
    @Test func onlyFilesParallaxWroteAreReplaced() throws {
        let dir = try TemporaryFolder.make("outpath")
        defer { try? FileManager.default.removeItem(at: dir) }
        let kind = OutputPath.FileKind.text("a pose list", header: "# timestamp tx\n")
        let target = dir.appendingPathComponent("pose.tum").path
        // A user's file, even one that looks like Parallax's output, is refused.
        try "# timestamp tx\n1 2\n".write(toFile: target, atomically: true, encoding: .utf8)
        #expect { try OutputPath.checkFileTarget(target, option: "--poses", kind: kind) } throws: { "\($0)".contains("not a pose list Parallax wrote there") }
        // Written through the commit, it is remembered and may be replaced...
        try FileManager.default.removeItem(atPath: target)
        try "# timestamp tx\n1 2\n".write(toFile: OutputPath.staged(target), atomically: true, encoding: .utf8)
        try OutputPath.commit(OutputPath.staged(target), to: target)
        #expect(OutputLedger.remembers(target))
        try OutputPath.checkFileTarget(target, option: "--poses", kind: kind)
        // ...until it changes: appended to, or replaced by a copy with the same bytes.
        let handle = try #require(FileHandle(forWritingAtPath: target))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("3 4\n".utf8))
        try handle.close()
        #expect(!OutputLedger.remembers(target))
        #expect(throws: OutputPath.RefusedError.self) { try OutputPath.checkFileTarget(target, option: "--poses", kind: kind) }
        // The staged name: empty (a kill before the first write) or begun by the writer is ours.
        try FileManager.default.removeItem(atPath: target)
        try Data().write(to: URL(fileURLWithPath: OutputPath.staged(target)))
        try OutputPath.checkFileTarget(target, option: "--poses", kind: kind)
        try "notes".write(toFile: OutputPath.staged(target), atomically: true, encoding: .utf8)
        #expect(throws: OutputPath.RefusedError.self) { try OutputPath.checkFileTarget(target, option: "--poses", kind: kind) }
        // A device is never a file target.
        #expect(throws: OutputPath.RefusedError.self) { try OutputPath.checkFileTarget("/dev/null", option: "--mcap", kind: MCAPWriter.fileKind) }
        // An MCAP file the writer finished is remembered; the same bytes copied elsewhere are not.
        let mcap = dir.appendingPathComponent("x.mcap").path, copy = dir.appendingPathComponent("y.mcap").path
        try MCAPWriter(path: mcap).finish()
        #expect(OutputLedger.remembers(mcap))
        try FileManager.default.copyItem(atPath: mcap, toPath: copy)
        #expect(!OutputLedger.remembers(copy))
        #expect(throws: OutputPath.RefusedError.self) { _ = try MCAPWriter(path: copy) }
        _ = try MCAPWriter(path: mcap)
    }

    /// `rename(2)` onto a folder fails: the folder and its files stay, the staged file stays.
    @Test func theFinalRenameNeverReplacesAFolder() throws {
        let dir = try TemporaryFolder.make("outpath")
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("out.mcap"), staged = OutputPath.staged(target.path)
        try Data("new".utf8).write(to: URL(fileURLWithPath: staged))
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try "keep".write(to: target.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        #expect(throws: OutputPath.CommitError.self) { try OutputPath.commit(staged, to: target.path) }
        #expect(try String(contentsOf: target.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep")
        #expect(try Data(contentsOf: URL(fileURLWithPath: staged)) == Data("new".utf8))
        // An empty folder is not replaced either (rename would accept a file onto it only for a folder).
        try FileManager.default.removeItem(at: target.appendingPathComponent("notes.txt"))
        #expect(throws: OutputPath.CommitError.self) { try OutputPath.commit(staged, to: target.path) }
        #expect(OutputPath.isFolder(target.path))
        // A file is replaced in one step.
        try FileManager.default.removeItem(at: target)
        try Data("old".utf8).write(to: target)
        try OutputPath.commit(staged, to: target.path)
        #expect(try Data(contentsOf: target) == Data("new".utf8))
        #expect(!FileManager.default.fileExists(atPath: staged))
    }

    @Test func dataNamesBecomeFileNamesThatStayInTheirFolder() {
        for name in ["..", ".", "../x", "a/../../b", "/", "", "...", "a\u{0}b", "x/y"] {
            let file = OutputPath.fileName(name)
            #expect(!file.contains("/") && file != "." && file != ".." && !file.isEmpty && !file.contains("\u{0}"), "\(name) → \(file)")
        }
        #expect(OutputPath.fileName("cam0-left_1.x") == "cam0-left_1.x")
        #expect(OutputPath.fileName("..") == "_" && OutputPath.fileName("") == "_" && OutputPath.fileName("a b/c") == "a_b_c")
        #expect(OutputPath.relativePath("../../etc/pose") == "_/_/etc/pose" && OutputPath.relativePath("vio/pose") == "vio/pose")
        for bad in ["", ".", "..", "a/b", "../x", "a\nb", String(repeating: "x", count: 201)] {
            #expect(OutputPath.componentProblem(bad) != nil, "\(bad)")
        }
        #expect(OutputPath.componentProblem("a b") == nil)
        #expect(OutputPath.collisions(["a b", "c", "a_b", "d", "a/b"]) == [["a b", "a_b", "a/b"]])
        #expect(OutputPath.collisions(["a", "b"]).isEmpty)
        #expect(throws: OutputPath.RefusedError.self) { try OutputPath.checkRelativeName("../image_raw", kind: "stream") }
        #expect(throws: OutputPath.RefusedError.self) { try OutputPath.checkRelativeName("cam0//x", kind: "stream") }
        #expect(throws: Never.self) { try OutputPath.checkRelativeName("cam0/tracks", kind: "stream") }
    }

    @Test func pathsInsideAFolderAreFoundWhateverTheirSpelling() throws {
        let dir = try TemporaryFolder.make("outpath")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        #expect(OutputPath.relative(out.path + "/sub/../x.mcap", inside: out.path) == "x.mcap")
        #expect(OutputPath.relative(dir.path + "/./out/a/b.pxmap", inside: out.path) == "a/b.pxmap")
        #expect(OutputPath.relative(out.path, inside: out.path) == "")
        #expect(OutputPath.relative(out.path + ".partial/x", inside: out.path) == nil)
        #expect(OutputPath.relative(dir.path + "/x.mcap", inside: out.path) == nil)
        // Through a link to the folder's parent.
        let link = dir.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: dir)
        #expect(OutputPath.relative(link.path + "/out/x.mcap", inside: out.path) == "x.mcap")
    }
}
