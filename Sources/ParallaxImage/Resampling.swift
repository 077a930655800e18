import Foundation

extension GrayImage {
    /// Bilinear resampling to `width × height` with pixel-area-aligned coordinates (OpenCV's
    /// `INTER_LINEAR`): destination pixel `x` samples source `(x + ½)·sx − ½`, clamped to the
    /// image. For shrinking by more than 2× blur first (or shrink in steps), or it aliases.
    public func resized(width dw: Int, height dh: Int) -> GrayImage {
        precondition(dw > 0 && dh > 0, "GrayImage.resized: empty size")
        let sx = Float(width) / Float(dw), sy = Float(height) / Float(dh)
        // Horizontal taps once per column.
        var x0s = [Int](repeating: 0, count: dw), fxs = [Float](repeating: 0, count: dw)
        for x in 0..<dw {
            let fx = min(max((Float(x) + 0.5) * sx - 0.5, 0), Float(width - 1))
            x0s[x] = min(Int(fx), max(width - 2, 0))
            fxs[x] = width > 1 ? fx - Float(x0s[x]) : 0
        }
        var out = [Float](repeating: 0, count: dw * dh)
        let w = width, h = height
        pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<dh {
                    let fy = min(max((Float(y) + 0.5) * sy - 0.5, 0), Float(h - 1))
                    let y0 = min(Int(fy), max(h - 2, 0)), y1 = min(y0 + 1, h - 1)
                    let wy = h > 1 ? fy - Float(y0) : 0
                    let r0 = y0 * w, r1 = y1 * w
                    for x in 0..<dw {
                        let x0 = x0s[x], x1 = min(x0 + 1, w - 1), wx = fxs[x]
                        let top = p[r0 + x0] + (p[r0 + x1] - p[r0 + x0]) * wx
                        let bottom = p[r1 + x0] + (p[r1 + x1] - p[r1 + x0]) * wx
                        o[y * dw + x] = top + (bottom - top) * wy
                    }
                }
            }
        }
        return GrayImage(width: dw, height: dh, pixels: out)
    }

    /// Separable Gaussian blur with a `(2·radius + 1)`-tap kernel of standard deviation `sigma`
    /// (px), normalized to sum 1, borders reflected (reflect-101). ORB smooths with
    /// radius 3, σ = 2 (OpenCV's `GaussianBlur(7×7, 2)`) before sampling descriptor pairs.
    public func gaussianBlurred(sigma: Float, radius: Int) -> GrayImage {
        precondition(sigma > 0 && radius >= 0, "GrayImage.gaussianBlurred: sigma must be positive")
        var kernel = (-radius...radius).map { i in Float(exp(-0.5 * Double(i * i) / Double(sigma * sigma))) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        let w = width, h = height
        var tmp = [Float](repeating: 0, count: w * h), out = tmp
        pixels.withUnsafeBufferPointer { p in
            tmp.withUnsafeMutableBufferPointer { t in
                // Vertical pass over whole rows (vectorizes).
                guard let pp = p.baseAddress, let tp = t.baseAddress else { return }
                for y in 0..<h {
                    let row = tp + y * w
                    for (k, weight) in kernel.enumerated() {
                        let src = pp + ImagePyramid.reflect(y + k - radius, h) * w
                        for x in 0..<w { row[x] += weight * src[x] }
                    }
                }
            }
        }
        // Horizontal pass: each row padded with its reflection, then one vectorizable sweep per tap.
        var padded = [Float](repeating: 0, count: w + 2 * radius)
        tmp.withUnsafeBufferPointer { t in
            out.withUnsafeMutableBufferPointer { o in
                padded.withUnsafeMutableBufferPointer { pad in
                    guard let tp = t.baseAddress, let op = o.baseAddress, let pp = pad.baseAddress else { return }
                    for y in 0..<h {
                        let row = tp + y * w, orow = op + y * w
                        for i in 0..<(w + 2 * radius) { pp[i] = row[ImagePyramid.reflect(i - radius, w)] }
                        for (k, weight) in kernel.enumerated() {
                            let src = pp + k
                            for x in 0..<w { orow[x] += weight * src[x] }
                        }
                    }
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }
}
