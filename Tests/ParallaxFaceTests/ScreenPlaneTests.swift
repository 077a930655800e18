import Foundation
import Testing
import ParallaxFace
import ParallaxImage
import ParallaxMath

@Suite struct ScreenPlaneTests {
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
}
