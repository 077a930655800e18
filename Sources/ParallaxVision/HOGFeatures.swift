import Foundation
import ParallaxImage

/// Felzenszwalb's histogram-of-oriented-gradients features (FHOG, the 31-channel HOG of the
/// deformable part models that KCF, DSST and CSRT track with), one vector per `cellSize × cellSize`
/// cell, the image's size in cells kept (border cells normalize against their clamped neighbours).
///
/// Per pixel: the centred gradient, its magnitude, and its direction snapped to one of 18
/// contrast-sensitive bins (20° each, by the largest projection, no arctangent). Each pixel's
/// magnitude is shared bilinearly among the four nearest cell centres. Each cell is then
/// normalized by the gradient energy of the four 2 × 2-cell blocks it belongs to, each
/// normalized value clipped at 0.2, giving: 18 contrast-sensitive orientations (the four
/// normalizations summed, × ½), 9 contrast-insensitive ones (opposite directions summed) and 4
/// texture energies (each normalization's sum over the 18 bins, × 0.2357).
///
/// Channel-major layout: channel `c`, cell `(x, y)` at `values[(c · cellsY + y) · cellsX + x]`.
public struct HOGFeatures: Sendable, Equatable {
    /// Features per cell.
    public static let channels = 31
    public let cellsX: Int, cellsY: Int
    /// `channels · cellsY · cellsX` values, channel-major.
    public var values: [Float]

    /// The unit vectors of the 9 bin centres over 0…180° (the other 9 are their opposites).
    private static let directions: [(Float, Float)] = (0..<9).map { o in
        let a = Double(o) * .pi / 9
        return (Float(cos(a)), Float(sin(a)))
    }

    /// The features of `image` (intensities in any range: the normalization removes it) with
    /// cells of `cellSize` px; `image`'s size should be a multiple of `cellSize` (a remainder
    /// is left out). At least one cell each way.
    public init(_ image: GrayImage, cellSize: Int) {
        precondition(cellSize >= 1 && image.width >= cellSize && image.height >= cellSize, "HOGFeatures: image smaller than a cell")
        let w = image.width, h = image.height
        let cx = w / cellSize, cy = h / cellSize
        cellsX = cx
        cellsY = cy
        let cells = cx * cy
        var histogram = [Float](repeating: 0, count: 18 * cells)   // cell-major: 18 bins per cell
        let inverseCell = 1 / Float(cellSize)
        // Per column: the left cell of its bilinear pair and the weights (the same every row).
        let columnCell = (0..<w).map { x -> Int in Int(((Float(x) + 0.5) * inverseCell - 0.5).rounded(.down)) }
        let columnWeight = (0..<w).map { x -> Float in (Float(x) + 0.5) * inverseCell - 0.5 - Float(columnCell[x]) }
        let us = SIMD8<Float>(Self.directions[0..<8].map(\.0)), vs = SIMD8<Float>(Self.directions[0..<8].map(\.1))
        let (u8, v8) = Self.directions[8]
        image.pixels.withUnsafeBufferPointer { p in
            histogram.withUnsafeMutableBufferPointer { hist in
                for y in 0..<h {
                    let up = max(y - 1, 0), down = min(y + 1, h - 1)
                    let yp = (Float(y) + 0.5) * inverseCell - 0.5
                    let iy = Int(yp.rounded(.down))
                    let wy1 = yp - Float(iy), wy0 = 1 - wy1
                    for x in 0..<w {
                        let dx = p[y * w + min(x + 1, w - 1)] - p[y * w + max(x - 1, 0)]
                        let dy = p[down * w + x] - p[up * w + x]
                        let magnitude = (dx * dx + dy * dy).squareRoot()
                        guard magnitude > 0 else { continue }
                        // The bin whose direction (or its opposite) the gradient projects on most;
                        // the first of equals, as a scan from bin 0 keeps it.
                        let dots = us * dx + vs * dy
                        var best: Float = 0, bin = 0
                        for o in 0..<8 {
                            let dot = dots[o]
                            if dot > best { best = dot; bin = o } else if -dot > best { best = -dot; bin = o + 9 }
                        }
                        let dot8 = u8 * dx + v8 * dy
                        if dot8 > best { bin = 8 } else if -dot8 > best { bin = 17 }
                        let ix = columnCell[x]
                        let wx1 = columnWeight[x], wx0 = 1 - wx1
                        if iy >= 0 {
                            if ix >= 0 { hist[(iy * cx + ix) * 18 + bin] += wx0 * wy0 * magnitude }
                            if ix + 1 < cx { hist[(iy * cx + ix + 1) * 18 + bin] += wx1 * wy0 * magnitude }
                        }
                        if iy + 1 < cy {
                            if ix >= 0 { hist[((iy + 1) * cx + ix) * 18 + bin] += wx0 * wy1 * magnitude }
                            if ix + 1 < cx { hist[((iy + 1) * cx + ix + 1) * 18 + bin] += wx1 * wy1 * magnitude }
                        }
                    }
                }
            }
        }
        // Gradient energy per cell: the contrast-insensitive histogram's squared norm.
        var energy = [Float](repeating: 0, count: cells)
        for c in 0..<cells {
            var e: Float = 0
            for o in 0..<9 {
                let s = histogram[c * 18 + o] + histogram[c * 18 + o + 9]
                e += s * s
            }
            energy[c] = e
        }
        var out = [Float](repeating: 0, count: Self.channels * cells)
        let epsilon: Float = 1e-4
        for y in 0..<cy {
            for x in 0..<cx {
                func e(_ i: Int, _ j: Int) -> Float { energy[min(max(j, 0), cy - 1) * cx + min(max(i, 0), cx - 1)] }
                // The four 2 × 2 blocks holding the cell: towards (−1,−1), (+1,−1), (−1,+1), (+1,+1).
                let here = e(x, y)
                let norms = SIMD4<Float>(
                    1 / (here + e(x - 1, y) + e(x, y - 1) + e(x - 1, y - 1) + epsilon).squareRoot(),
                    1 / (here + e(x + 1, y) + e(x, y - 1) + e(x + 1, y - 1) + epsilon).squareRoot(),
                    1 / (here + e(x - 1, y) + e(x, y + 1) + e(x - 1, y + 1) + epsilon).squareRoot(),
                    1 / (here + e(x + 1, y) + e(x, y + 1) + e(x + 1, y + 1) + epsilon).squareRoot())
                // Each normalized value clipped at 0.2 (lane-wise, written out: the generic
                // `pointwiseMin` was not inlined here and cost a call per bin).
                func clipped(_ v: SIMD4<Float>) -> SIMD4<Float> {
                    SIMD4(Swift.min(v[0], 0.2), Swift.min(v[1], 0.2), Swift.min(v[2], 0.2), Swift.min(v[3], 0.2))
                }
                let c = y * cx + x
                var texture = SIMD4<Float>(repeating: 0)
                for o in 0..<18 {
                    let t = clipped(norms * histogram[c * 18 + o])
                    texture += t
                    out[o * cells + c] = 0.5 * t.sum()
                }
                for o in 0..<9 {
                    let t = clipped(norms * (histogram[c * 18 + o] + histogram[c * 18 + o + 9]))
                    out[(18 + o) * cells + c] = 0.5 * t.sum()
                }
                for k in 0..<4 { out[(27 + k) * cells + c] = 0.2357 * texture[k] }
            }
        }
        values = out
    }
}
