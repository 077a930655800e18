import Foundation
import Testing
import Parallax
import ParallaxTesting

/// Whether track-object's confidence can be trusted, on simulated sequences whose truth is
/// exact: a textured object (a real photo) in a textured room, at half EuRoC's resolution
/// (376×240, so the tests stay quick in debug builds), fully covered by a second object for
/// 11 frames, or leaving the view for 50 frames. When nothing of it is visible the confidence
/// must fall below 0.3 within 3 frames and the state be lost; when at least half of it is
/// visible again, tracking (IoU ≥ 0.5) must resume within 10 frames.
@Suite struct TrackingConfidenceTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func simulator(_ motion: ObjectMotion) throws -> ObjectSimulator {
        let textures = try ["datasets/tum_rgbd_frame/rgb/1341847980.722988.png", "datasets/euroc_v1_01_cut/mav0/cam0/data/1403715273262142976.png"]
            .map { try ImageDecoder.decodeGray8(path: repository.appendingPathComponent($0).path) }
        let camera = CameraCalibration(model: CameraModel(width: 376, height: 240, intrinsics: PinholeIntrinsics(fx: 229, fy: 229, cx: 187.5, cy: 119.5)))
        let room = TexturedScene.room(min: Vector3(-4, -4, 0), max: Vector3(6, 4, 3), textures: [textures[0]])
        return ObjectSimulator(background: room, camera: camera, texture: textures[1], motion: motion, occluderTexture: textures[0])
    }

    /// Runs track-object over `frames`, started on the first frame's true box.
    static func track(_ frames: [ObjectSimulator.Frame]) throws -> [TrackedObject] {
        var options = TrackObjectAnalyzer.Options()
        options.box = frames.first?.box
        var h = AnalyzerHarness { try TrackObjectAnalyzer(options: options) }
        let key = StreamKey<CameraFrame>("cam0")
        h.declare(key)
        for f in frames { h.push(CameraFrame(cameraID: "cam0", image: f.image), on: key, at: f.timestamp) }
        let result = try h.run()
        #expect(result.failure == nil)
        return try result.packets(on: "cam0/objects", as: TrackedObjects.self).map { try #require($0.payload.objects.first) }
    }

    /// Checks the two promises over every hidden spell in `frames`.
    static func checkTrust(_ frames: [ObjectSimulator.Frame], _ reported: [TrackedObject], spells expected: Int) {
        var spells = 0, k = 1
        while k < frames.count {
            guard frames[k].visibleFraction == 0, frames[k - 1].visibleFraction > 0 else { k += 1; continue }
            spells += 1
            var end = k
            while end < frames.count, frames[end].visibleFraction == 0 { end += 1 }
            for i in k..<end where i - k >= 3 {
                #expect(reported[i].confidence < 0.3 && reported[i].state == .notAvailable, "frame \(i), \(i - k) after the object vanished: \(reported[i])")
            }
            #expect((k..<min(k + 3, end)).contains { reported[$0].confidence < 0.3 }, "confidence still ≥ 0.3 three frames after frame \(k)")
            if let back = (end..<frames.count).first(where: { frames[$0].visibleFraction >= 0.5 }), back + 10 < frames.count {
                let resumed = (back...(back + 10)).first { i in
                    reported[i].state == .normal && (frames[i].box.map { reported[i].box.iou($0) >= 0.5 } ?? false)
                }
                #expect(resumed != nil, "not tracking again within 10 frames of frame \(back) (half visible again)")
            }
            k = end
        }
        #expect(spells == expected)
    }

    @Test func lostWhileCoveredAndBackAfter() throws {
        let frames = try Self.simulator(.occlusion).frames(duration: 3.3, seed: 1)
        Self.checkTrust(frames, try Self.track(frames), spells: 1)
    }

    @Test func lostWhileOutOfViewAndBackAfter() throws {
        let frames = try Self.simulator(.exit).frames(duration: 4.6, seed: 1)
        Self.checkTrust(frames, try Self.track(frames), spells: 1)
    }
}
