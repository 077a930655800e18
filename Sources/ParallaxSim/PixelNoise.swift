import ParallaxCore
import ParallaxMath

/// Sensor noise on rendered 8-bit images.
enum PixelNoise {
    /// `image` plus Gaussian noise of `sigma` gray levels per pixel, rounded and clamped to
    /// 0…255; draws one sample per pixel from `rng`, in raster order (deterministic).
    static func add(to image: ImageBuffer<UInt8>, sigma: Double, using rng: inout SeededGenerator) -> ImageBuffer<UInt8> {
        guard sigma > 0 else { return image }
        let samples = image.samples.map { v in UInt8(min(255, max(0, (Double(v) + sigma * rng.nextGaussian()).rounded()))) }
        return ImageBuffer(width: image.width, height: image.height, channels: image.channels, samples: samples)
    }
}
