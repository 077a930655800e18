import Testing
@testable import ParallaxImage

@Suite struct ColorLegendTests {
    @Test func theBarRunsFromFarAtTheTopToNearAtTheBottomAndTheLabelsAreDrawn() {
        let image = ImageBuffer<UInt8>(width: 40, height: 100, channels: 3, repeating: 7)
        let out = ColorLegend.appended(to: image, map: .viridis, range: 1...5)
        #expect(out.width == 40 + ColorLegend.width && out.height == 100 && out.channels == 3)
        #expect(out[10, 50, 0] == 7)  // the image is kept
        let top = Colormap.viridis(1), bottom = Colormap.viridis(0)
        #expect(out[50, 8, 0] == top.r && out[50, 8, 1] == top.g && out[50, 8, 2] == top.b)
        #expect(out[50, 91, 0] == bottom.r && out[50, 91, 1] == bottom.g && out[50, 91, 2] == bottom.b)  // rows 8…h − 9
        // Some black label pixels right of the bar, white elsewhere.
        let label = (65..<116).flatMap { x in (0..<20).map { y in out[x, y, 0] } }
        #expect(label.contains(0) && label.contains(255))
    }

    @Test func valuesAreWrittenWithTwoDecimalsOrOneFromAHundred() {
        #expect(ColorLegend.format(4.2) == "4.20")
        #expect(ColorLegend.format(0.005) == "0.01")
        #expect(ColorLegend.format(-1.5) == "-1.50")
        #expect(ColorLegend.format(123.456) == "123.5")
        #expect(ColorLegend.format(.nan) == "-")
    }
}

@Suite struct ColormapRangeTests {
    /// A depth stream's colours span its bulk (the PNG writer and depth-colorize share this): 1 … 5 m over 1000 pixels, plus a stray 80 m match
    /// and invalid pixels, colours 1.04 … 4.96 m (the 1st to 99th percentile), not 1 … 80 m.
    @Test func depthColoursSpanTheBulkOfTheValuesNotAStrayOne() {
        let values = (0..<1000).map { 1 + 4 * Float($0) / 999 } + [80, .nan, .infinity]
        let range = Colormap.percentileRange(values)
        #expect(abs((range?.lowerBound ?? 0) - 1.04) < 0.01 && abs((range?.upperBound ?? 0) - 4.96) < 0.01)
        #expect(Colormap.percentileRange([.nan, 2, 2]) == nil)
    }
}
