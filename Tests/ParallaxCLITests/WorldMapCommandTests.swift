import Foundation
import Parallax
import ParallaxVision
import Testing
@testable import ParallaxCLI

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
