import Foundation
import Testing
import Parallax
import ParallaxTesting

@Suite struct TrackObjectAnalyzerTests {
    static let key = StreamKey<CameraFrame>("cam0")

    /// A smooth random texture: seeded values on a 4 px grid, each pixel the mean of two of them.
    static func smooth(width w: Int, height h: Int, seed: UInt64) -> [UInt8] {
        var rng = SeededGenerator(seed: seed)
        let cw = w / 4 + 2
        var coarse = [Double](repeating: 0, count: cw * (h / 4 + 2))
        for i in coarse.indices { coarse[i] = Double(rng.next() % 256) }
        var out = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w { out[y * w + x] = UInt8(coarse[(y / 4) * cw + x / 4] * 0.5 + coarse[(y / 4 + 1) * cw + x / 4 + 1] * 0.5) }
        }
        return out
    }

    /// A 160×120 smooth random background with a 24×24 textured square whose top-left pixel
    /// is `(ox, oy)`, and ±4 gray levels of noise; `channels` 1 or 3.
    static func frame(ox: Int, oy: Int, width: Int = 160, height: Int = 120, channels: Int = 1) -> CameraFrame {
        var rng = SeededGenerator(seed: UInt64(ox * 997 + oy))
        var gray = smooth(width: width, height: height, seed: 1)
        let object = smooth(width: 24, height: 24, seed: 2)
        for y in 0..<24 { for x in 0..<24 where oy + y < height && ox + x < width { gray[(oy + y) * width + ox + x] = object[y * 24 + x] } }
        for i in gray.indices { gray[i] = UInt8(max(0, min(255, Int(gray[i]) + Int(rng.next() % 9) - 4))) }
        let samples = channels == 1 ? gray : gray.flatMap { [$0, $0, $0] }
        return CameraFrame(cameraID: "cam0", image: ImageBuffer(width: width, height: height, channels: channels, samples: samples))
    }

    static func harness(_ options: TrackObjectAnalyzer.Options, frames: [CameraFrame]) -> AnalyzerHarness {
        var h = AnalyzerHarness { try TrackObjectAnalyzer(options: options) }
        h.declare(key)
        for (k, f) in frames.enumerated() { h.push(f, on: key, at: Timestamp(nanoseconds: Int64(k + 1) * 33_000_000)) }
        return h
    }

    @Test func followsTheBoxFromPixelOrNormalizedStart() throws {
        let frames = (0..<12).map { Self.frame(ox: 40 + 3 * $0, oy: 30 + $0) }
        var pixel = TrackObjectAnalyzer.Options()
        pixel.box = BoundingBox(x: 39.5, y: 29.5, width: 24, height: 24)
        // The same box in Vision's normalized coordinates (origin bottom-left, y up).
        var normalized = TrackObjectAnalyzer.Options()
        normalized.normalizedBox = BoundingBox(x: 40.0 / 160, y: 1 - 54.0 / 120, width: 24.0 / 160, height: 24.0 / 120)
        let converted = TrackObjectAnalyzer.pixels(ofNormalized: try #require(normalized.normalizedBox), width: 160, height: 120)
        let given = try #require(pixel.box)
        #expect(abs(converted.x - given.x) < 1e-9 && abs(converted.y - given.y) < 1e-9 && abs(converted.width - given.width) < 1e-9
                && abs(converted.height - given.height) < 1e-9, "\(converted)")
        for options in [pixel, normalized] {
            let result = try Self.harness(options, frames: frames).run()
            #expect(result.failure == nil)
            let out: [Packet<TrackedObjects>] = result.packets(on: "cam0/objects")
            #expect(out.count == 12)
            for (k, p) in out.enumerated() {
                let o = try #require(p.payload.objects.first)
                let truth = BoundingBox(x: Double(40 + 3 * k) - 0.5, y: Double(30 + k) - 0.5, width: 24, height: 24)
                #expect(o.id == 1 && o.state == .normal && o.box.iou(truth) > 0.6, "frame \(k): \(o.box)")
                #expect(o.confidence >= 0 && o.confidence <= 1)
            }
        }
    }

    @Test func severalObjectsFromBoxesAndAStreamOfStartBoxes() throws {
        // Two squares: one moving right, one moving down; the second starts from a stream whose
        // first box comes with frame 3.
        func frame(_ k: Int) -> CameraFrame {
            var f = Self.frame(ox: 20 + 3 * k, oy: 20)
            let other = Self.smooth(width: 24, height: 24, seed: 9)
            var samples = f.image.samples
            for y in 0..<24 { for x in 0..<24 { samples[(50 + 2 * k + y) * 160 + 110 + x] = other[y * 24 + x] } }
            f = CameraFrame(cameraID: "cam0", image: ImageBuffer(width: 160, height: 120, samples: samples))
            return f
        }
        var options = TrackObjectAnalyzer.Options()
        options.boxes = [BoundingBox(x: 19.5, y: 19.5, width: 24, height: 24)]
        options.start = ["detector/boxes"]
        var h = Self.harness(options, frames: (0..<10).map(frame))
        let starts = StreamKey<BoundingBox>("detector/boxes")
        h.declare(starts)
        for k in [3, 6] { h.push(BoundingBox(x: 109.5, y: Double(50 + 2 * k) - 0.5, width: 24, height: 24), on: starts, at: Timestamp(nanoseconds: Int64(k + 1) * 33_000_000)) }
        let out: [Packet<TrackedObjects>] = try h.run().packets(on: "cam0/objects")
        #expect(out.count == 10)
        for (k, p) in out.enumerated() {
            #expect(p.payload.objects.map(\.id) == (k < 3 ? [1] : [1, 2]), "frame \(k)")
            let first = BoundingBox(x: Double(20 + 3 * k) - 0.5, y: 19.5, width: 24, height: 24)
            #expect((p.payload.objects.first?.box.iou(first) ?? 0) > 0.6, "frame \(k)")
            if k >= 3, let second = p.payload.objects.last {
                #expect(second.box.iou(BoundingBox(x: 109.5, y: Double(50 + 2 * k) - 0.5, width: 24, height: 24)) > 0.6 && second.state == .normal, "frame \(k): \(second)")
            }
        }
    }

    @Test func badStartsAndChangingImagesAreClearErrors() throws {
        // Without a start box the object is the dataset's ground truth, which this stream lacks.
        #expect { try Self.harness(TrackObjectAnalyzer.Options(), frames: [Self.frame(ox: 10, oy: 10)]).run() } throws: { "\($0)".contains("object0/box") }
        var both = TrackObjectAnalyzer.Options()
        both.box = BoundingBox(x: 1, y: 1, width: 5, height: 5)
        both.normalizedBox = both.box
        #expect(throws: AnalyzerError.invalidOption(analyzer: "track-object", option: "box", reason: "give box or normalized_box, not both")) {
            try TrackObjectAnalyzer(options: both)
        }
        for box in [BoundingBox(x: 500, y: 10, width: 20, height: 20), BoundingBox(x: 10, y: 10, width: 0, height: 20),
                    BoundingBox(x: 0, y: 0, width: 400, height: 20)] {
            var o = TrackObjectAnalyzer.Options()
            o.box = box
            let result = try Self.harness(o, frames: [Self.frame(ox: 10, oy: 10)]).run()
            #expect("\(result.failure.map { "\($0)" } ?? "none")".contains("option 'box'"), "\(box)")
        }
        var o = TrackObjectAnalyzer.Options()
        o.box = BoundingBox(x: 39.5, y: 29.5, width: 24, height: 24)
        let result = try Self.harness(o, frames: [Self.frame(ox: 40, oy: 30), Self.frame(ox: 40, oy: 30, channels: 3)]).run()
        #expect("\(result.failure.map { "\($0)" } ?? "none")".contains("the image changed from 160×120×1 to 160×120×3"))
    }
}
