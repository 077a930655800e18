import ParallaxGeometry
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
import ParallaxVision

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

extension DepthNoise {
    /// `depth` (m) plus Gaussian noise of `sigma(z)` per valid pixel; one sample per pixel from
    /// `rng` in raster order (deterministic); invalid pixels stay NaN, and a value pushed to or
    /// below zero becomes invalid.
    func added(to depth: ImageBuffer<Float>, using rng: inout SeededGenerator) -> ImageBuffer<Float> {
        let samples = depth.samples.map { z -> Float in
            let n = rng.nextGaussian()
            guard z.isFinite, z > 0 else { return .nan }
            let v = Double(z) + sigma(Double(z)) * n
            return v > 0 ? Float(v) : .nan
        }
        return ImageBuffer(width: depth.width, height: depth.height, samples: samples)
    }
}
