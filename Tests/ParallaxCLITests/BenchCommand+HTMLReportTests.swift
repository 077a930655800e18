import Foundation
import Testing
@testable import ParallaxApp
@testable import ParallaxCLI
import Parallax
import TestSupport

/// `parallax bench` writes a browser report beside report.md: an index linking a page per case,
/// plots inline, camera frames with the chain's features drawn over them; checked in headless
/// Chromium (`scripts/check-html-report`: no console error, no missing asset, a screenshot per
/// page; skipped where Debian's chromium is not installed).
@Suite struct BenchHTMLReportTests {
    @Test func benchWritesABrowserReport() throws {
        let out = Paths.temporary("bench-html")
        defer { try? FileManager.default.removeItem(at: out) }
        try Self.writeBenchReport(to: out)
    }

    /// The report `bench` writes, opened in headless Chromium.
    @Test(.enabled(if: ExternalTool.installed("chromium", "chromium-browser"), "chromium is not installed (apt-get install chromium); the report is not opened in a browser"))
    func benchReportOpensInChromium() throws {
        let out = Paths.temporary("bench-html-chromium")
        defer { try? FileManager.default.removeItem(at: out) }
        try Self.writeBenchReport(to: out)
        let chromium = try #require(ExternalTool.path("chromium", "chromium-browser"))
        let check = Process()
        check.executableURL = Paths.root.appendingPathComponent("scripts/check-html-report")
        check.arguments = [out.path, "--chromium", chromium]
        let output = Pipe()
        check.standardOutput = output
        check.standardError = output
        try check.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        #expect(check.terminationStatus == 0, "\(text)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("screenshots/runs_euroc_v1_01_cut.png").path))
    }

    /// Runs `bench` on the cut into `out` and checks its pages: an index, a page per case.
    static func writeBenchReport(to out: URL) throws {
        #expect(parallax(["bench", "--chain", "klt camera=cam0", "--dataset", Paths.cut, "--evaluate", "none", "--out", out.path, "--quiet"]) == 0)
        let index = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(index.hasPrefix("<!DOCTYPE html>") && index.contains("href=\"runs/euroc_v1_01_cut.html\""))
        let page = try String(contentsOf: out.appendingPathComponent("runs/euroc_v1_01_cut.html"), encoding: .utf8)
        // Three frames (start, middle, end), each a JPEG under its features.
        #expect(page.components(separatedBy: "data:image/jpeg;base64,").count == 4)
        #expect(page.contains("<circle") && page.contains("cam0 at 1403715273262142976 ns: "))
        #expect(!page.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "").contains("http"))  // nothing on the network
    }

    /// `parallax run` writes one page: status, streams, frames with the chain's features, speed.
    @Test func runWritesABrowserReport() throws {
        let out = Paths.temporary("run-html")
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(parallax(["run", "klt camera=cam0", Paths.cut, "--out", out.path, "--quiet"]) == 0)
        let page = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(page.contains("<h1>Run: pipeline</h1>") && page.contains("stream cam0/tracks"))
        #expect(page.components(separatedBy: "data:image/jpeg;base64,").count == 4 && page.contains("<circle"))
        #expect(page.contains("<h2>Speed</h2>") && page.contains("<td>klt</td>"))
    }

    @Test func namesBecomeSafeFileNames() {
        #expect(HTMLPages.fileName("vio/mono run 1") == "vio_mono_run_1")
        #expect(HTMLPages.escape("<a & \"b\">") == "&lt;a &amp; &quot;b&quot;&gt;")
    }
}
