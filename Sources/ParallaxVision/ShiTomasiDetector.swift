import ParallaxImage
import ParallaxMath

/// Shi–Tomasi corners ("good features to track"): the minimum eigenvalue of the gradient
/// structure tensor over a `blockSize` window, kept when ≥ `quality` × the best score, local
/// maxima in 3×3, strongest first with at least `minDistance` px between corners.
public struct ShiTomasiDetector: Sendable {
    /// Most corners returned; default 200.
    public var maxCorners = 200
    /// Relative quality threshold (fraction of the best score); default 0.01.
    public var quality: Float = 0.01
    /// Minimum distance between corners (px); default 10.
    public var minDistance: Float = 10
    /// Structure-tensor window (px, odd); default 3.
    public var blockSize = 3
    /// Pixels this close to the border are ignored (px); default 4.
    public var border = 4

    public init() {}

    /// A scored corner.
    public struct Corner: Sendable, Equatable {
        public var position: Vector2
        public var score: Float
    }

    /// Minimum-eigenvalue score of every pixel (0 at the border).
    public func scores(_ image: GrayImage) -> GrayImage { scores(gradients: Gradients.sobel(image)) }

    /// The same for an image with a reflected margin (a prepared pyramid level: no copy).
    public func scores(_ image: BorderedImage) -> GrayImage { scores(gradients: Gradients.sobel(image)) }

    /// The same for a prepared Lucas–Kanade image, from its level-0 Scharr template gradients
    /// (one derivative pass serves tracking and detection); Sobel when it was prepared without
    /// gradients. Scharr is the more rotation-invariant kernel; only the scores' ratios matter
    /// (`quality` is relative), not their scale.
    public func scores(_ prepared: PyramidalLucasKanade.Prepared) -> GrayImage {
        guard blockSize == 3, let level = prepared.levels.first, let dx = level.dx, let dy = level.dy, dx.margin >= 1 else {
            return scores(prepared.image)
        }
        return Self.minimumEigenvalues3(dx: dx, dy: dy, border: border)
    }

    /// Minimum-eigenvalue scores over 3×3 windows of gradients stored with a margin (≥ 1 px, read
    /// as it is: zero for LK's template gradients); pixels closer than `border` to the edge score 0.
    /// Row by row: the column sums of the three gradient products over rows y−1…y+1, then the
    /// three-column sums and the eigenvalue.
    static func minimumEigenvalues3(dx: BorderedImage, dy: BorderedImage, border: Int) -> GrayImage {
        let w = dx.width, h = dx.height, b = max(0, border)
        var out = [Float](repeating: 0, count: w * h)
        guard w > 2 * b, h > 2 * b, dx.margin >= 1, dy.margin == dx.margin, dy.stride == dx.stride else {
            return GrayImage(width: w, height: h, pixels: out)
        }
        let columns = w - 2 * b + 2   // x = b − 1 … w − b
        var sums = [Float](repeating: 0, count: 3 * columns)
        let stride = dx.stride
        dx.storage.withUnsafeBufferPointer { gxb in
            dy.storage.withUnsafeBufferPointer { gyb in
                sums.withUnsafeMutableBufferPointer { sb in
                    out.withUnsafeMutableBufferPointer { ob in
                        guard let gx = gxb.baseAddress, let gy = gyb.baseAddress, let sxx = sb.baseAddress, let o = ob.baseAddress else { return }
                        let sxy = sxx + columns, syy = sxy + columns
                        for y in b..<(h &- b) {
                            let top = dx.index(b &- 1, y &- 1)
                            for k in 0..<columns {
                                let i0 = top &+ k, i1 = i0 &+ stride, i2 = i1 &+ stride
                                let a0 = gx[i0], a1 = gx[i1], a2 = gx[i2]
                                let c0 = gy[i0], c1 = gy[i1], c2 = gy[i2]
                                sxx[k] = a0 * a0 + a1 * a1 + a2 * a2
                                sxy[k] = a0 * c0 + a1 * c1 + a2 * c2
                                syy[k] = c0 * c0 + c1 * c1 + c2 * c2
                            }
                            let row = o + (y &* w &+ b)
                            for k in 1..<(columns &- 1) {
                                row[k &- 1] = minimumEigenvalue(sxx[k &- 1] + sxx[k] + sxx[k &+ 1],
                                                                sxy[k &- 1] + sxy[k] + sxy[k &+ 1],
                                                                syy[k &- 1] + syy[k] + syy[k &+ 1])
                            }
                        }
                    }
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    private func scores(gradients: (dx: GrayImage, dy: GrayImage)) -> GrayImage {
        let (dx, dy) = gradients
        let w = dx.width, h = dx.height
        if blockSize == 3 && w >= 3 && h >= 3 { return Self.minimumEigenvalues3(dx: dx, dy: dy, border: border) }
        let r = blockSize / 2
        var out = GrayImage(width: w, height: h)
        var xx = [Float](repeating: 0, count: w * h), xy = [Float](repeating: 0, count: w * h), yy = [Float](repeating: 0, count: w * h)
        dx.pixels.withUnsafeBufferPointer { gx in
            dy.pixels.withUnsafeBufferPointer { gy in
                for i in 0..<(w * h) {
                    let a = gx[i], b = gy[i]
                    xx[i] = a * a; xy[i] = a * b; yy[i] = b * b
                }
            }
        }
        let a = Self.boxSum(xx, width: w, height: h, radius: r)
        let b = Self.boxSum(xy, width: w, height: h, radius: r)
        let c = Self.boxSum(yy, width: w, height: h, radius: r)
        a.withUnsafeBufferPointer { ap in
            b.withUnsafeBufferPointer { bp in
                c.withUnsafeBufferPointer { cp in
                    out.pixels.withUnsafeMutableBufferPointer { o in
                        for y in border..<max(border, h - border) {
                            for x in border..<max(border, w - border) {
                                let i = y * w + x
                                o[i] = Self.minimumEigenvalue(ap[i], bp[i], cp[i])
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Smaller eigenvalue of the symmetric 2×2 matrix [[a, b], [b, c]].
    @inline(__always) static func minimumEigenvalue(_ a: Float, _ b: Float, _ c: Float) -> Float {
        let half = (a + c) * 0.5, diff = (a - c) * 0.5
        return half - (diff * diff + b * b).squareRoot()
    }

    /// The 3×3 window (the default) without full-size product images: the gradient products
    /// are summed over three columns as they are formed, then over three rows together with
    /// the eigenvalue. Same sums in the same order as the general path (``boxSum(_:width:height:radius:)``),
    /// so the scores are bit-identical to it; borders reflected.
    static func minimumEigenvalues3(dx: GrayImage, dy: GrayImage, border: Int) -> GrayImage {
        let w = dx.width, h = dx.height
        /// Σ over columns x−1, x, x+1 of f(gx, gy), each of the three outputs written in full.
        func columnSums(_ gx: UnsafePointer<Float>, _ gy: UnsafePointer<Float>,
                        into sxx: UnsafeMutablePointer<Float>, _ sxy: UnsafeMutablePointer<Float>, _ syy: UnsafeMutablePointer<Float>) {
            for y in 0..<h {
                let ax = gx + y &* w, ay = gy + y &* w
                let oxx = sxx + y &* w, oxy = sxy + y &* w, oyy = syy + y &* w
                for x in 1..<(w &- 1) {
                    let l = x &- 1, r = x &+ 1
                    oxx[x] = ax[l] * ax[l] + ax[x] * ax[x] + ax[r] * ax[r]
                    oxy[x] = ax[l] * ay[l] + ax[x] * ay[x] + ax[r] * ay[r]
                    oyy[x] = ay[l] * ay[l] + ay[x] * ay[x] + ay[r] * ay[r]
                }
                @inline(__always) func edge(_ x: Int, _ n: Int) {  // reflect-101: neighbour on both sides
                    oxx[x] = ax[n] * ax[n] + ax[x] * ax[x] + ax[n] * ax[n]
                    oxy[x] = ax[n] * ay[n] + ax[x] * ay[x] + ax[n] * ay[n]
                    oyy[x] = ay[n] * ay[n] + ay[x] * ay[x] + ay[n] * ay[n]
                }
                edge(0, 1)
                edge(w &- 1, w &- 2)
            }
        }
        var syy: [Float] = [], sxy: [Float] = []
        let sxx = [Float](unsafeUninitializedCapacity: w * h) { bxx, nxx in
            sxy = [Float](unsafeUninitializedCapacity: w * h) { bxy, nxy in
                syy = [Float](unsafeUninitializedCapacity: w * h) { byy, nyy in
                    dx.pixels.withUnsafeBufferPointer { gx in
                        dy.pixels.withUnsafeBufferPointer { gy in
                            columnSums(gx.baseAddress!, gy.baseAddress!, into: bxx.baseAddress!, bxy.baseAddress!, byy.baseAddress!)
                        }
                    }
                    nyy = w * h
                }
                nxy = w * h
            }
            nxx = w * h
        }
        var out = [Float](repeating: 0, count: w * h)
        sxx.withUnsafeBufferPointer { a in
            sxy.withUnsafeBufferPointer { b in
                syy.withUnsafeBufferPointer { c in
                    out.withUnsafeMutableBufferPointer { o in
                        guard let ap = a.baseAddress, let bp = b.baseAddress, let cp = c.baseAddress, let op = o.baseAddress else { return }
                        for y in border..<max(border, h - border) {
                            let up = ImagePyramid.reflect(y &- 1, h) &* w, mid = y &* w, down = ImagePyramid.reflect(y &+ 1, h) &* w
                            let row = op + mid
                            for x in border..<max(border, w &- border) {
                                row[x] = minimumEigenvalue(ap[up &+ x] + ap[mid &+ x] + ap[down &+ x],
                                                           bp[up &+ x] + bp[mid &+ x] + bp[down &+ x],
                                                           cp[up &+ x] + cp[mid &+ x] + cp[down &+ x])
                            }
                        }
                    }
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// Separable (2r+1)×(2r+1) box sum with reflect-101 borders; the interior runs without
    /// border checks.
    static func boxSum(_ src: [Float], width w: Int, height h: Int, radius r: Int) -> [Float] {
        var tmp = [Float](repeating: 0, count: w * h), res = [Float](repeating: 0, count: w * h)
        src.withUnsafeBufferPointer { s in
            tmp.withUnsafeMutableBufferPointer { t in
                for y in 0..<h {
                    let row = y * w
                    for x in 0..<w {
                        if x >= r && x < w - r {
                            var acc: Float = 0
                            for k in -r...r { acc += s[row + x + k] }
                            t[row + x] = acc
                        } else {
                            var acc: Float = 0
                            for k in -r...r { acc += s[row + ImagePyramid.reflect(x + k, w)] }
                            t[row + x] = acc
                        }
                    }
                }
            }
        }
        tmp.withUnsafeBufferPointer { t in
            res.withUnsafeMutableBufferPointer { o in
                for y in 0..<h {
                    if y >= r && y < h - r {
                        for x in 0..<w {
                            var acc: Float = 0
                            for k in -r...r { acc += t[(y + k) * w + x] }
                            o[y * w + x] = acc
                        }
                    } else {
                        for x in 0..<w {
                            var acc: Float = 0
                            for k in -r...r { acc += t[ImagePyramid.reflect(y + k, h) * w + x] }
                            o[y * w + x] = acc
                        }
                    }
                }
            }
        }
        return res
    }

    /// Detects corners. `occupied` positions (existing tracks) block new corners within
    /// `minDistance` and count against `maxCorners`.
    public func detect(_ image: GrayImage, occupied: [Vector2] = []) -> [Corner] {
        select(scores(image), occupied: occupied)
    }

    /// Detects corners in an image with a reflected margin (e.g. ``PyramidalLucasKanade/Prepared/image``).
    public func detect(_ image: BorderedImage, occupied: [Vector2] = []) -> [Corner] {
        select(scores(image), occupied: occupied)
    }

    /// Corners from a score image: ≥ `quality` × best, 3×3 local maxima, strongest first with
    /// `minDistance` (shared by every detector): ``GridCornerSelection`` with one cell.
    public func select(_ s: GrayImage, occupied: [Vector2] = []) -> [Corner] {
        var selection = GridCornerSelection()
        selection.columns = 1
        selection.rows = 1
        selection.minDistance = minDistance
        selection.quality = quality
        return selection.select(s, occupied: occupied, count: maxCorners - occupied.count)
    }
}
