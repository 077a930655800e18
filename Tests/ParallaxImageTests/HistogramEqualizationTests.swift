import Testing
@testable import ParallaxImage

@Suite struct HistogramEqualizationTests {
    /// Levels spread over 0…255 through the cumulative histogram, their order kept; a flat image
    /// stays as it is.
    @Test func spreadsTheLevelsAndKeepsTheirOrder() {
        let image = ImageBuffer<UInt8>(width: 7, height: 1, samples: [10, 10, 20, 20, 20, 40, 41])
        let out = HistogramEqualization.equalized(image)
        // hist: 10×2, 20×3, 40×1, 41×1; cdf − 2 over 5 → 0, 3/5, 4/5, 5/5 of 255.
        #expect(out.samples == [0, 0, 153, 153, 153, 204, 255])
        let flat = ImageBuffer<UInt8>(width: 3, height: 2, samples: [9, 9, 9, 9, 9, 9])
        #expect(HistogramEqualization.equalized(flat).samples == flat.samples)
    }
}
