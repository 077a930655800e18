import Foundation
import Testing
@testable import ParallaxFetch

/// Unpacking is bounded: the total against a limit (an entry declaring more than is left is
/// refused before it is written), and a stop request honoured inside an entry, not only between.
@Suite struct ArchiveExtractionTests {
    static func archive(_ kind: TestArchive.Kind, _ files: [(String, [UInt8])]) throws -> (archive: String, folder: String) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("unpack-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let path = base + "/a"
        _ = FileManager.default.createFile(atPath: path, contents: Data(try TestArchive.make(kind, files: files)))
        return (path, base + "/out")
    }

    /// A stop request (Ctrl-C) during one large entry stops it within a block: the old check
    /// between entries would have unpacked all 8 MiB first.
    @Test(arguments: [TestArchive.Kind.tarGzip, .zip])
    func aStopRequestIsHonouredInsideAnEntry(kind: TestArchive.Kind) throws {
        let (archive, folder) = try Self.archive(kind, [("big.bin", [UInt8](repeating: 3, count: 8 << 20))])
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        var asked = 0
        #expect(performing: {
            try ArchiveExtraction(archive: archive, into: folder).run(shouldStop: { asked += 1; return asked > 3 })
        }, throws: { "\($0)".contains("stopped while unpacking 'big.bin'") })
        #expect(asked == 4, "asked before the entry, then before each block until told to stop")
    }

    /// An entry declaring more than the limit leaves is refused before a byte of it is written;
    /// the limit counts every entry.
    @Test func theTotalIsBounded() throws {
        let (archive, folder) = try Self.archive(.tarGzip, [("a.bin", [UInt8](repeating: 1, count: 600_000)), ("b.bin", [UInt8](repeating: 2, count: 600_000))])
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        #expect(performing: { try ArchiveExtraction(archive: archive, into: folder, maximumBytes: 1_000_000).run() }, throws: { error in
            guard case let FetchError.unpackLimit(_, limit, reason) = error else { return false }
            return limit == 1_000_000 && reason.contains("'b.bin' declares 600000 bytes after 600000 unpacked")
        })
        #expect(!FileManager.default.fileExists(atPath: folder + "/b.bin"))
        let summary = try ArchiveExtraction(archive: archive, into: folder + "2", maximumBytes: 1_200_000).run()
        #expect(summary.files == 2 && summary.bytes == 1_200_000)
    }

    /// A folder reached through a symbolic link of the user's (a linked data disk) unpacks:
    /// libarchive's secure-symlinks rule sees the resolved path, and still refuses links the
    /// archive itself would make.
    @Test func aFolderBehindALinkUnpacks() throws {
        let (archive, folder) = try Self.archive(.tarGzip, [("data/x.txt", Array("hello".utf8))])
        let base = (folder as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: base + "/real")
        let summary = try ArchiveExtraction(archive: archive, into: base + "/link/sub").run()
        #expect(summary.files == 1)
        #expect(FileManager.default.contents(atPath: base + "/real/sub/data/x.txt") == Data("hello".utf8))
    }
}

/// Where a resumed download's part starts, read from the server's Content-Range.
@Suite struct ContentRangeTests {
    @Test func theStartIsReadAndAnythingElseIsNot() {
        #expect(HTTPDownload.contentRangeStart("bytes 100-199/200") == 100)
        #expect(HTTPDownload.contentRangeStart(" bytes 0-9/*") == 0)
        #expect(HTTPDownload.contentRangeStart("bytes */200") == nil)
        #expect(HTTPDownload.contentRangeStart("items 1-2/3") == nil)
        #expect(HTTPDownload.contentRangeStart("") == nil)
    }
}
