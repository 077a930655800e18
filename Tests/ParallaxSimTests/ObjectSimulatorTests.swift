import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxDatasets
import ParallaxOutputs
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
        let frames = try Self.simulator().frames(duration: 1, seed: 1)
        #expect(frames.count == 31 && frames.filter { $0.box != nil }.count > 20)
        for f in frames {
            guard let box = f.box else { continue }
            // Object pixels are dark (texture < 64); background is 128. Their bounds match the box to ~1 px.
            var lo = Vector2(.infinity, .infinity), hi = Vector2(-.infinity, -.infinity)
            for y in 0..<f.image.height { for x in 0..<f.image.width where f.image[x, y] < 100 {
                lo = pointwiseMin(lo, Vector2(Double(x), Double(y))); hi = pointwiseMax(hi, Vector2(Double(x), Double(y)))
            } }
            #expect(abs(lo.x - box.x) < 1.5 && abs(lo.y - box.y) < 1.5, "box \(box) vs pixels \(lo)…\(hi)")
            #expect(abs(hi.x - (box.x + box.width)) < 1.5 && abs(hi.y - (box.y + box.height)) < 1.5)
        }
    }

    /// Frames paint only around the movers over a room rendered once: they must equal a full
    /// render of the whole scene, also while the occluder passes and when the object leaves.
    @Test func paintedFramesEqualTheFullRender() throws {
        for motion in [ObjectMotion.occlusion, .exit] {
            var sim = try Self.simulator()
            sim.motion = motion
            let bearings = try TexturedScene.bearings(for: sim.camera.model)
            let room = sim.background.render(camera: sim.camera.model, bearings: bearings, worldFromCamera: ObjectSimulator.worldFromCamera).image
            for k in [0, 60, 75, 95] {
                var rng = SeededGenerator(seed: 1)
                let painted = sim.frame(k, room: room, bearings: bearings, using: &rng).image
                var scene = sim.background
                let t = Double(k) / sim.rateHz
                scene.rectangles.append(sim.surface(sim.corners(at: t), texture: sim.texture))
                if let o = sim.occluderCorners(at: t) { scene.rectangles.append(sim.surface(o, texture: sim.occluderTexture)) }
                let full = scene.render(camera: sim.camera.model, bearings: bearings, worldFromCamera: ObjectSimulator.worldFromCamera).image
                #expect(painted == full, "\(motion) frame \(k)")
            }
        }
    }

    @Test func hiddenFramesHaveNoTruthAndTheOTBFolderRoundTrips() throws {
        var sim = try Self.simulator()
        sim.motion = .occlusion
        sim.pixelNoise = 2
        let a = try sim.frames(duration: 3, seed: 7), b = try sim.frames(duration: 3, seed: 7)
        #expect(a.map(\.image) == b.map(\.image))
        // The occluder covers the object fully around 2.5 s, and only then.
        let hidden = a.indices.filter { a[$0].truthBox == nil }
        #expect(!hidden.isEmpty && hidden.allSatisfy { abs(Double($0) / sim.rateHz - 2.5) < 0.4 } && hidden.allSatisfy { a[$0].visibleFraction == 0 })
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-obj-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try TrackingSequenceWriter.writeOTB(a.map { ($0.image, $0.truthBox) }, to: folder.path)
        let source = try DatasetFolder.open(folder.path)
        let truth = try #require(source as? any BoxTruthProviding).boxTruth
        #expect(truth.count == a.count)
        for (read, written) in zip(truth.map(\.box), a.map(\.truthBox)) {
            // OTB rows keep 4 decimals.
            #expect((read == nil) == (written == nil))
            if let r = read, let w = written { #expect(abs(r.x - w.x) < 1e-4 && abs(r.y - w.y) < 1e-4 && abs(r.width - w.width) < 1e-4 && abs(r.height - w.height) < 1e-4) }
        }
    }
}
