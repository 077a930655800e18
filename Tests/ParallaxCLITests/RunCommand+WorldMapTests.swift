import Foundation
import Parallax
import ParallaxVision
import Testing
@testable import ParallaxCLI
@testable import ParallaxApp

/// `parallax run --save-map` and `vio map=`: the file is written atomically from what the chain
/// built, and what cannot be a map is refused with exit 2. (Relocalization on real motion:
/// scripts/map-relocalization.)
@Suite struct WorldMapCommandTests {
    @Test func aChainWithoutAMapCannotSaveOne() {
        let out = Paths.temporary("nomap")
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(parallax(["run", "klt camera=cam0", Paths.cut, "--out", out.path, "--save-map", out.appendingPathComponent("m.pxmap").path, "--quiet"]) == 2)
    }

    @Test func theSavedMapReadsBackAndAnEmptyOneIsRefused() throws {
        let out = Paths.temporary("savemap"), again = Paths.temporary("loadmap")
        defer { for u in [out, again] { try? FileManager.default.removeItem(at: u) } }
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let file = out.appendingPathComponent("cut.pxmap").path
        // Six frames are too few for the filter to start: the map is written, empty, with the calibration.
        #expect(parallax(["run", "klt camera=cam0 ! vio images=cam0", Paths.cut, "--out", out.appendingPathComponent("run").path, "--save-map", file, "--quiet"]) == 0)
        let map = try WorldMapFile.read(file)
        #expect(map.points.isEmpty && map.keyframes.isEmpty)
        #expect(map.camera.width == 752 && map.camera.height == 480)
        #expect(parallax(["run", "klt camera=cam0 ! vio images=cam0 map=\(file)", Paths.cut, "--out", again.path, "--quiet"]) == 2)
    }
}

extension WorldMapCommandTests {
    /// `--save-map` inside the `--out` of an earlier run: staged with the run's results, so the
    /// commit that replaces the old folder carries the map (it used to say "written" and be gone);
    /// a folder where the map should go is refused before the run, and kept.
    @Test func aMapSavedInsideOutSurvivesTheCommit() throws {
        let out = Paths.temporary("mapinside")
        defer { try? FileManager.default.removeItem(at: out) }
        let chain = "klt camera=cam0 ! vio images=cam0"
        #expect(parallax(["run", "stream-stats streams=imu0", Paths.cut, "--out", out.path, "--quiet"]) == 0)
        let file = out.appendingPathComponent("maps/cut.pxmap")
        #expect(parallax(["run", chain, Paths.cut, "--out", out.path, "--save-map", file.path, "--quiet"]) == 0)
        let map = try WorldMapFile.read(file.path)
        #expect(map.camera.width == 752)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("run.json").path))
        // A folder named like the map: refused (exit 2) before the run, its files kept.
        let folder = out.deletingLastPathComponent().appendingPathComponent(out.lastPathComponent + "-folder.pxmap")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "mine".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        #expect(parallax(["run", chain, Paths.cut, "--out", out.path, "--save-map", folder.path, "--quiet"]) == 2)
        #expect(try String(contentsOf: folder.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine")
        #expect(try WorldMapFile.read(file.path).camera.width == 752, "a refused run changed the previous results")
    }
}
