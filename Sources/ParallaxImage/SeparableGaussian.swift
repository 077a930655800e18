import CFeatureKernels
import Foundation

/// The tables of a separable Gaussian blur of one image size (see
/// ``GrayImage/gaussianBlurred(sigma:radius:)``): the normalized kernel, the reflected source rows
/// of each output row and the reflected source columns of each padded row.
struct SeparableGaussian {
    /// `2·radius + 1` weights summing to 1.
    let kernel: [Float]
    /// For output row y and tap k: the offset (× width) of the reflected source row `y + k − radius`.
    let rowStarts: [Int]
    /// Source column of padded column i: `reflect(i − radius)`.
    let columns: [Int]
    /// 0, 1, …, taps − 1 (the horizontal taps on a padded row).
    let tapStarts: [Int]
    let width: Int, height: Int

    init(sigma: Float, radius: Int, width w: Int, height h: Int) {
        var kernel = (-radius...radius).map { i in Float(exp(-0.5 * Double(i * i) / Double(sigma * sigma))) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        let taps = kernel.count
        var rowStarts = [Int](repeating: 0, count: h * taps)
        for y in 0..<h {
            for k in 0..<taps { rowStarts[y * taps + k] = ImagePyramid.reflect(y + k - radius, h) * w }
        }
        self.kernel = kernel
        self.rowStarts = rowStarts
        columns = (0..<(w + 2 * radius)).map { ImagePyramid.reflect($0 - radius, w) }
        tapStarts = Array(0..<taps)
        width = w
        height = h
    }

    /// Calls `filter` with the source, the tables, a row buffer (`width` floats), a padded-row
    /// buffer (`width + taps − 1` floats) and `out`'s base address (`width × height` floats).
    func run(_ source: [Float], into out: UnsafeMutableBufferPointer<Float>,
             _ filter: (UnsafePointer<Float>, UnsafePointer<Float>, Int, UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Int>,
                        UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) -> Void) {
        var padded = [Float](repeating: 0, count: width + kernel.count - 1), row = [Float](repeating: 0, count: width)
        source.withUnsafeBufferPointer { p in
            kernel.withUnsafeBufferPointer { k in
                rowStarts.withUnsafeBufferPointer { rs in
                    columns.withUnsafeBufferPointer { cs in
                        tapStarts.withUnsafeBufferPointer { ts in
                            padded.withUnsafeMutableBufferPointer { pad in
                                row.withUnsafeMutableBufferPointer { r in
                                    guard let src = p.baseAddress, let kb = k.baseAddress, let rsb = rs.baseAddress, let csb = cs.baseAddress,
                                          let tsb = ts.baseAddress, let padb = pad.baseAddress, let rb = r.baseAddress,
                                          let dst = out.baseAddress else { return }
                                    filter(src, kb, kernel.count, rsb, csb, tsb, rb, padb, dst)
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

extension GrayImage {
    /// ``gaussianBlurred(sigma:radius:)`` computed near `points` only: every pixel at most
    /// `reach` px from a point in x and in y gets exactly the value of the full blur, as does
    /// the rest of each 8×8 tile such a pixel lies in; the pixels of the other tiles are 0. For
    /// ORB, whose descriptors sample the smoothed level around a few hundred corners only (about a
    /// fifth of the image). Points may lie anywhere (those off the image reach what they reach).
    public func gaussianBlurred(sigma: Float, radius: Int, near points: [(x: Int, y: Int)], reach: Int) -> GrayImage {
        let out = [Float](unsafeUninitializedCapacity: width * height) { o, initialized in
            blurTiles(sigma: sigma, radius: radius, near: points, reach: reach, clear: true, into: o)
            initialized = width * height
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// ``gaussianBlurred(sigma:radius:near:reach:)`` into the first `width × height` floats of `out`
    /// (row stride `width`), without clearing: the pixels of the tiles it computes get the full
    /// blur's values, every other pixel is left as it was (memory never written stays so: read
    /// only within `reach` of a point). ORB blurs every level into one buffer this way.
    public func gaussianBlurred(sigma: Float, radius: Int, near points: [(x: Int, y: Int)], reach: Int, into out: UnsafeMutableBufferPointer<Float>) {
        precondition(out.count >= width * height, "GrayImage.gaussianBlurred: \(out.count) floats hold no \(width)×\(height) image")
        blurTiles(sigma: sigma, radius: radius, near: points, reach: reach, clear: false, into: out)
    }

    /// The tiled blur into `out` (at least `width × height` floats); the other tiles cleared or not.
    private func blurTiles(sigma: Float, radius: Int, near points: [(x: Int, y: Int)], reach: Int, clear: Bool,
                           into out: UnsafeMutableBufferPointer<Float>) {
        precondition(sigma > 0 && radius >= 0, "GrayImage.gaussianBlurred: sigma must be positive")
        precondition(reach >= 0, "GrayImage.gaussianBlurred: negative reach")
        let w = width, h = height, tw = (w + 7) / 8, th = (h + 7) / 8
        var tiles = [UInt8](repeating: 0, count: tw * th)
        for p in points {
            let x0 = max(0, p.x - reach), x1 = min(w - 1, p.x + reach), y0 = max(0, p.y - reach), y1 = min(h - 1, p.y + reach)
            guard x0 <= x1, y0 <= y1 else { continue }
            for ty in (y0 / 8)...(y1 / 8) {
                for tx in (x0 / 8)...(x1 / 8) { tiles[ty * tw + tx] = 1 }
            }
        }
        let plan = SeparableGaussian(sigma: sigma, radius: radius, width: w, height: h)
        tiles.withUnsafeBufferPointer { t in
            plan.run(pixels, into: out) { src, kernel, taps, rowStarts, columns, tapStarts, row, pad, dst in
                guard let tb = t.baseAddress else { return }
                pxl_filter_separable_tiles(src, w, h, kernel, taps, rowStarts, columns, tapStarts, tb, clear ? 1 : 0, row, pad, dst)
            }
        }
    }
}
