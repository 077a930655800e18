import CFeatureKernels

/// Image derivatives with 3×3 kernels, borders reflected (reflect-101).
public enum Gradients {
    /// Scharr derivatives (x, y), scaled by 1/32 so a unit ramp gives 1 (the LK template
    /// gradients, as OpenCV's pyramidal LK uses).
    public static func scharr(_ image: GrayImage) -> (dx: GrayImage, dy: GrayImage) {
        let (dx, dy) = scharr(BorderedImage(image, margin: 1, border: .reflect101), margin: 0)
        return (dx.interior, dy.interior)
    }

    /// Scharr derivatives of an image with a reflected margin (at least 1 px), written inside
    /// a zero margin of `margin` px (no gradient outside the image).
    public static func scharr(_ image: BorderedImage, margin: Int) -> (dx: BorderedImage, dy: BorderedImage) {
        derivative(image, smooth: (3, 10, 3), scale: 1 / 32, margin: margin)
    }

    /// Sobel derivatives (x, y), unscaled (OpenCV `Sobel(ksize = 3)`), for corner scores.
    public static func sobel(_ image: GrayImage) -> (dx: GrayImage, dy: GrayImage) {
        sobel(BorderedImage(image, margin: 1, border: .reflect101))
    }

    /// Sobel derivatives of an image that already has a reflected margin (≥ 1 px), e.g. a
    /// pyramid level, without copying it first.
    public static func sobel(_ image: BorderedImage) -> (dx: GrayImage, dy: GrayImage) {
        let (dx, dy) = derivative(image, smooth: (1, 2, 1), scale: 1, margin: 0)
        return (dx.interior, dy.interior)
    }

    /// Central difference across, smoothing `k` along, as two separable passes per row: the
    /// column-smoothed row `V` and the column difference `D` (over columns −1 … w, which the
    /// source's reflected margin supplies), then `dx = V[x+1] − V[x−1]` and
    /// `dy = k·(D[x−1], D[x], D[x+1])`. In C (`pxl_derivative3`: AVX2 or portable, the same bits
    /// as the Swift loops it replaced).
    static func derivative(_ image: BorderedImage, smooth k: (Float, Float, Float), scale: Float,
                           margin: Int) -> (dx: BorderedImage, dy: BorderedImage) {
        precondition(image.margin >= 1, "Gradients: the source needs a margin of at least 1 px")
        let w = image.width, h = image.height
        var smoothed = [Float](repeating: 0, count: w + 2), difference = [Float](repeating: 0, count: w + 2)
        var outY: BorderedImage?
        let dx = BorderedImage(width: w, height: h, margin: margin, border: .zero) { outX, outStride in
            outY = BorderedImage(width: w, height: h, margin: margin, border: .zero) { outY, _ in
                image.storage.withUnsafeBufferPointer { p in
                    smoothed.withUnsafeMutableBufferPointer { vb in
                        difference.withUnsafeMutableBufferPointer { db in
                            guard let base = p.baseAddress, let v = vb.baseAddress, let d = db.baseAddress else { return }
                            pxl_derivative3(base + image.index(0, 0), image.stride, w, h, k.0, k.1, k.2, scale, outX, outY, outStride, v, d)
                        }
                    }
                }
            }
        }
        guard let dy = outY else { preconditionFailure("Gradients: the dy image was not written") }
        return (dx, dy)
    }
}
