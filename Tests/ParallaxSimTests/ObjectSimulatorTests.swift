import Foundation
import Testing
import ParallaxCore
import ParallaxDatasets
import ParallaxGeometry
import ParallaxMath
@testable import ParallaxSim

@Suite struct ObjectSimulatorTests {
    static func simulator() throws -> ObjectSimulator {
        let camera = CameraCalibration(model: CameraModel(width: 160, height: 120, intrinsics: PinholeIntrinsics(fx: 120, fy: 120, cx: 79.5, cy: 59.5)))
        // A flat gray background so the object's pixels are easy to find.
        let flat = ImageBuffer<UInt8>(width: 4, height: 4, repeating: 128)
        var rng = SeededGenerator(seed: 2)
        let texture = ImageBuffer<UInt8>(width: 32, height: 24, samples: (0..<768).map { _ in UInt8(truncatingIfNeeded: rng.next() | 1) & 0x3F })
        var sim = ObjectSimulator(background: TexturedScene.room(min: Vector3(-4, -4, 0), max: Vector3(6, 4, 3), textures: [flat]), camera: camera, texture: texture)
        sim.pixelNoise = 0
        return sim
    }

    @Test func boxesTightlyEncloseTheRenderedObject() throws {
        let packets = try Self.simulator().packets(duration: 1, seed: 1)
        let frames = packets.filter { $0.stream == "cam0" }, boxes = packets.filter { $0.stream == "object0/box" }
        #expect(frames.count == 31 && boxes.count > 20)
        for b in boxes {
            let frame = try #require(frames.first { $0.timestamp == b.timestamp }?.payload as? CameraFrame)
            let box = try #require(b.payload as? BoundingBox)
            // Object pixels are dark (texture < 64); background is 128. Their bounds match the box to ~1 px.
            var lo = Vector2(.infinity, .infinity), hi = Vector2(-.infinity, -.infinity)
            for y in 0..<frame.height { for x in 0..<frame.width where frame.image[x, y] < 100 {
                lo = pointwiseMin(lo, Vector2(Double(x), Double(y))); hi = pointwiseMax(hi, Vector2(Double(x), Double(y)))
            } }
            #expect(abs(lo.x - box.x) < 1.5 && abs(lo.y - box.y) < 1.5, "box \(box) vs pixels \(lo)…\(hi)")
            #expect(abs(hi.x - (box.x + box.width)) < 1.5 && abs(hi.y - (box.y + box.height)) < 1.5)
        }
    }

    @Test func sameSeedSamePacketsAndFolderRoundTrip() throws {
        var sim = try Self.simulator()
        sim.pixelNoise = 2
        let a = try sim.packets(duration: 0.3, seed: 7), b = try sim.packets(duration: 0.3, seed: 7)
        #expect(a.compactMap { ($0.payload as? CameraFrame)?.image } == b.compactMap { ($0.payload as? CameraFrame)?.image })
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-obj-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try ParallaxFolderWriter.write(a, to: folder.path)
        let source = try ParallaxFolderSource(path: folder.path)
        var boxes: [BoundingBox] = []
        while let p = try source.next() { if let box = p.payload as? BoundingBox { boxes.append(box) } }
        #expect(boxes == a.compactMap { $0.payload as? BoundingBox })
    }
}
