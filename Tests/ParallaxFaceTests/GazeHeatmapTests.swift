import Foundation
import Testing
import ParallaxFace
import ParallaxImage
import ParallaxMath

@Suite struct GazeHeatmapTests {
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
