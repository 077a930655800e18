import Foundation
import Testing
import ParallaxImage
import ParallaxVision

@Suite struct HOGFeaturesTests {
    /// A vertical edge: its gradient points along x, so the horizontal orientation bin holds the
    /// energy, on the edge's cells only, and the features do not depend on the contrast.
    @Test func anEdgeFillsItsOrientationBin() {
        func edge(_ contrast: Float) -> GrayImage {
            GrayImage(width: 32, height: 16, pixels: (0..<(32 * 16)).map { $0 % 32 < 16 ? 10 : 10 + contrast })
        }
        let hog = HOGFeatures(edge(100), cellSize: 4)
        #expect(hog.cellsX == 8 && hog.cellsY == 4 && hog.values.count == 31 * 32)
        let cells = 32
        func feature(_ c: Int, _ x: Int, _ y: Int) -> Float { hog.values[c * cells + y * 8 + x] }
        // Bin 0 (0°, dark to bright along +x) on the edge cells 3 and 4; nothing far from it.
        #expect(feature(0, 3, 1) > 0.1 && feature(0, 4, 1) > 0.1)
        #expect(feature(0, 0, 1) == 0 && feature(9, 3, 1) == 0)
        // The contrast-insensitive bin 0 as well; the texture channels are positive on the edge.
        #expect(feature(18, 3, 1) > 0.1 && feature(27, 3, 1) > 0)
        let weak = HOGFeatures(edge(10), cellSize: 4)
        for (a, b) in zip(hog.values, weak.values) { #expect(abs(a - b) < 1e-3) }
    }
}
