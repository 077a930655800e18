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

    /// The byte path gives exactly what converting and equalizing gives (gray and RGB, and a
    /// constant image).
    @Test func equalizingBytesMatchesEqualizingTheConvertedImage() {
        var random = SystemRandomNumberGenerator()
        for channels in [1, 3] {
            let samples = (0..<(37 * 23 * channels)).map { _ in UInt8(truncatingIfNeeded: Int.random(in: 30...200, using: &random)) }
            let bytes = ImageBuffer(width: 37, height: 23, channels: channels, samples: samples)
            var converted = GrayImage(bytes)
            HistogramEqualization.equalize(&converted)
            #expect(HistogramEqualization.equalized(bytes) == converted)
        }
        let flat = ImageBuffer<UInt8>(width: 4, height: 4, repeating: 77)
        #expect(HistogramEqualization.equalized(flat) == GrayImage(flat))
    }
}
