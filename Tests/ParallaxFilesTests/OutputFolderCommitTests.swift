import CFileSystem
import Foundation
import Testing
import TestSupport
@testable import ParallaxFiles

/// The commit replaces a previous result folder in one atomic exchange where the file system
/// can: `NAME` is never missing, nothing is left beside it, and what a kill in the middle of
/// removing the previous results leaves (them, in `NAME.partial`, possibly cut short) is taken
/// as a stale staging folder by the next command.
@Suite struct OutputFolderCommitTests {
    @Test func twoFoldersAreExchangedWholeOrNotAtAll() throws {
        let dir = try TemporaryFolder.make("exchange")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a"), b = dir.appendingPathComponent("b")
        for (u, text) in [(a, "A"), (b, "B")] {
            try FileManager.default.createDirectory(at: u, withIntermediateDirectories: false)
            try Data(text.utf8).write(to: u.appendingPathComponent("file"))
        }
        if parallax_exchange_paths(a.path, b.path) == 0 {
            #expect(try Data(contentsOf: a.appendingPathComponent("file")) == Data("B".utf8))
            #expect(try Data(contentsOf: b.appendingPathComponent("file")) == Data("A".utf8))
        } else {
            #expect(errno == EINVAL || errno == ENOSYS, "an exchange refused for another reason than the file system: \(errno)")
        }
        // A missing side is an error, and nothing moves.
        #expect(parallax_exchange_paths(a.path, dir.appendingPathComponent("missing").path) == -1)
        #expect(FileManager.default.fileExists(atPath: a.path))
    }

    @Test func replacingAResultLeavesOnlyTheNewFolder() throws {
        let dir = try TemporaryFolder.make("commit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out").path
        let first = try OutputFolder(path: out, command: "first")
        try Data("old\n".utf8).write(to: first.staging.appendingPathComponent("events.jsonl"))
        try FileManager.default.createDirectory(at: first.staging.appendingPathComponent("vio"), withIntermediateDirectories: false)
        try Data("old\n".utf8).write(to: first.staging.appendingPathComponent("vio/pose.tum"))
        try first.commit()
        let second = try OutputFolder(path: out, command: "second")
        try Data("new\n".utf8).write(to: second.staging.appendingPathComponent("events.jsonl"))
        try second.commit()
        #expect(try Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("events.jsonl")) == Data("new\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: out + "/vio"), "the previous result's files stay")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out"], "left beside the result")
    }

    /// After the exchange the previous results sit in `NAME.partial` until removed; a kill there
    /// leaves them (with their marker, maybe without some files): the next command removes them.
    @Test func previousResultsLeftInThePartialFolderByAKillAreRemovedNextTime() throws {
        let dir = try TemporaryFolder.make("commit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out").path
        let first = try OutputFolder(path: out, command: "first")
        for name in ["a.txt", "b.txt", "c.txt"] { try Data(name.utf8).write(to: first.staging.appendingPathComponent(name)) }
        try first.commit()
        // What the removal, cut short after one file, leaves in place of a staging folder.
        try FileManager.default.copyItem(atPath: out, toPath: out + ".partial")
        try FileManager.default.removeItem(atPath: out + ".partial/a.txt")
        let next = try OutputFolder(path: out, command: "next")
        #expect(try FileManager.default.contentsOfDirectory(atPath: next.staging.path) == [OutputFolder.markerName])
        try next.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out"])
        // The removal itself takes the marker last and the folder with it.
        let own = dir.appendingPathComponent("own")
        try FileManager.default.copyItem(atPath: out, toPath: own.path)
        OutputFolder.removeFolderMarkerLast(own)
        #expect(!FileManager.default.fileExists(atPath: own.path))
        // Only what the marker lists: a file put into the folder after the commit's check (the
        // instant before the exchange) is kept, with the marker, so the next command names it.
        try FileManager.default.copyItem(atPath: out, toPath: own.path)
        try FileManager.default.createDirectory(at: own.appendingPathComponent("mine"), withIntermediateDirectories: false)
        try Data("notes".utf8).write(to: own.appendingPathComponent("mine/notes.txt"))
        OutputFolder.removeFolderMarkerLast(own)
        #expect(try FileManager.default.contentsOfDirectory(atPath: own.path).sorted() == [OutputFolder.markerName, "mine"])
        #expect(try Data(contentsOf: own.appendingPathComponent("mine/notes.txt")) == Data("notes".utf8))
    }
}
