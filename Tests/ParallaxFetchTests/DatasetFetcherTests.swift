import Foundation
import Testing
import ParallaxDatasets
@testable import ParallaxFetch

/// `parallax fetch`'s engine against a server on loopback: a small archive, an interrupted
/// transfer (resumed), a server that ignores ranges, a wrong checksum or size (file removed),
/// a 404, an archive escaping its folder, a wrong layout.
@Suite(.serialized) struct DatasetFetcherTests {
    /// A tiny EuRoC-shaped sequence, inside a top folder the catalog strips.
    static func eurocFiles(_ top: String = "seq") -> [(String, [UInt8])] {
        let csv = Array("#timestamp [ns],filename\n".utf8)
        var noise = [UInt8](repeating: 0, count: 40_000)
        var x: UInt32 = 12345
        for i in noise.indices { x = x &* 1_103_515_245 &+ 12345; noise[i] = UInt8(truncatingIfNeeded: x >> 16) }
        return [("\(top)/mav0/cam0/data.csv", csv), ("\(top)/mav0/cam0/data/noise.bin", noise), ("\(top)/README.txt", Array("hello\n".utf8))]
    }

    struct Setup {
        let server: LoopbackHTTPServer
        let folder: String
        let archive: [UInt8]
        func catalog(sha256: String? = nil, bytes: Int64? = nil, layout: String = "euroc", path: String = "/seq.tar.gz", strip: Int = 1) throws -> DatasetCatalog {
            var line = "{name: seq, url: '\(server.url(path))', strip: \(strip)"
            if let sha256 { line += ", sha256: \(sha256)" }
            if let bytes { line += ", bytes: \(bytes)" }
            return try DatasetCatalog(yaml: """
                datasets:
                  - name: tiny
                    title: Tiny
                    what: a test archive
                    licence: none
                    source: \(server.url("/"))
                    layout: \(layout)
                    sequences: [\(line)}]
                """, file: "test")
        }
        func leftovers() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] }
    }

    static func setup(_ kind: TestArchive.Kind = .tarGzip, files: [(String, [UInt8])] = eurocFiles()) throws -> Setup {
        let server = try LoopbackHTTPServer()
        let archive = try TestArchive.make(kind, files: files)
        server.set(kind == .zip ? "/seq.zip" : "/seq.tar.gz", .init(body: archive))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return Setup(server: server, folder: folder, archive: archive)
    }

    static func sha256(_ bytes: [UInt8]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
        return try FileDigest.sha256(of: file)
    }

    @Test func sha256MatchesTheStandardTestVector() throws {
        #expect(try Self.sha256(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test(arguments: [TestArchive.Kind.tarGzip, .zip])
    func aSmallArchiveIsDownloadedVerifiedAndUnpackedIntoALayoutParallaxOpens(kind: TestArchive.Kind) throws {
        let s = try Self.setup(kind)
        defer { s.server.stop(); try? FileManager.default.removeItem(atPath: s.folder) }
        let sha = try Self.sha256(s.archive)
        var fetcher = DatasetFetcher(catalog: try s.catalog(sha256: sha, bytes: Int64(s.archive.count), path: kind == .zip ? "/seq.zip" : "/seq.tar.gz"),
                                     destination: s.folder)
        fetcher.retryDelay = 0
        var reports: [(Int64, Int64?)] = []
        let outcome = try fetcher.fetch(dataset: "tiny", sequence: nil, progress: { reports.append(($0, $1)) })
        #expect(outcome.folder == s.folder + "/seq" && outcome.bytes == Int64(s.archive.count) && outcome.sha256 == sha)
        #expect(outcome.sizeVerified && outcome.sha256Verified && outcome.files == 3 && !outcome.alreadyThere)
        #expect(EuRoCFormat.recognizes(outcome.folder))
        #expect(FileManager.default.contents(atPath: outcome.folder + "/mav0/cam0/data/noise.bin") == Data(Self.eurocFiles()[1].1))
        #expect(s.leftovers() == ["seq"], "the work folder is removed")
        #expect(reports.last.map { $0.0 == Int64(s.archive.count) && $0.1 == Int64(s.archive.count) } == true)
        // A second fetch finds it and downloads nothing.
        let again = try fetcher.fetch(dataset: "tiny", sequence: "seq")
        #expect(again.alreadyThere && again.sha256 == sha && s.server.requests.count == 1)
    }

    @Test func aCutTransferIsResumedWithARangeRequestAndGivesTheSameBytes() throws {
        let s = try Self.setup()
        defer { s.server.stop(); try? FileManager.default.removeItem(atPath: s.folder) }
        s.server.set("/seq.tar.gz", .init(body: s.archive, cutAfter: 5000, cuts: 2))
        var fetcher = DatasetFetcher(catalog: try s.catalog(sha256: try Self.sha256(s.archive)), destination: s.folder)
        fetcher.retryDelay = 0
        var lines: [String] = []
        let outcome = try fetcher.fetch(dataset: "tiny", sequence: nil, log: { lines.append($0) })
        #expect(outcome.sha256Verified)
        #expect(s.server.requests.map(\.range) == [nil, "bytes=5000-", "bytes=10000-"])
        #expect(lines.contains { $0.contains("resuming") && $0.contains("10000") })
    }

    @Test func aTransferCutMoreOftenThanRetriedKeepsItsBytesAndTheNextFetchResumes() throws {
        let s = try Self.setup()
        defer { s.server.stop(); try? FileManager.default.removeItem(atPath: s.folder) }
        s.server.set("/seq.tar.gz", .init(body: s.archive, cutAfter: 3000, cuts: 1))
        var fetcher = DatasetFetcher(catalog: try s.catalog(), destination: s.folder)
        fetcher.retries = 0
        do { _ = try fetcher.fetch(dataset: "tiny", sequence: nil); Issue.record("no error") } catch let e as FetchError {
            guard case let .transferFailed(_, _, received) = e else { Issue.record("\(e)"); return }
            #expect(received == 3000 && !e.isBadInput && e.description.contains("run the same command again"))
        }
        let partial = try #require(try FileManager.default.contentsOfDirectory(atPath: s.folder + "/.parallax-downloads").first)
        #expect(partial.hasSuffix(".partial"))
        #expect(!FileManager.default.fileExists(atPath: s.folder + "/seq"), "nothing half-unpacked")
        let outcome = try fetcher.fetch(dataset: "tiny", sequence: nil)
        #expect(outcome.sha256 == (try Self.sha256(s.archive)) && !outcome.sha256Verified)
        #expect(s.server.requests.map(\.range) == [nil, "bytes=3000-"])
    }

    @Test func aServerThatIgnoresTheRangeGivesTheWholeFileWhichReplacesThePartialOne() throws {
        let s = try Self.setup()
        defer { s.server.stop(); try? FileManager.default.removeItem(atPath: s.folder) }
        s.server.set("/seq.tar.gz", .init(body: s.archive, cutAfter: 7000, cuts: 1, ignoresRange: true))
        var fetcher = DatasetFetcher(catalog: try s.catalog(sha256: try Self.sha256(s.archive)), destination: s.folder)
        fetcher.retryDelay = 0
        let outcome = try fetcher.fetch(dataset: "tiny", sequence: nil)
        #expect(outcome.sha256Verified && s.server.requests.map(\.range) == [nil, "bytes=7000-"])
    }

    @Test func aWrongChecksumRemovesTheFileAndSaysBoth() throws {
        let s = try Self.setup()
        defer { s.server.stop(); try? FileManager.default.removeItem(atPath: s.folder) }
        let wrong = String(repeating: "ab", count: 32)
        let fetcher = DatasetFetcher(catalog: try s.catalog(sha256: wrong), destination: s.folder)
        let actual = try Self.sha256(s.archive)
        do { _ = try fetcher.fetch(dataset: "tiny", sequence: nil); Issue.record("no error") } catch let e as FetchError {
            #expect(e.description.contains(wrong) && e.description.contains(actual) && e.description.contains("removed"))
        }
        #expect(s.leftovers().allSatisfy { $0 == ".parallax-downloads" })
        #expect((try? FileManager.default.contentsOfDirectory(atPath: s.folder + "/.parallax-downloads"))?.isEmpty ?? true)
        // The caller's --sha256 wins over the catalog's.
        var corrected = fetcher
        corrected.expectedSHA256 = try Self.sha256(s.archive)
        #expect(try corrected.fetch(dataset: "tiny", sequence: nil).sha256Verified)
    }

    @Test func aWrongSizeRemovesTheFile() throws {
        let s = try Self.setup()
        defer { s.server.stop(); try? FileManager.default.removeItem(atPath: s.folder) }
        let fetcher = DatasetFetcher(catalog: try s.catalog(bytes: Int64(s.archive.count + 1)), destination: s.folder)
        #expect(throws: FetchError.wrongSize(file: s.folder + "/.parallax-downloads/tiny-seq-seq.tar.gz.partial", expected: Int64(s.archive.count + 1), actual: Int64(s.archive.count))) {
            try fetcher.fetch(dataset: "tiny", sequence: nil)
        }
        #expect(!FileManager.default.fileExists(atPath: s.folder + "/.parallax-downloads/tiny-seq-seq.tar.gz.partial"))
    }

    /// A server sending more than the catalog's `bytes:` is stopped as soon as it passes them —
    /// when it announces its length, before the body; without one, at the first block past it —
    /// and the file is removed.
    @Test(arguments: [false, true])
    func aServerSendingMoreThanTheCatalogSaysIsStoppedEarly(hidesLength: Bool) throws {
        let s = try Self.setup()
        defer { s.server.stop(); try? FileManager.default.removeItem(atPath: s.folder) }
        let huge = [UInt8](repeating: 7, count: 8 << 20)
        s.server.set("/seq.tar.gz", .init(body: huge, hidesLength: hidesLength))
        var fetcher = DatasetFetcher(catalog: try s.catalog(bytes: Int64(s.archive.count)), destination: s.folder)
        fetcher.retries = 0
        do { _ = try fetcher.fetch(dataset: "tiny", sequence: nil); Issue.record("no error") } catch let e as FetchError {
            guard case let .oversized(url, expected, received) = e else { Issue.record("\(e)"); return }
            #expect(url == s.server.url("/seq.tar.gz") && expected == Int64(s.archive.count))
            #expect(received < 1 << 20 && (hidesLength ? received > expected : true), "stopped after \(received) of \(huge.count) bytes")
            #expect(e.description.contains("more than the catalog's"))
        }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: s.folder + "/.parallax-downloads"))?.isEmpty ?? true)
        #expect(!FileManager.default.fileExists(atPath: s.folder + "/seq"))
    }

    /// The unpacked total has a ceiling: an archive unpacking past it (a zip bomb) is stopped
    /// there, and nothing is kept.
    @Test(arguments: [TestArchive.Kind.tarGzip, .zip])
    func anArchiveUnpackingPastItsLimitIsStoppedAndNothingIsKept(kind: TestArchive.Kind) throws {
        let s = try Self.setup(kind, files: Self.eurocFiles() + [("seq/mav0/zeros.bin", [UInt8](repeating: 0, count: 4 << 20))])
        defer { s.server.stop(); try? FileManager.default.removeItem(atPath: s.folder) }
        var fetcher = DatasetFetcher(catalog: try s.catalog(path: kind == .zip ? "/seq.zip" : "/seq.tar.gz"), destination: s.folder)
        fetcher.maximumUnpackedBytes = 1 << 20
        do { _ = try fetcher.fetch(dataset: "tiny", sequence: nil); Issue.record("no error") } catch let e as FetchError {
            guard case let .unpackLimit(_, limit, reason) = e else { Issue.record("\(e)"); return }
            #expect(limit == 1 << 20 && reason.contains("zeros.bin"))
        }
        #expect(s.leftovers().allSatisfy { $0 == ".parallax-downloads" })
        #expect((try? FileManager.default.contentsOfDirectory(atPath: s.folder + "/.parallax-downloads"))?.isEmpty ?? true)
        // The default limit: 32 × the archive, at least 1 GiB.
        #expect(ArchiveExtraction.defaultMaximumBytes(archiveBytes: 1000) == 1 << 30)
        #expect(ArchiveExtraction.defaultMaximumBytes(archiveBytes: 1 << 31) == 1 << 36)
    }

    @Test func a404IsAnErrorNamingTheURLAndLeavesNothing() throws {
        let s = try Self.setup()
        defer { s.server.stop(); try? FileManager.default.removeItem(atPath: s.folder) }
        let fetcher = DatasetFetcher(catalog: try s.catalog(path: "/missing.zip"), destination: s.folder)
        #expect(throws: FetchError.httpStatus(url: s.server.url("/missing.zip"), status: 404)) { try fetcher.fetch(dataset: "tiny", sequence: nil) }
        #expect(!FileManager.default.fileExists(atPath: s.folder + "/seq"))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: s.folder + "/.parallax-downloads"))?.isEmpty ?? true)
    }

    @Test func anArchiveWithAnEntryOutsideItsFolderIsRefusedAndNothingLandsOutside() throws {
        let s = try Self.setup(files: Self.eurocFiles() + [("seq/../../escaped.txt", Array("x".utf8))])
        defer { s.server.stop(); try? FileManager.default.removeItem(atPath: s.folder) }
        let fetcher = DatasetFetcher(catalog: try s.catalog(), destination: s.folder)
        do { _ = try fetcher.fetch(dataset: "tiny", sequence: nil); Issue.record("no error") } catch let e as FetchError {
            #expect(e.description.contains("leaves the folder"))
        }
        #expect(!FileManager.default.fileExists(atPath: s.folder + "/escaped.txt"))
        #expect(!FileManager.default.fileExists(atPath: (s.folder as NSString).deletingLastPathComponent + "/escaped.txt"))
        #expect(!FileManager.default.fileExists(atPath: s.folder + "/seq"))
    }

    @Test func aBodyThatIsNotAnArchiveOrNotTheLayoutIsAnErrorAndNothingIsKept() throws {
        let s = try Self.setup()
        defer { s.server.stop(); try? FileManager.default.removeItem(atPath: s.folder) }
        s.server.set("/page.tar.gz", .init(body: Array("<html>moved</html>".utf8)))
        let notArchive = DatasetFetcher(catalog: try s.catalog(path: "/page.tar.gz"), destination: s.folder)
        do { _ = try notArchive.fetch(dataset: "tiny", sequence: nil); Issue.record("no error") } catch let e as FetchError {
            #expect(e.description.contains("cannot unpack"))
        }
        let wrongLayout = DatasetFetcher(catalog: try s.catalog(layout: "tum-rgbd"), destination: s.folder)
        #expect(throws: FetchError.unexpectedLayout(folder: s.folder + "/seq", expected: TUMRGBDFormat.expects)) { try wrongLayout.fetch(dataset: "tiny", sequence: nil) }
        #expect(!FileManager.default.fileExists(atPath: s.folder + "/seq"))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: s.folder + "/.parallax-downloads"))?.isEmpty ?? true)
    }

    @Test func aFolderInTheWayThatWasNotFetchedIsNotTouched() throws {
        let s = try Self.setup()
        defer { s.server.stop(); try? FileManager.default.removeItem(atPath: s.folder) }
        try FileManager.default.createDirectory(atPath: s.folder + "/seq", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: s.folder + "/seq/mine.txt", contents: Data("keep".utf8))
        let fetcher = DatasetFetcher(catalog: try s.catalog(), destination: s.folder)
        #expect(throws: FetchError.destinationExists(path: s.folder + "/seq")) { try fetcher.fetch(dataset: "tiny", sequence: nil) }
        #expect(FileManager.default.contents(atPath: s.folder + "/seq/mine.txt") == Data("keep".utf8) && s.server.requests.isEmpty)
    }
}
