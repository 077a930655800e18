import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
@testable import ParallaxSim

/// A scene's geometry written beside a simulated folder and read back ray-casts exactly as the
/// scene in memory; a damaged file is refused naming its line.
@Suite struct SceneGeometryFileTests {
    @Test func roundTripRayCastsTheSame() throws {
        let texture = ImageBuffer<UInt8>(width: 2, height: 2, channels: 1, samples: [0, 80, 160, 240])
        let scene = TexturedScene.room(min: Vector3(-3.1, -2.7, 0), max: Vector3(4.3, 2.9, 2.61), textures: [texture])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-scene-\(getpid()).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SceneGeometryFile.write(scene, to: path)
        let back = try SceneGeometryFile.read(path: path)
        #expect(back.rectangles.count == scene.rectangles.count)
        for (a, b) in zip(scene.rectangles, back.rectangles) {
            #expect(a.origin == b.origin && a.edgeU == b.edgeU && a.edgeV == b.edgeV)
        }
        var hits = 0
        for k in 0..<200 {
            let a = Double(k) * 0.731, b = Double(k) * 0.317
            let direction = Vector3(cos(a) * cos(b), sin(a) * cos(b), sin(b))
            let origin = Vector3(0.1 * Double(k % 7), -0.2, 1.2)
            let x = scene.intersect(origin: origin, direction: direction), y = back.intersect(origin: origin, direction: direction)
            #expect(x?.t == y?.t && x?.index == y?.index)
            if x != nil { hits += 1 }
        }
        #expect(hits == 200)  // inside a closed room every ray hits a wall
    }

    @Test func damagedFilesNameTheLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-scene-bad-\(getpid()).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        for (text, fragment) in [("# c\n0 0 0 1 0 0 0 1\n", ":2"), ("0 0 0 1 0 0 2 0 0\n", "parallel"), ("0 0 0 1 0 0 0 1 nan\n", "9 finite numbers"), ("# only a comment\n", "no rectangle")] {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            #expect { _ = try SceneGeometryFile.read(path: path) } throws: { "\($0)".contains(fragment) }
        }
        #expect(throws: CalibrationError.self) { _ = try SceneGeometryFile.read(path: path + ".absent") }
    }
}
