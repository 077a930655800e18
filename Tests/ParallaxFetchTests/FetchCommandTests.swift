import Foundation
import Testing
@testable import ParallaxCLI
@testable import ParallaxFetch

/// `parallax datasets` and `parallax fetch` as a user runs them: exit statuses, and what is on
/// disk afterwards.
@Suite(.serialized) struct FetchCommandTests {
    @Test func fetchDownloadsIntoTheFolderAndExitsZeroThenFindsItThere() throws {
        let s = try DatasetFetcherTests.setup()
        defer { s.server.stop(); try? FileManager.default.removeItem(atPath: s.folder) }
        let catalogFile = s.folder + "/catalog.yaml"
        let catalog = try s.catalog()
        let yaml = "datasets:\n  - {name: tiny, title: Tiny, what: test, licence: none, source: 'http://x', layout: euroc, sequences: [{name: seq, url: '\(catalog.datasets[0].sequences[0].url)', strip: 1}]}\n"
        try yaml.write(toFile: catalogFile, atomically: true, encoding: .utf8)
        let destination = s.folder + "/data"
        #expect(ParallaxCLI.run(["fetch", "tiny", "--to", destination, "--catalog", catalogFile]) == 0)
        #expect(FileManager.default.fileExists(atPath: destination + "/seq/mav0/cam0/data.csv"))
        #expect(FileManager.default.fileExists(atPath: destination + "/seq/.parallax-fetch.json"))
        #expect(ParallaxCLI.run(["fetch", "tiny", "seq", "--to", destination, "--catalog", catalogFile]) == 0)
        #expect(s.server.requests.count == 1)
        // A checksum given on the command line that the record does not have: the folder is in the way.
        #expect(ParallaxCLI.run(["fetch", "tiny", "--to", destination, "--catalog", catalogFile, "--sha256", String(repeating: "0", count: 64)]) == 2)
        #expect(ParallaxCLI.run(["datasets", "--catalog", catalogFile, "--json"]) == 0)
    }

    @Test func failedDownloadsExitOneAndWrongNamesOrOptionsExitTwo() throws {
        let s = try DatasetFetcherTests.setup()
        defer { s.server.stop(); try? FileManager.default.removeItem(atPath: s.folder) }
        let catalogFile = s.folder + "/catalog.yaml"
        let url = s.server.url("/seq.tar.gz"), missing = s.server.url("/gone.zip")
        try """
            datasets:
              - {name: tiny, title: Tiny, what: test, licence: none, source: 'http://x', layout: euroc, sequences: [{name: seq, url: '\(url)', strip: 1, sha256: \(String(repeating: "ab", count: 32))}, {name: gone, url: '\(missing)'}]}
            """.write(toFile: catalogFile, atomically: true, encoding: .utf8)
        let destination = s.folder + "/data"
        #expect(ParallaxCLI.run(["fetch", "tiny", "seq", "--to", destination, "--catalog", catalogFile]) == 1)  // wrong checksum
        #expect(!FileManager.default.fileExists(atPath: destination + "/seq"))
        #expect(ParallaxCLI.run(["fetch", "tiny", "gone", "--to", destination, "--catalog", catalogFile]) == 1)  // 404
        #expect(ParallaxCLI.run(["fetch", "tiny", "--to", destination, "--catalog", catalogFile]) == 2)  // which sequence?
        #expect(ParallaxCLI.run(["fetch", "nope", "--to", destination, "--catalog", catalogFile]) == 2)
        #expect(ParallaxCLI.run(["fetch", "tiny", "seq", "--to", destination, "--retries", "-1"]) == 2)
        #expect(ParallaxCLI.run(["fetch", "tiny", "seq", "--to", destination, "--sha256", "xyz"]) == 2)
        #expect(ParallaxCLI.run(["datasets", "--catalog", s.folder + "/absent.yaml"]) == 2)
        #expect(ParallaxCLI.run(["datasets"]) == 0)
    }

    @Test func sizesAreShownAsARange() {
        #expect(DatasetsCommand.sizeRange(["1.6 GB", "0.8 GB", "1.2 GB"]) == "0.8–1.6 GB")
        #expect(DatasetsCommand.sizeRange(["4 MB", "1.5 GB"]) == "4 MB–1.5 GB")
        #expect(DatasetsCommand.sizeRange(["30 MB", "30 MB"]) == "30 MB")
        #expect(DatasetsCommand.sizeRange([]) == "—")
    }
}
