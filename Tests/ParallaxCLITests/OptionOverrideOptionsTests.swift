import ArgumentParser
import Foundation
import Testing
import Parallax
@testable import ParallaxCLI
@testable import ParallaxApp

/// `--set ANALYZER.OPTION=VALUE` on the commands that run a chain: `run`, `bench --chain` and
/// `formats --chain`. Refusals exit 2 (their messages: RunSessionTests and OptionOverrideTests).
@Suite struct OptionOverrideOptionsTests {
    static let chain = "chains/vio-mono.yaml"
    static var chainPath: String { Paths.root.appendingPathComponent(chain).path }

    @Test func runRefusesAValueOutOfRangeAndNamesThatAreNotThere() {
        let out = Paths.temporary("set-run")
        defer { try? FileManager.default.removeItem(at: out) }
        for set in ["klt.max_features=0", "klt.max_features=many", "klt.max_featres=300", "vo.map=place.pxmap", "max_features=300", "klt.window"] {
            #expect(parallax(["run", Self.chainPath, Paths.cut, "--out", out.path, "--set", set, "--quiet"]) == 2, "\(set)")
        }
        // Two analyzers of one kind: the analyzer name alone fits both.
        #expect(parallax(["run", "klt:left camera=cam0 ! klt:right camera=cam1", Paths.cut, "--out", out.path, "--set", "klt.window=9", "--quiet"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: out.path) && !FileManager.default.fileExists(atPath: out.path + ".partial"))
        #expect(parallax(["run", "klt:left camera=cam0 ! klt:right camera=cam1", Paths.cut, "--out", out.path, "--set", "right.window=9", "--quiet"]) == 0)
    }

    /// The documented way to relocalize with a chain file: `--set vio.map=FILE` sets vio's map
    /// as `map=` in the chain would (here a map of six frames: too few points, refused the same).
    @Test func runSetsVIOsMapAsTheChainFileSays() throws {
        let out = Paths.temporary("set-map")
        defer { try? FileManager.default.removeItem(at: out) }
        let vioMap = Paths.root.appendingPathComponent("chains/vio-map.yaml").path
        let file = out.appendingPathComponent("cut.pxmap").path
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        #expect(parallax(["run", vioMap, Paths.cut, "--out", out.appendingPathComponent("a").path, "--save-map", file, "--quiet"]) == 0)
        // The map is empty (six frames are too few to start): refused when vio opens, with
        // --set as with map= in a pipeline.
        #expect(parallax(["run", vioMap, Paths.cut, "--out", out.appendingPathComponent("b").path, "--set", "vio.map=\(file)", "--quiet"]) == 2)
        let pipeline = "klt camera=cam0 max_features=200 equalize=true window=15 refill_below=0.9 ! vio tracks=cam0/tracks imu=imu0 images=cam0 map=\(file)"
        #expect(parallax(["run", pipeline, Paths.cut, "--out", out.appendingPathComponent("c").path, "--quiet"]) == 2)
        // vio-mono gives vio no images, which a map needs: refused before the run, naming the --set.
        #expect(parallax(["run", Self.chainPath, Paths.cut, "--out", out.appendingPathComponent("d").path, "--set", "vio.map=\(file)", "--quiet"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("d.partial").path))
    }

    @Test func benchTakesSetForItsOneCaseAndRecordsIt() throws {
        let out = Paths.temporary("set-bench")
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(atPath: out.path + "-bad") }
        let base = ["bench", "--chain", Self.chainPath, "--dataset", Paths.cut, "--evaluate", "none", "--quiet", "--no-record"]
        #expect(parallax(base + ["--out", out.path, "--set", "klt.max_features=50"]) == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        let run = try #require((report["runs"] as? [[String: Any]])?.first)
        #expect(run["chain"] as? String == Self.chainPath + " --set klt.max_features=50" && run["status"] as? String == "ok")
        // A name that is not there: refused before anything is written.
        let bad = out.path + "-bad"
        #expect(parallax(base + ["--out", bad, "--set", "klt.max_featres=50"]) == 2)
        #expect(parallax(base + ["--out", bad, "--set", "klit.max_features=50"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: bad) && !FileManager.default.fileExists(atPath: bad + ".partial"))
        // A value out of range: refused before anything is written too.
        #expect(parallax(base + ["--out", bad, "--set", "klt.max_features=0"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: bad) && !FileManager.default.fileExists(atPath: bad + ".partial"))
        try? FileManager.default.removeItem(atPath: bad)
        // A suite's cases take their options in the suite file.
        #expect(parallax(["bench", Paths.root.appendingPathComponent("bench/default.yaml").path, "--out", bad, "--set", "klt.max_features=50", "--quiet"]) == 2)
    }

    @Test func formatsTakesSetWithItsChainOnly() {
        #expect(parallax(["formats", Paths.cut, "--set", "klt.max_features=50"]) == 2)
        #expect(parallax(["formats", Paths.cut, "--chain", Self.chainPath, "--evaluate", "trajectory", "--set", "klt.max_featres=50"]) == 2)
    }

    @Test func theHelpOfEachCommandThatRunsAChainShowsSet() {
        for command in [RunCommand.self, BenchRunCommand.self, FormatsCommand.self] as [any ParsableCommand.Type] {
            #expect(ParallaxCommand.helpMessage(for: command, columns: 10_000).contains("--set <analyzer.option=value>"), "\(command)")
        }
    }
}
