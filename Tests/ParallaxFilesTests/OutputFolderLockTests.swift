import Foundation
import Testing
import TestSupport
@testable import ParallaxFiles
import ParallaxCodecs

/// One command at a time per output folder: a second is refused before it touches the staging
/// folder; the lock file is removed when released, a stale one (its process gone) blocks
/// nobody, and a `NAME.lock` that is not Parallax's is refused and left alone.
@Suite struct OutputFolderLockTests {
    @Test func aSecondCommandOnTheSameFolderIsRefusedAndTheFirstOnesStagingKept() throws {
        let dir = try TemporaryFolder.make("lock")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out").path
        let first = try OutputFolder(path: out, command: "first")
        let events = first.staging.appendingPathComponent("events.jsonl")
        try Data("first\n".utf8).write(to: events)
        #expect { _ = try OutputFolder(path: out, command: "second") } throws: { error in
            error is OutputFolder.RefusedError && "\(error)".contains("in use by another parallax command") && "\(error)".contains(out)
        }
        #expect(try Data(contentsOf: events) == Data("first\n".utf8), "the second command removed the first one's staging folder")
        try first.commit()
        #expect(try Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("events.jsonl")) == Data("first\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: out + ".lock"), "the lock file stays after the commit")
        // Free again.
        let third = try OutputFolder(path: out, command: "third")
        try third.commit()
    }

    @Test func aStaleLockFileBlocksNobodyAndAForeignOneIsLeftAlone() throws {
        let dir = try TemporaryFolder.make("lock")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out").path
        // What a killed run leaves: the file, no lock (flock ends with its process).
        try Data("\(OutputFolderLock.marker) 12345\n".utf8).write(to: URL(fileURLWithPath: out + ".lock"))
        let lock = try OutputFolderLock(folder: out)
        lock.release()
        #expect(!FileManager.default.fileExists(atPath: out + ".lock"))
        // A user's file of that name.
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: out + ".lock"))
        #expect(throws: OutputFolder.RefusedError.self) { _ = try OutputFolderLock(folder: out) }
        #expect(try String(contentsOfFile: out + ".lock", encoding: .utf8) == "my notes\n")
        // A user's empty file of that name (older than a command's own just created one) is
        // refused and kept; a fresh empty one is a command's that has not marked it yet.
        let empty = URL(fileURLWithPath: out + ".lock")
        try Data().write(to: empty)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: empty.path)
        #expect(throws: OutputFolder.RefusedError.self) { _ = try OutputFolderLock(folder: out) }
        #expect(try Data(contentsOf: empty).isEmpty)
        try Data().write(to: empty)
        let fresh = try OutputFolderLock(folder: out)
        fresh.release()
        #expect(!FileManager.default.fileExists(atPath: empty.path))
    }

    /// A released lock whose file another command has since replaced removes nothing of it.
    @Test func releasingRemovesOnlyTheFileThatWasLocked() throws {
        let dir = try TemporaryFolder.make("lock")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out").path
        let lock = try OutputFolderLock(folder: out)
        try FileManager.default.removeItem(atPath: out + ".lock")
        try Data("another\n".utf8).write(to: URL(fileURLWithPath: out + ".lock"))
        lock.release()
        #expect(try String(contentsOfFile: out + ".lock", encoding: .utf8) == "another\n")
    }

    /// `--mcap`/`--save-map` inside `--out` go to the staging folder at the same relative path
    /// (the commit carries them); the folder itself, its staging folder and the command's own
    /// files are refused.
    @Test func extraOutputsInsideTheFolderAreStaged() throws {
        let dir = try TemporaryFolder.make("lock")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out").path
        let folder = try OutputFolder(path: out, command: "test")
        let staged = try folder.redirect(out + "/maps/room.pxmap", option: "--save-map", kind: MCAPWriter.fileKind)
        #expect(staged == folder.staging.appendingPathComponent("maps/room.pxmap").path)
        #expect(OutputPath.isFolder(folder.staging.appendingPathComponent("maps").path))
        let elsewhere = dir.appendingPathComponent("x.mcap").path
        #expect(try folder.redirect(elsewhere, option: "--mcap", kind: MCAPWriter.fileKind) == elsewhere)
        for bad in [out, out + ".partial/x.mcap", out + ".lock", out + "/run.json", out + "/run.json/x.mcap", out + "/" + OutputFolder.markerName + "/x.mcap", out + "/" + OutputFolder.markerName] {
            #expect(throws: OutputPath.RefusedError.self, "\(bad)") { _ = try folder.redirect(bad, option: "--mcap", kind: MCAPWriter.fileKind, reserved: ["run.json"]) }
        }
        try Data("map".utf8).write(to: URL(fileURLWithPath: staged))
        try folder.commit()
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/maps/room.pxmap")) == Data("map".utf8))
    }
}
