import Foundation
import Testing
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxFiles
@testable import ParallaxCodecs

/// The MCAP files ``MCAPWriter`` writes, read back record by record (the Python reference
/// reader checks them too: `scripts/check-mcap`, FoxgloveCommandTests): magic at both ends,
/// chunks with their message indexes, a summary whose offsets and chunk indexes point at the
/// records they name, and the same bytes for the same messages.
@Suite struct MCAPWriterTests {
    static func write(_ path: String, messages: Int) throws {
        let writer = try MCAPWriter(path: path)
        writer.chunkSize = 200
        let schema = try writer.addSchema(name: "test.Value", encoding: "jsonschema", data: Data("{}".utf8))
        let a = try writer.addChannel(topic: "/a", schema: schema, messageEncoding: "json")
        let b = try writer.addChannel(topic: "/b", schema: schema, messageEncoding: "json")
        for k in 0..<messages {
            try writer.write(channel: k % 3 == 0 ? b : a, time: UInt64(1_000_000 + k * 50), data: Data("{\"k\":\(k)}".utf8))
        }
        #expect(FileManager.default.fileExists(atPath: path + ".partial") && !FileManager.default.fileExists(atPath: path))
        try writer.finish()
    }

    @Test func structureAndIndexes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-mcap-\(getpid()).mcap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.write(path, messages: 40)
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(file.suffix(8) == MCAPWriter.magic)
        let records = try MCAPRecords.records(file)
        let ops = records.map(\.op)
        #expect(ops.first == 0x01 && ops.last == 0x02)  // header … footer
        let chunks = records.filter { $0.op == 0x06 }, indexes = records.filter { $0.op == 0x08 }
        #expect(chunks.count > 3 && indexes.count == chunks.count)
        // Each chunk index points at its chunk, whose records hold the messages it counts.
        var messages = 0
        for (chunk, index) in zip(chunks, indexes) {
            #expect(Int(MCAPRecords.le(index.body, 16, UInt64.self)) == chunk.offset)
            let inner = chunk.body.subdata(in: (8 + 8 + 8 + 4 + 4 + 8)..<chunk.body.count)
            var j = 0
            while j < inner.count {
                #expect(inner[inner.startIndex + j] == 0x05)
                j += 9 + Int(MCAPRecords.le(inner, j + 1, UInt64.self))
                messages += 1
            }
        }
        #expect(messages == 40)
        // The statistics count every message; the footer points at the summary.
        let stats = try #require(records.first { $0.op == 0x0B })
        #expect(MCAPRecords.le(stats.body, 0, UInt64.self) == 40)
        let footer = try #require(records.last)
        let summaryStart = Int(MCAPRecords.le(footer.body, 0, UInt64.self))
        #expect(records.first { $0.offset == summaryStart }?.op == 0x03)  // the summary's schemas
        #expect(records.contains { $0.op == 0x0F && $0.offset < summaryStart })  // data end
        // Same messages, same bytes.
        let again = path + "-again.mcap"
        defer { try? FileManager.default.removeItem(atPath: again) }
        try Self.write(again, messages: 40)
        #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == file)
    }

    /// A writer never finished leaves its `.partial` file (readable sequentially), not the name.
    @Test func unfinishedFilesKeepThePartialName() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-mcap-partial-\(getpid()).mcap").path
        defer { try? FileManager.default.removeItem(atPath: path + ".partial") }
        do {
            let writer = try MCAPWriter(path: path)
            let schema = try writer.addSchema(name: "s", encoding: "jsonschema", data: Data("{}".utf8))
            let channel = try writer.addChannel(topic: "/x", schema: schema, messageEncoding: "json")
            try writer.write(channel: channel, time: 1, data: Data("{}".utf8))
        }
        #expect(!FileManager.default.fileExists(atPath: path) && FileManager.default.fileExists(atPath: path + ".partial"))
        // A folder that does not exist: refused before anything is created (OutputPath).
        #expect(throws: OutputPath.RefusedError.self) { _ = try MCAPWriter(path: "/nonexistent-folder/x.mcap") }
    }
}

extension MCAPWriterTests {
    /// `--mcap DIR` on a user's folder: refused when the writer starts, and a folder that appears
    /// at the path during the recording is not replaced at the end (the recording is kept as
    /// `.partial`); the folder's files are never touched.
    @Test func anExistingFolderIsNeverReplaced() throws {
        let dir = try TemporaryFolder.make("mcap-folder")
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("rec.mcap")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try "keep".write(to: target.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        #expect { _ = try MCAPWriter(path: target.path) } throws: { $0 is any BadInput && "\($0)".contains(target.path) }

        let late = dir.appendingPathComponent("late.mcap")
        let writer = try MCAPWriter(path: late.path)
        try FileManager.default.createDirectory(at: late, withIntermediateDirectories: true)
        try "keep".write(to: late.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        #expect { try writer.finish() } throws: { "\($0)".contains("late.mcap.partial") }
        for folder in [target, late] {
            #expect(try String(contentsOf: folder.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: late.path + ".partial")).prefix(8) == MCAPWriter.magic)
    }
}
