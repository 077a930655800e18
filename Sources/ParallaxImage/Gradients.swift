/// Image derivatives with 3×3 kernels, borders reflected (reflect-101).
public enum Gradients {
    /// Scharr derivatives (x, y), scaled by 1/32 so a unit ramp gives 1 (the LK template
    /// gradients, as OpenCV's pyramidal LK uses).
    public static func scharr(_ image: GrayImage) -> (dx: GrayImage, dy: GrayImage) {
        derivative(image, smooth: (3, 10, 3), scale: 1 / 32)
    }

    /// Sobel derivatives (x, y), unscaled (OpenCV `Sobel(ksize = 3)`), for corner scores.
    public static func sobel(_ image: GrayImage) -> (dx: GrayImage, dy: GrayImage) {
        derivative(image, smooth: (1, 2, 1), scale: 1)
    }

    static func derivative(_ image: GrayImage, smooth k: (Float, Float, Float), scale: Float) -> (dx: GrayImage, dy: GrayImage) {
        let w = image.width, h = image.height
        // Both outputs are written in full below: no zero fill, and no shared buffer to copy.
        var dy: [Float] = []
        let dx = [Float](unsafeUninitializedCapacity: w * h) { gx, initializedX in
            dy = [Float](unsafeUninitializedCapacity: w * h) { gy, initializedY in
                image.pixels.withUnsafeBufferPointer { p in
                    for y in 0..<h {
                        let ym = ImagePyramid.reflect(y - 1, h) * w, y0 = y * w, yp = ImagePyramid.reflect(y + 1, h) * w
                        // Interior columns: no border arithmetic.
                        if w > 2, let base = p.baseAddress, let ox = gx.baseAddress, let oy = gy.baseAddress {
                            let up = base + ym, mid = base + y0, down = base + yp
                            let outX = ox + y0, outY = oy + y0
                            for x in 1..<(w &- 1) {
                                let colM = k.0 * up[x &- 1] + k.1 * mid[x &- 1] + k.2 * down[x &- 1]
                                let colP = k.0 * up[x &+ 1] + k.1 * mid[x &+ 1] + k.2 * down[x &+ 1]
                                let rowM = k.0 * up[x &- 1] + k.1 * up[x] + k.2 * up[x &+ 1]
                                let rowP = k.0 * down[x &- 1] + k.1 * down[x] + k.2 * down[x &+ 1]
                                outX[x] = (colP - colM) * scale
                                outY[x] = (rowP - rowM) * scale
                            }
                        }
                        @inline(__always) func edge(_ x: Int) {
                            let xm = ImagePyramid.reflect(x - 1, w), xp = ImagePyramid.reflect(x + 1, w)
                            let colM = k.0 * p[ym + xm] + k.1 * p[y0 + xm] + k.2 * p[yp + xm]
                            let colP = k.0 * p[ym + xp] + k.1 * p[y0 + xp] + k.2 * p[yp + xp]
                            let rowM = k.0 * p[ym + xm] + k.1 * p[ym + x] + k.2 * p[ym + xp]
                            let rowP = k.0 * p[yp + xm] + k.1 * p[yp + x] + k.2 * p[yp + xp]
                            gx[y0 + x] = (colP - colM) * scale
                            gy[y0 + x] = (rowP - rowM) * scale
                        }
                        edge(0)
                        if w > 1 { edge(w - 1) }
                    }
                }
                initializedY = w * h
            }
            initializedX = w * h
        }
        return (GrayImage(width: w, height: h, pixels: dx), GrayImage(width: w, height: h, pixels: dy))
    }
}
