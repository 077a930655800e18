import Testing
@testable import ParallaxImage

@Suite struct HistogramEqualizationTests {
    /// Levels spread over 0…255 through the cumulative histogram, their order kept; a flat image
    /// stays as it is.
    @Test func spreadsTheLevelsAndKeepsTheirOrder() {
        var image = GrayImage(width: 7, height: 1, pixels: [10, 10, 20, 20, 20, 40, 41])
        HistogramEqualization.equalize(&image)
        // hist: 10×2, 20×3, 40×1, 41×1; cdf − 2 over 5 → 0, 3/5, 4/5, 5/5 of 255.
        #expect(image.pixels == [0, 0, 153, 153, 153, 204, 255])
        var flat = GrayImage(width: 3, height: 2, value: 9)
        HistogramEqualization.equalize(&flat)
        #expect(flat.pixels == [Float](repeating: 9, count: 6))
    }
}
