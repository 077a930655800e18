/// Global histogram equalization of an 8-bit gray image (the formula of OpenCV's `equalizeHist`): each gray
/// level maps through the normalized cumulative histogram, `lut[v] = round((cdf(v) − cdf_min) ·
/// 255 / (N − cdf_min))`, so the levels spread over 0…255. Trackers see the same contrast in dark
/// and bright frames (auto-exposure, lights switched on).
public enum HistogramEqualization {
    /// The equalized image; a constant image is returned unchanged.
    public static func equalized(_ image: ImageBuffer<UInt8>) -> ImageBuffer<UInt8> {
        precondition(image.channels == 1, "HistogramEqualization: gray images only")
        var histogram = [Int](repeating: 0, count: 256)
        for v in image.samples { histogram[Int(v)] += 1 }
        let total = image.samples.count
        guard let first = histogram.firstIndex(where: { $0 > 0 }), histogram[first] < total else { return image }
        let minimum = histogram[first]
        let scale = 255 / Double(total - minimum)
        var lut = [UInt8](repeating: 0, count: 256)
        var cumulative = 0
        for v in 0..<256 {
            cumulative += histogram[v]
            lut[v] = UInt8(max(0, min(255, (Double(cumulative - minimum) * scale).rounded())))
        }
        return ImageBuffer(width: image.width, height: image.height, channels: 1, samples: image.samples.map { lut[Int($0)] })
    }
}
