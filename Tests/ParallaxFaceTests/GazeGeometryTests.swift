import Foundation
import Testing
import ParallaxFace
import ParallaxImage
import ParallaxMath

@Suite struct GazeGeometryTests {
    /// A line of sight from 40 cm in front of a phone, aimed at a point on its screen, meets it
    /// there; one looking away does not.
    @Test func linesOfSightMeetTheScreenWhereAimed() throws {
        let screen = ScreenPlane.phone()
        let eye = Vector3(0.01, 0.05, 0.4)
        let target = screen.corner + Vector3(0.03, 0.08, 0)
        let hit = try #require(screen.intersect(origin: eye, direction: (target - eye).normalized))
        #expect((hit - Vector2(0.03, 0.08)).norm < 1e-12)
        #expect(screen.contains(hit))
        #expect(screen.intersect(origin: eye, direction: Vector3(0, 0, 1)) == nil)
        #expect(!screen.contains(Vector2(-0.01, 0.05)) && !screen.contains(Vector2(0.03, 0.2)))
    }

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

    /// A splat peaks where it lands; points off the screen leave it dark.
    @Test func heatmapPeaksWhereTheGazeRested() {
        var map = GazeHeatmap(screen: ScreenPlane(corner: .zero, width: 0.1, height: 0.2), width: 100, sigma: 0.005)
        #expect(map.height == 200)
        map.add(Vector2(0.03, 0.15), weight: 2)
        map.add(Vector2(0.5, 0.5), weight: 9)  // off the screen
        #expect(map.total == 2)
        #expect(map.value(x: 29, y: 149) > 0.9 * 2 && map.value(x: 29, y: 149) > map.value(x: 35, y: 149))
        #expect(map.value(x: 90, y: 10) == 0)
        let image = map.render()
        #expect(image.width == 100 && image.height == 200 && image.channels == 3)
    }
}
