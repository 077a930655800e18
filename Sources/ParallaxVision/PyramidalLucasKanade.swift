import CFeatureKernels
import ParallaxImage
import ParallaxMath

/// Pyramidal Lucas–Kanade point tracking, inverse compositional: the template's gradients
/// and Hessian are computed once per level in the previous image; each iteration only
/// samples the next image. Coarse to fine, sub-pixel (bilinear), stops after
/// `maxIterations` or when the update is below `epsilon` px.
public struct PyramidalLucasKanade: Sendable {
    /// Window size (px, odd); default 21.
    public var window = 21
    /// Highest pyramid level (0 = no pyramid); default 3 (four levels, as OpenCV's maxLevel 3).
    public var maxLevel = 3
    /// Iteration cap per level; default 30.
    public var maxIterations = 30
    /// Convergence threshold on the update (px); default 0.01.
    public var epsilon: Float = 0.01
    /// Minimum eigenvalue of the window's structure tensor / window area below which a point is
    /// untrackable (low texture); default 1e-4 (OpenCV's, on gradients of 0…1 intensities).
    public var minEigenvalue: Float = 1e-4

    public init() {}

    /// Why a point could not be tracked.
    public enum Failure: String, Error, Sendable, Codable { case outOfImage, lowTexture }

    /// Per-level data of one image: the pyramid levels inside a reflected margin, and the
    /// template gradients (zero margin) when the image is to be tracked *from* (an image only
    /// tracked *to* needs none). The margin lets a window stick out of the image, as in
    /// OpenCV: features near the border are tracked until the point itself leaves.
    public struct Prepared: Sendable {
        struct Level: Sendable {
            var image: BorderedImage
            var dx: BorderedImage?
            var dy: BorderedImage?
        }

        let levels: [Level]
        /// Size of the full-resolution image (px).
        public let size: (width: Int, height: Int)
        /// The full-resolution image with its reflected margin (level 0).
        public var image: BorderedImage { levels[0].image }
        /// Whether the template gradients are present.
        public var hasGradients: Bool { levels.first?.dx != nil }
    }

    /// Margin around every level. A window whose centre is inside the image starts at most
    /// `half + 1` px before the edge (floor of a negative position) and its rows, read as whole
    /// 8-float vectors plus one column for bilinear interpolation, end at most
    /// `padded − half` px past the other edge; one more for safety.
    var margin: Int {
        let half = window / 2, padded = (window + 7) / 8 * 8
        return max(half + 1, padded - half) + 1
    }

    /// Builds the pyramid and, with `gradients` (default), the Scharr template gradients.
    public func prepare(_ image: GrayImage, gradients: Bool = true) -> Prepared {
        let pyramid = ImagePyramid(image, maxLevel: maxLevel, margin: margin)
        let levels = pyramid.levels.map { level -> Prepared.Level in
            guard gradients else { return Prepared.Level(image: level) }
            let (dx, dy) = Gradients.scharr(level, margin: margin)
            return Prepared.Level(image: level, dx: dx, dy: dy)
        }
        return Prepared(levels: levels, size: (image.width, image.height))
    }

    /// Tracks `points` from `previous` to `next`, starting from `guesses` (default: same
    /// positions). Returns per point the new position or the failure. `coarsestLevel` (default:
    /// all of `maxLevel`) starts the search on a finer level: for guesses already within a
    /// few pixels of the answer (a forward-backward check starts from the forward track's
    /// origin), the coarse levels only repeat what the guess says.
    public func track(_ points: [Vector2], from previous: Prepared, to next: Prepared,
                      guesses: [Vector2]? = nil, coarsestLevel: Int? = nil) -> [Result<Vector2, Failure>] {
        precondition(previous.hasGradients, "PyramidalLucasKanade.track: prepare the previous image with gradients")
        precondition(previous.levels[0].image.margin >= margin && next.levels[0].image.margin >= margin,
                     "PyramidalLucasKanade.track: images prepared with a smaller window")
        // Window buffers shared by all points (rows padded to whole 8-float vectors).
        var buffers = WindowBuffers(window: window)
        let levels = min(previous.levels.count, next.levels.count, max(0, coarsestLevel ?? maxLevel) + 1)
        return points.indices.map { i in trackOne(points[i], guess: guesses?[i] ?? points[i], levels: levels, previous, next, &buffers) }
    }

    /// The template window and its gradients, reused from point to point: `window` rows of
    /// `padded` floats each (``padded``), the gradients scaled as ``template(_:origin:window:image:dx:dy:)`` leaves them.
    struct WindowBuffers {
        var template: [Float]
        var gx: [Float]
        var gy: [Float]

        init(window: Int) {
            let (count, overflow) = window.multipliedReportingOverflow(by: PyramidalLucasKanade.padded(window))
            // A window of 0 px keeps its old meaning: no texture anywhere (every point lowTexture).
            precondition(window >= 0 && !overflow, "PyramidalLucasKanade: window \(window) px out of range")
            template = [Float](repeating: 0, count: count)
            gx = template
            gy = template
        }
    }

    /// Columns per buffered window row: `window` rounded up to whole 8-float vectors.
    static func padded(_ window: Int) -> Int { (window + 7) / 8 * 8 }

    private func trackOne(_ point: Vector2, guess: Vector2, levels: Int, _ prev: Prepared, _ next: Prepared,
                          _ buffers: inout WindowBuffers) -> Result<Vector2, Failure> {
        let half = window / 2
        let n = window * window
        // Displacement at the current level, in that level's pixels.
        var d = SIMD2<Float>(Float(guess.x - point.x), Float(guess.y - point.y)) / Float(1 << (levels - 1))
        for level in stride(from: levels - 1, through: 0, by: -1) {
            let scale = Float(1 << level)
            let I = prev.levels[level].image, J = next.levels[level].image
            guard let Ix = prev.levels[level].dx, let Iy = prev.levels[level].dy else { return .failure(.outOfImage) }
            let p = SIMD2<Float>(Float(point.x) / scale, Float(point.y) / scale)
            let w = I.width, h = I.height
            // The point must be inside the image (its window may stick out into the margin).
            guard p.x >= 0, p.y >= 0, p.x <= Float(w - 1), p.y <= Float(h - 1) else {
                if level == 0 { return .failure(.outOfImage) }
                d *= 2
                continue
            }
            // Every window sample shares one sub-pixel fraction: four weights for the whole window.
            let (a, b, c) = Self.template(&buffers, origin: (p.x - Float(half), p.y - Float(half)), window: window, image: I, dx: Ix, dy: Iy)
            let det = a * c - b * b
            let minEig = ((a + c) - ((a - c) * (a - c) + 4 * b * b).squareRoot()) / (2 * Float(n))
            guard minEig >= minEigenvalue, det > 1e-12 else {
                if level == 0 { return .failure(.lowTexture) }
                d *= 2
                continue
            }
            // On a coarse level the estimate may wander off the small image: keep it and refine on
            // the finer levels. On level 0 the point is lost.
            if !iterate(&d, from: p, in: J, buffers, hessian: (a, b, c, det)), level == 0 { return .failure(.outOfImage) }
            if level > 0 { d *= 2 }
        }
        let result = Vector2(point.x + Double(d.x), point.y + Double(d.y))
        guard result.x >= 0, result.y >= 0, result.x <= Double(prev.size.width - 1), result.y <= Double(prev.size.height - 1) else {
            return .failure(.outOfImage)
        }
        return .success(result)
    }

    /// The Gauss–Newton iterations of one level: the displacement `d` (px of this level) from
    /// `p` moves until the step is below `epsilon`, the steps oscillate or `maxIterations` ran;
    /// false when `p + d` left `J` (then `d` is where it was when it left).
    @inline(__always)
    private func iterate(_ d: inout SIMD2<Float>, from p: SIMD2<Float>, in J: BorderedImage, _ buffers: WindowBuffers,
                         hessian: (a: Float, b: Float, c: Float, det: Float)) -> Bool {
        let half = window / 2, window = window
        let (a, b, c, det) = hessian
        var inside = true
        J.storage.withUnsafeBufferPointer { jb in
            buffers.template.withUnsafeBufferPointer { tb in
                buffers.gx.withUnsafeBufferPointer { gxb in
                    buffers.gy.withUnsafeBufferPointer { gyb in
                        guard let jp = jb.baseAddress, let tp = tb.baseAddress, let gxp = gxb.baseAddress, let gyp = gyb.baseAddress else { return }
                        var previousStep = SIMD2<Float>(0, 0)
                        var mismatch = (Float(0), Float(0))
                        for iteration in 0..<maxIterations {
                            let q = p + d
                            guard q.x >= 0, q.y >= 0, q.x <= Float(J.width - 1), q.y <= Float(J.height - 1) else {
                                inside = false
                                break
                            }
                            let (x0, y0, fx, fy) = Self.windowOrigin((q.x - Float(half), q.y - Float(half)))
                            Self.checkWindow(x0, y0, window: window, in: J)
                            withUnsafeMutableBytes(of: &mismatch) { m in
                                pxl_lk_mismatch(jp + J.index(x0, y0), J.stride, fx, fy, window, tp, gxp, gyp,
                                                m.baseAddress?.assumingMemoryBound(to: Float.self))
                            }
                            let (bx, by) = mismatch
                            let step = SIMD2<Float>((c * bx - b * by) / det, (a * by - b * bx) / det)
                            d -= step
                            if (step * step).sum() < epsilon * epsilon { break }
                            // Oscillating: this step undoes the previous one (within 0.01 px); settle half way.
                            if iteration > 0, abs(step.x + previousStep.x) < 0.01, abs(step.y + previousStep.y) < 0.01 {
                                d += step * 0.5
                                break
                            }
                            previousStep = step
                        }
                    }
                }
            }
        }
        return inside
    }

    /// Integer corner and sub-pixel fractions (x, y) of a window origin (px): every sample of the
    /// window shares the fractions, so four bilinear weights serve the whole window.
    @inline(__always)
    static func windowOrigin(_ origin: (Float, Float)) -> (x0: Int, y0: Int, fx: Float, fy: Float) {
        let x0 = Int(origin.0.rounded(.down)), y0 = Int(origin.1.rounded(.down))
        return (x0, y0, origin.0 - Float(x0), origin.1 - Float(y0))
    }

    /// The C kernels read rows `y0 … y0 + window` and columns `x0 … x0 + padded` unchecked: they
    /// must lie inside `image` and its margin.
    @inline(__always)
    static func checkWindow(_ x0: Int, _ y0: Int, window: Int, in image: BorderedImage) {
        let m = image.margin
        precondition(x0 >= -m && y0 >= -m && x0 + padded(window) < image.width + m && y0 + window < image.height + m,
                     "PyramidalLucasKanade: window at (\(x0), \(y0)) reads past the margin of \(m) px")
    }

    /// Samples the template and its gradients (scaled to 0…1 intensities) over the window at a
    /// sub-pixel origin (px) into `buffers` and returns the structure tensor entries
    /// (Σ gx², Σ gx·gy, Σ gy², on gradients of 0…1 intensities). The gradients are stored divided
    /// by 255 once more, for the mismatch; columns past the window get zero gradients. In C
    /// (`pxl_lk_template`: AVX2 or portable, the same bits as the Swift loops it replaced).
    static func template(_ buffers: inout WindowBuffers, origin: (Float, Float), window: Int, image: BorderedImage,
                         dx: BorderedImage, dy: BorderedImage) -> (Float, Float, Float) {
        precondition(dx.stride == image.stride && dy.stride == image.stride && dx.margin == image.margin && dy.margin == image.margin
                     && dx.storage.count == image.storage.count && dy.storage.count == image.storage.count,
                     "PyramidalLucasKanade: gradients stored unlike their image")
        precondition(buffers.template.count >= window * padded(window), "PyramidalLucasKanade: window buffers too small")
        let (x0, y0, fx, fy) = windowOrigin(origin)
        checkWindow(x0, y0, window: window, in: image)
        let start = image.index(x0, y0)
        var sums = (Float(0), Float(0), Float(0))
        image.storage.withUnsafeBufferPointer { ib in
            dx.storage.withUnsafeBufferPointer { xb in
                dy.storage.withUnsafeBufferPointer { yb in
                    buffers.template.withUnsafeMutableBufferPointer { tb in
                        buffers.gx.withUnsafeMutableBufferPointer { gxb in
                            buffers.gy.withUnsafeMutableBufferPointer { gyb in
                                guard let ip = ib.baseAddress, let xp = xb.baseAddress, let yp = yb.baseAddress,
                                      let tp = tb.baseAddress, let gxp = gxb.baseAddress, let gyp = gyb.baseAddress else { return }
                                withUnsafeMutableBytes(of: &sums) { s in
                                    pxl_lk_template(ip + start, xp + start, yp + start, image.stride, fx, fy, window, tp, gxp, gyp,
                                                    s.baseAddress?.assumingMemoryBound(to: Float.self))
                                }
                            }
                        }
                    }
                }
            }
        }
        return sums
    }
}
