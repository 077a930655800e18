import Foundation
import Testing
import ParallaxFace
import ParallaxImage
import ParallaxMath

@Suite struct FixationFilterTests {
    /// Still for 0.5 s, a fast saccade, still for 0.3 s, a saccade, then 0.03 s: two fixations
    /// (the last too short), with their times and directions.
    @Test func ivtFindsTheFixations() {
        var filter = FixationFilter(speedThreshold: 30, minimumDuration: 0.1)
        var found: [FixationFilter.Found] = []
        func direction(_ degrees: Double) -> Vector3 { Vector3(sin(degrees * .pi / 180), 0, -cos(degrees * .pi / 180)) }
        var t = 0.0
        func add(_ angle: Double) {
            if let f = filter.add(.init(time: t, direction: direction(angle), screenPoint: Vector2(angle, 0))).ended { found.append(f) }
            t += 1.0 / 60
        }
        for k in 0...30 { add(0.1 * sin(Double(k))) }  // 0.5 s, jitter 0.1°
        for k in 1...3 { add(Double(k) * 5) }  // 300°/s
        for _ in 0...18 { add(15) }  // 0.3 s
        for k in 1...3 { add(15 - Double(k) * 6) }
        for _ in 0...2 { add(-3) }
        if let f = filter.finish() { found.append(f) }
        #expect(found.count == 2)
        #expect(abs(found[0].start) < 1e-9 && abs(found[0].end - 0.5) < 1e-9)
        // From the saccade's last sample, already at 15°, through the 19 still ones.
        #expect(abs(found[1].end - found[1].start - 19.0 / 60) < 1e-9)
        #expect(abs(found[1].direction.x - sin(15 * Double.pi / 180)) < 1e-9)
        #expect(found[0].dispersion < 0.2 && found[0].dispersion > 0)
    }

}
