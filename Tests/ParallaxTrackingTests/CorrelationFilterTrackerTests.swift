import Foundation
import Testing
import ParallaxImage
import ParallaxMath
@testable import ParallaxTracking

@Suite struct CorrelationFilterTrackerTests {
    /// A smooth random texture (values 0…255).
    static func texture(width: Int, height: Int, seed: UInt64) -> [Float] {
        var rng = SeededGenerator(seed: seed)
        let cw = width / 4 + 2
        let coarse = (0..<(cw * (height / 4 + 2))).map { _ in Float(rng.next() % 256) }
        return (0..<(width * height)).map { i in
            let x = i % width, y = i / width
            let fx = Float(x % 4) / 4, fy = Float(y % 4) / 4
            let a = coarse[(y / 4) * cw + x / 4], b = coarse[(y / 4) * cw + x / 4 + 1]
            let c = coarse[(y / 4 + 1) * cw + x / 4], d = coarse[(y / 4 + 1) * cw + x / 4 + 1]
            return (a + (b - a) * fx) * (1 - fy) + (c + (d - c) * fx) * fy
        }
    }

    static let background = texture(width: 320, height: 240, seed: 1)
    static let object = texture(width: 40, height: 40, seed: 2)

    /// The background with the object's texture pasted with its top-left corner at `(ox, oy)`
    /// (whole px), scaled by `scale` (nearest neighbour), unless hidden.
    static func frame(ox: Int, oy: Int, scale: Double = 1, hidden: Bool = false, noiseSeed: UInt64 = 0) -> FramePyramid {
        var rng = SeededGenerator(seed: noiseSeed &+ UInt64(ox * 1000 + oy))
        // Sensor noise: ±8 gray levels.
        var pixels = background.map { $0 + Float(rng.next() % 17) - 8 }
        let size = Int((40 * scale).rounded())
        if !hidden {
            for y in 0..<size {
                for x in 0..<size {
                    let px = ox + x, py = oy + y
                    guard px >= 0, px < 320, py >= 0, py < 240 else { continue }
                    pixels[py * 320 + px] = object[min(39, Int(Double(y) / scale)) * 40 + min(39, Int(Double(x) / scale))]
                }
            }
        }
        return FramePyramid(GrayImage(width: 320, height: 240, pixels: pixels))
    }

    @Test func followsAMovingObjectAndItsGrowth() throws {
        var first = Self.frame(ox: 100, oy: 80)
        var tracker = try CorrelationFilterTracker(frame: &first, box: BoundingBox(x: 99.5, y: 79.5, width: 40, height: 40))
        var last: CorrelationFilterTracker.Observation?
        for k in 1...40 {
            let scale = 1 + 0.4 * Double(k) / 40
            var f = Self.frame(ox: 100 + 2 * k, oy: 80 + k, scale: scale)
            let o = tracker.update(&f)
            let truth = BoundingBox(x: Double(100 + 2 * k) - 0.5, y: Double(80 + k) - 0.5, width: 40 * scale, height: 40 * scale)
            #expect(o.state == .tracking && o.box.iou(truth) > 0.6, "frame \(k): \(o.box) vs \(truth), confidence \(o.confidence)")
            last = o
        }
        let end = try #require(last)
        #expect(end.confidence > 0.7, "confidence \(end.confidence), PSR \(end.peakToSidelobe)")
        #expect(abs(end.box.width / 56 - 1) < 0.12, "width \(end.box.width) px, truth 56")
    }

    @Test func losesAHiddenObjectAndFindsItAgain() throws {
        var first = Self.frame(ox: 100, oy: 80)
        var tracker = try CorrelationFilterTracker(frame: &first, box: BoundingBox(x: 99.5, y: 79.5, width: 40, height: 40))
        for k in 0..<10 {
            var f = Self.frame(ox: 100, oy: 80, noiseSeed: UInt64(k))
            let o = tracker.update(&f)
            
            #expect(o.state == .tracking)
        }
        var lostAt: Int?
        for k in 0..<10 {
            var f = Self.frame(ox: 100, oy: 80, hidden: true, noiseSeed: UInt64(20 + k))
            let o = tracker.update(&f)
            if o.state == .lost, lostAt == nil { lostAt = k }
            if lostAt != nil { #expect(o.state == .lost && o.confidence < 0.5) }
        }
        #expect((lostAt ?? 99) < 3, "lost after \(lostAt.map(String.init) ?? "never") hidden frames")
        // It returns elsewhere: found within 10 frames.
        var foundAt: Int?
        for k in 0..<10 where foundAt == nil {
            var f = Self.frame(ox: 200, oy: 150, noiseSeed: UInt64(40 + k))
            let o = tracker.update(&f)
            if o.state == .tracking { foundAt = k; #expect(o.box.iou(BoundingBox(x: 199.5, y: 149.5, width: 40, height: 40)) > 0.5, "\(o.box)") }
        }
        #expect(foundAt != nil)
    }

    /// The search while lost starts at the last centre and rings outward, every tile inside the
    /// image, and together they leave no point of the image farther than a step from a tile.
    @Test func searchTilesStartAtTheCentreAndCoverTheImage() {
        let tiles = CorrelationFilterTracker.tiles(around: (100, 80), step: (50, 40), width: 320, height: 240)
        #expect(tiles.first.map { $0.x == 100 && $0.y == 80 } == true)
        #expect(tiles.allSatisfy { $0.x >= 0 && $0.x < 320 && $0.y >= 0 && $0.y < 240 })
        for y in stride(from: 0.0, to: 240, by: 7) {
            for x in stride(from: 0.0, to: 320, by: 7) {
                #expect(tiles.contains { abs($0.x - x) <= 50 && abs($0.y - y) <= 40 }, "(\(x), \(y)) not covered")
            }
        }
        let distances = tiles.map { max(abs($0.x - 100) / 50, abs($0.y - 80) / 40) }
        #expect(distances == distances.sorted())
        // A centre outside the image: the nearest point inside it.
        let outside = CorrelationFilterTracker.tiles(around: (-500, -500), step: (10, 10), width: 32, height: 24)
        #expect(outside.count == 1 && outside[0].x == 0 && outside[0].y == 0)
    }

    @Test func refusesBadStartBoxes() {
        var f = Self.frame(ox: 0, oy: 0)
        for box in [BoundingBox(x: 10, y: 10, width: 0, height: 5), BoundingBox(x: 10, y: 10, width: -4, height: 5),
                    BoundingBox(x: 500, y: 10, width: 20, height: 20), BoundingBox(x: 0, y: 0, width: 400, height: 20),
                    BoundingBox(x: .nan, y: 0, width: 20, height: 20)] {
            #expect(throws: CorrelationFilterTracker.StartError.self) { try CorrelationFilterTracker(frame: &f, box: box) }
        }
    }

    @Test func sameFramesGiveTheSameBoxesBitForBit() throws {
        func run() throws -> [CorrelationFilterTracker.Observation] {
            var first = Self.frame(ox: 60, oy: 60)
            var tracker = try CorrelationFilterTracker(frame: &first, box: BoundingBox(x: 59.5, y: 59.5, width: 40, height: 40))
            return (1...8).map { k in
                var f = Self.frame(ox: 60 + 3 * k, oy: 60)
                return tracker.update(&f)
            }
        }
        #expect(try run() == run())
    }
}
