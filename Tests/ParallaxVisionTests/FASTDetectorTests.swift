import Foundation
import Testing
import ParallaxImage
import ParallaxGeometry
import ParallaxMath
import VisionTestSupport
@testable import ParallaxVision

@Suite struct FASTDetectorTests {
    /// Dark squares on a bright background: FAST fires at the square corners.
    @Test func findsSquareCornersAndNothingOnFlatImages() {
        var image = GrayImage(width: 120, height: 90, value: 200)
        let squares = [(20, 20), (70, 30), (40, 55)]
        for (x0, y0) in squares { for y in y0..<(y0 + 20) { for x in x0..<(x0 + 20) { image[x, y] = 40 } } }
        var fast = FASTDetector()
        fast.minDistance = 3
        let corners = fast.detect(image)
        #expect(corners.count >= 12)
        let expected = squares.flatMap { (x, y) in [Vector2(Double(x), Double(y)), Vector2(Double(x + 19), Double(y)), Vector2(Double(x), Double(y + 19)), Vector2(Double(x + 19), Double(y + 19))] }
        for e in expected { #expect(corners.contains { ($0.position - e).norm <= 1.5 }, "no corner near \(e)") }
        #expect(FASTDetector().detect(GrayImage(width: 60, height: 40, value: 90)).isEmpty)
    }
}
