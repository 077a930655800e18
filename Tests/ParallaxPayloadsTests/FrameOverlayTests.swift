import Testing
import ParallaxImage
import ParallaxMath
@testable import ParallaxPayloads
/// What payloads draw over a camera's frames (``FrameOverlayDrawable``): each over its own
/// camera only, and a plugin's payload the same way.
@Suite struct FrameOverlayTests {
    struct Spot: FrameOverlayDrawable {
        var at: Vector2
        func frameOverlay(camera: String, stream: String) -> FrameOverlay? {
            camera == "cam1" ? FrameOverlay(outlines: [[at]]) : nil
        }
    }

    @Test func payloadsDrawOverTheirOwnCamera() {
        let tracks = FeatureTracks(camera: "cam0", imageWidth: 10, imageHeight: 10, features: [TrackedFeature(id: 1, pixel: Vector2(3, 4), age: 5)], ended: [])
        #expect(tracks.frameOverlay(camera: "cam0", stream: "cam0/tracks") == FrameOverlay(points: [.init(pixel: Vector2(3, 4), age: 5)]))
        #expect(tracks.frameOverlay(camera: "cam1", stream: "cam0/tracks") == nil)
        let objects = TrackedObjects(imageWidth: 10, imageHeight: 10, objects: [TrackedObject(id: 7, box: BoundingBox(x: 1, y: 2, width: 3, height: 4), confidence: 0.5)])
        #expect(objects.frameOverlay(camera: "cam0", stream: "cam0/objects")?.boxes == [.init(box: BoundingBox(x: 1, y: 2, width: 3, height: 4), label: "object 7 (0.50)")])
        #expect(objects.frameOverlay(camera: "cam0", stream: "cam1/objects") == nil)
        let drawables: [any FrameOverlayDrawable] = [tracks, objects, Spot(at: Vector2(1, 1))]
        var all = FrameOverlay()
        for d in drawables { if let o = d.frameOverlay(camera: "cam1", stream: "cam1/x") { all.add(o) } }
        #expect(all.points.isEmpty && all.boxes.count == 1 && all.outlines == [[Vector2(1, 1)]])
    }
}
