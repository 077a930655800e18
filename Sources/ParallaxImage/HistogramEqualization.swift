/// Global histogram equalization of a gray image with 0…255 intensities (the formula of OpenCV's
/// `equalizeHist`): each level maps through the normalized cumulative histogram,
/// `lut[v] = round((cdf(v) − cdf_min) · 255 / (N − cdf_min))`, so the levels spread over 0…255.
/// Trackers see the same contrast in dark and bright frames (auto-exposure, lights switched on).
public enum HistogramEqualization {
    /// Equalizes `image` in place; values are binned by rounding (exact for images made from
    /// 8-bit samples), a constant image is left as it is.
    public static func equalize(_ image: inout GrayImage) {
        func level(_ v: Float) -> Int { Int(max(0, min(255, v.rounded()))) }
        var histogram = [Int](repeating: 0, count: 256)
        for v in image.pixels { histogram[level(v)] += 1 }
        guard let lut = lookupTable(histogram, total: image.pixels.count) else { return }
        for i in image.pixels.indices { image.pixels[i] = lut[level(image.pixels[i])] }
    }

    /// `GrayImage(image)` equalized, in one histogram pass over the bytes and one lookup per
    /// pixel (the same values as converting, then ``equalize(_:)``; RGB goes that way).
    public static func equalized(_ image: ImageBuffer<UInt8>) -> GrayImage {
        guard image.channels == 1 else {
            var gray = GrayImage(image)
            equalize(&gray)
            return gray
        }
        // Four interleaved histograms: consecutive equal bytes (most of an image) would otherwise
        // wait on each other's increment.
        var partial = [Int](repeating: 0, count: 4 * 256)
        let count = image.samples.count
        image.samples.withUnsafeBufferPointer { samples in
            partial.withUnsafeMutableBufferPointer { h in
                guard let s = samples.baseAddress, let h = h.baseAddress else { return }
                var i = 0
                while i &+ 4 <= count {
                    h[Int(s[i])] &+= 1
                    h[256 &+ Int(s[i &+ 1])] &+= 1
                    h[512 &+ Int(s[i &+ 2])] &+= 1
                    h[768 &+ Int(s[i &+ 3])] &+= 1
                    i &+= 4
                }
                while i < count {
                    h[Int(s[i])] &+= 1
                    i &+= 1
                }
            }
        }
        let histogram = (0..<256).map { (v: Int) -> Int in
            let low: Int = partial[v] + partial[256 + v]
            return low + partial[512 + v] + partial[768 + v]
        }
        guard let lut = lookupTable(histogram, total: count) else { return GrayImage(image) }
        let pixels = [Float](unsafeUninitializedCapacity: count) { out, initialized in
            lut.withUnsafeBufferPointer { lut in
                image.samples.withUnsafeBufferPointer { samples in
                    guard let l = lut.baseAddress, let s = samples.baseAddress, let o = out.baseAddress else { return }
                    for i in 0..<count { o[i] = l[Int(s[i])] }
                }
            }
            initialized = count
        }
        return GrayImage(width: image.width, height: image.height, pixels: pixels)
    }

    /// The level map of a histogram of `total` pixels; nil for a constant (or empty) image.
    static func lookupTable(_ histogram: [Int], total: Int) -> [Float]? {
        guard let first = histogram.firstIndex(where: { $0 > 0 }), histogram[first] < total else { return nil }
        let minimum = histogram[first]
        let scale = 255 / Double(total - minimum)
        var lut = [Float](repeating: 0, count: 256)
        var cumulative = 0
        for v in 0..<256 {
            cumulative += histogram[v]
            lut[v] = Float(max(0, (Double(cumulative - minimum) * scale).rounded()))
        }
        return lut
    }
}
