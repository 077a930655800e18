import CFeatureKernels
import Foundation

extension GrayImage {
    /// Bilinear resampling to `width × height` with pixel-area-aligned coordinates (OpenCV's
    /// `INTER_LINEAR`): destination pixel `x` samples source `(x + ½)·sx − ½`, clamped to the
    /// image. For shrinking by more than 2× blur first (or shrink in steps), or it aliases.
    public func resized(width dw: Int, height dh: Int) -> GrayImage {
        precondition(dw > 0 && dh > 0, "GrayImage.resized: empty size")
        // The C loop reads the source unchecked (it used to trap on an empty one).
        precondition(width > 0 && height > 0, "GrayImage.resized: empty source")
        let sx = Float(width) / Float(dw), sy = Float(height) / Float(dh)
        let w = width, h = height
        // Taps once per column and once per row; the C loop (CFeatureKernels) interpolates each
        // needed source row once horizontally, then blends pairs of rows (vectorized), with the
        // same per-pixel arithmetic as before: top = a + (b − a)·fx, out = top + (bottom − top)·fy.
        let (x0s, x1s, fxs) = Self.bilinearTaps(count: dw, scale: sx, source: w)
        let (y0s, y1s, fys) = Self.bilinearTaps(count: dh, scale: sy, source: h)
        let (count, overflow) = dw.multipliedReportingOverflow(by: dh)
        precondition(!overflow, "GrayImage.resized: \(dw)×\(dh) pixels overflow")
        var scratch = [Float](repeating: 0, count: 2 * dw), indices = [Int32](repeating: 0, count: 2 * dw)
        let out = [Float](unsafeUninitializedCapacity: count) { o, initialized in
            pixels.withUnsafeBufferPointer { p in
                scratch.withUnsafeMutableBufferPointer { sc in
                    indices.withUnsafeMutableBufferPointer { ix in
                        guard let src = p.baseAddress, let dst = o.baseAddress, let scr = sc.baseAddress, let ixs = ix.baseAddress else { return }
                        pxl_resize_bilinear(src, w, x0s, x1s, fxs, dw, y0s, y1s, fys, dh, scr, ixs, dst)
                    }
                }
            }
            initialized = count
        }
        return GrayImage(width: dw, height: dh, pixels: out)
    }

    /// For each of `count` output samples along one axis scaled by `scale` (source / output):
    /// the two source samples it blends (of `source`) and the weight of the second.
    private static func bilinearTaps(count: Int, scale: Float, source: Int) -> (first: [Int], second: [Int], weight: [Float]) {
        var first = [Int](repeating: 0, count: count), second = first, weight = [Float](repeating: 0, count: count)
        for i in 0..<count {
            let f = min(max((Float(i) + 0.5) * scale - 0.5, 0), Float(source - 1))
            first[i] = min(Int(f), max(source - 2, 0))
            second[i] = min(first[i] + 1, source - 1)
            weight[i] = source > 1 ? f - Float(first[i]) : 0
        }
        return (first, second, weight)
    }

    /// Separable Gaussian blur with a `(2·radius + 1)`-tap kernel of standard deviation `sigma`
    /// (px), normalized to sum 1, borders reflected (reflect-101). ORB smooths with
    /// radius 3, σ = 2 (OpenCV's `GaussianBlur(7×7, 2)`) before sampling descriptor pairs.
    public func gaussianBlurred(sigma: Float, radius: Int) -> GrayImage {
        precondition(sigma > 0 && radius >= 0, "GrayImage.gaussianBlurred: sigma must be positive")
        let plan = SeparableGaussian(sigma: sigma, radius: radius, width: width, height: height)
        let w = width, h = height
        // Row by row, the vertical pass into a row buffer and the horizontal pass out of it
        // (vectorized, CFeatureKernels), each output summed from 0 in tap order as before.
        let out = [Float](unsafeUninitializedCapacity: w * h) { o, initialized in
            plan.run(pixels, into: o) { src, kernel, taps, rowStarts, columns, tapStarts, row, pad, dst in
                pxl_filter_separable(src, w, h, kernel, taps, rowStarts, columns, tapStarts, row, pad, dst)
            }
            initialized = w * h
        }
        return GrayImage(width: w, height: h, pixels: out)
    }
}
