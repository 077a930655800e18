import ParallaxImage

/// The error image of a dense prediction (disparity, depth) against its truth, for people to
/// look at: black where the truth is unknown (not finite, or not above `truthFloor`), white where
/// a known pixel has no prediction, else turbo of the error scaled to 0…1 (blue: exact, red: at
/// the scale's end or beyond).
enum ErrorImage {
    /// `scaledError(prediction, truth)` maps a pixel's error to 0…1.
    static func render(_ prediction: ImageBuffer<Float>, truth: ImageBuffer<Float>, truthFloor: Float = -.infinity,
                       scaledError: (Float, Float) -> Double) -> ImageBuffer<UInt8> {
        var rgb = [UInt8](repeating: 0, count: truth.width * truth.height * 3)
        for (i, t) in truth.samples.enumerated() where t.isFinite && t > truthFloor {
            let p = prediction.samples[i]
            let c = p.isFinite ? Colormap.turbo(scaledError(p, t)) : (r: UInt8(255), g: UInt8(255), b: UInt8(255))
            rgb[3 * i] = c.r
            rgb[3 * i + 1] = c.g
            rgb[3 * i + 2] = c.b
        }
        return ImageBuffer(width: truth.width, height: truth.height, channels: 3, samples: rgb)
    }
}
