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

/// What a `kill -9` leaves in `NAME.partial`: the list its command kept while it ran (rewritten
/// every second), by which the next command tells the killed command's files from a user's.
@Suite struct OutputFolderProgressListTests {
    /// A scratch folder holding `out.partial` as a killed `command` leaves it: its marker written,
    /// no list yet.
    func killedCommandsFolder(_ command: String) throws -> (scratch: URL, stale: URL) {
        let dir = try TemporaryFolder.make("progress")
        let stale = dir.appendingPathComponent("out.partial")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: false)
        try Data("\(command)\n".utf8).write(to: stale.appendingPathComponent(OutputFolder.markerName))
        return (dir, stale)
    }

    @Test func aRunningCommandListsItsStagingFolderEverySecond() throws {
        let dir = try TemporaryFolder.make("progress")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = try OutputFolder(path: dir.appendingPathComponent("out").path, command: "parallax run")
        defer { folder.keepUnfinished() }
        let marker = folder.staging.appendingPathComponent(OutputFolder.markerName)
        #expect(try String(contentsOf: marker, encoding: .utf8) == "parallax run\n\(OutputFolder.progressLine)\n")
        try Data("x".utf8).write(to: folder.staging.appendingPathComponent("events.jsonl"))
        Thread.sleep(forTimeInterval: 2.5 * UnfinishedFolders.period)
        #expect(try String(contentsOf: marker, encoding: .utf8) == "parallax run\n\(OutputFolder.progressLine)\nevents.jsonl\n")
    }

    /// Killed in its first moments, before a list named anything: what appeared within the
    /// margin is the command's (a simulation's first folder and files).
    @Test func aCommandKilledBeforeItsFirstListLeavesAReplaceableFolder() throws {
        let (dir, stale) = try killedCommandsFolder("parallax simulate")
        defer { try? FileManager.default.removeItem(at: dir) }
        try OutputFolder.writeManifest(of: stale, heading: OutputFolder.progressLine)
        try FileManager.default.createDirectory(at: stale.appendingPathComponent("imu0"), withIntermediateDirectories: false)
        try Data("t".utf8).write(to: stale.appendingPathComponent("scene.txt"))
        try OutputFolder.checkReplaceable(stale, path: stale.path)
        #expect { try OutputFolder.checkReplaceable(stale, path: stale.path, killMargin: -1) } throws: { "\($0)".contains("left by a parallax command that was killed") }
    }

    /// Unlisted entries are the killed command's when they appeared within the margin of the
    /// list's last writing, a user's after it: refused (the stale folder is kept), never removed.
    @Test func filesNewerThanTheKilledCommandsListAreRefused() throws {
        let (dir, stale) = try killedCommandsFolder("parallax run")
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = stale.appendingPathComponent("cam0/formatted")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: stale.appendingPathComponent("events.jsonl"))
        try Data("1".utf8).write(to: frames.appendingPathComponent("1.png"))
        try OutputFolder.writeManifest(of: stale, heading: OutputFolder.progressLine)
        // Written after the last list, before the kill: the stream's next frame.
        try Data("2".utf8).write(to: frames.appendingPathComponent("2.png"))
        try OutputFolder.checkReplaceable(stale, path: stale.path)
        // Put there by the user right after the kill: notes unlike anything listed, a folder.
        try Data("mine".utf8).write(to: stale.appendingPathComponent("notes.txt"))
        #expect { try OutputFolder.checkReplaceable(stale, path: stale.path) } throws: { "\($0)".contains("'notes.txt'") && !"\($0)".contains("2.png") }
        try FileManager.default.removeItem(at: stale.appendingPathComponent("notes.txt"))
        try FileManager.default.createDirectory(at: stale.appendingPathComponent("mine"), withIntermediateDirectories: false)
        #expect { try OutputFolder.checkReplaceable(stale, path: stale.path) } throws: { "\($0)".contains("'mine/'") }
        try FileManager.default.removeItem(at: stale.appendingPathComponent("mine"))
        // A frame that appeared after the margin is not the killed command's either.
        Thread.sleep(forTimeInterval: 0.6)
        try Data("3".utf8).write(to: frames.appendingPathComponent("3.png"))
        #expect { try OutputFolder.checkReplaceable(stale, path: stale.path, killMargin: 0.3) } throws: { "\($0)".contains("3.png") }
        // A finished list tolerates nothing unlisted.
        try OutputFolder.writeManifest(of: stale)
        try Data("z".utf8).write(to: stale.appendingPathComponent("late.txt"))
        #expect(throws: OutputFolder.RefusedError.self) { try OutputFolder.checkReplaceable(stale, path: stale.path) }
    }
}
