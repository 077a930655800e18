import Foundation
import Testing
import ParallaxImage
import ParallaxMath
@testable import ParallaxTracking

/// DSST's scale filter: a textured object scaled about its centre by a known factor, up to the ±5 %
/// per frame the filter is made for (its samples farther out are tapered down).
@Suite struct ScaleFilterTests {
    /// A 200 × 160 frame: 40 Gaussian blobs (seeded) inside a 60 × 40 object at (100, 80),
    /// drawn `scale` times larger about that centre, on a flat background.
    static func frame(scale: Double) -> FramePyramid {
        var rng = SeededGenerator(seed: 5)
        let blobs = (0..<40).map { _ -> (x: Double, y: Double, a: Double) in
            (Double(rng.next() % 600) / 10 - 30, Double(rng.next() % 400) / 10 - 20, Double(rng.next() % 200) - 100)
        }
        var pixels = [Float](repeating: 128, count: 200 * 160)
        for y in 0..<160 {
            for x in 0..<200 {
                let u = (Double(x) - 100) / scale, v = (Double(y) - 80) / scale
                guard abs(u) < 30, abs(v) < 20 else { continue }
                var value = 128.0
                for b in blobs { value += b.a * exp(-((u - b.x) * (u - b.x) + (v - b.y) * (v - b.y)) / 18) }
                pixels[y * 200 + x] = Float(min(255, max(0, value)))
            }
        }
        return FramePyramid(GrayImage(width: 200, height: 160, pixels: pixels))
    }

    @Test func findsTheScaleChange() {
        var first = Self.frame(scale: 1)
        var filter = ScaleFilter(boxWidth: 60, boxHeight: 40, count: 17, step: 1.02, learningRate: 0.025)
        filter.learn(frame: &first, centerX: 100, centerY: 80, width: 60, height: 40)
        #expect(filter.factors.count == 17 && filter.factors[8] == 1)
        for truth in [1.0, 1.05, 0.95, 1.03, 0.97] {
            var frame = Self.frame(scale: truth)
            let found = filter.estimate(frame: &frame, centerX: 100, centerY: 80, width: 60, height: 40)
            #expect(abs(found / truth - 1) < 0.012, "scaled ×\(truth), found ×\(found)")
        }
    }

    @Test func anUnlearnedFilterKeepsTheScale() {
        var frame = Self.frame(scale: 1.1)
        let filter = ScaleFilter(boxWidth: 60, boxHeight: 40, count: 17, step: 1.02, learningRate: 0.025)
        #expect(filter.estimate(frame: &frame, centerX: 100, centerY: 80, width: 60, height: 40) == 1)
    }
}
