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

    /// Per-level data of one image: pyramid, and the template gradients when the image is to
    /// be tracked *from* (an image only tracked *to* needs none).
    public struct Prepared: Sendable {
        public let pyramid: ImagePyramid
        public let gradients: [(dx: GrayImage, dy: GrayImage)]
        public var size: (width: Int, height: Int) { (pyramid.levels[0].width, pyramid.levels[0].height) }
        /// Whether ``gradients`` are present.
        public var hasGradients: Bool { !gradients.isEmpty }
    }

    /// Builds the pyramid and, with `gradients` (default), the Scharr template gradients.
    public func prepare(_ image: GrayImage, gradients: Bool = true) -> Prepared {
        let pyramid = ImagePyramid(image, maxLevel: maxLevel)
        return Prepared(pyramid: pyramid, gradients: gradients ? pyramid.levels.map { Gradients.scharr($0) } : [])
    }

    /// Tracks `points` from `previous` to `next`, starting from `guesses` (default: same
    /// positions). Returns per point the new position or the failure.
    public func track(_ points: [Vector2], from previous: Prepared, to next: Prepared,
                      guesses: [Vector2]? = nil) -> [Result<Vector2, Failure>] {
        precondition(previous.hasGradients, "PyramidalLucasKanade.track: prepare the previous image with gradients")
        return points.indices.map { i in trackOne(points[i], guess: guesses?[i] ?? points[i], previous, next) }
    }

    private func trackOne(_ point: Vector2, guess: Vector2, _ prev: Prepared, _ next: Prepared) -> Result<Vector2, Failure> {
        let half = window / 2
        let levels = min(prev.pyramid.levels.count, next.pyramid.levels.count)
        let n = window * window
        var template = [Float](repeating: 0, count: n), gx = template, gy = template
        // Displacement at the current level, in that level's pixels.
        var d = SIMD2<Float>(Float(guess.x - point.x), Float(guess.y - point.y)) / Float(1 << (levels - 1))
        for level in stride(from: levels - 1, through: 0, by: -1) {
            let scale = Float(1 << level)
            let I = prev.pyramid.levels[level], J = next.pyramid.levels[level]
            let (Ix, Iy) = prev.gradients[level]
            let p = SIMD2<Float>(Float(point.x) / scale, Float(point.y) / scale)
            let w = I.width, h = I.height
            // Template window must lie inside the previous image (with a 1 px margin for bilinear).
            let tx0 = p.x - Float(half), ty0 = p.y - Float(half)
            guard tx0 >= 0, ty0 >= 0, tx0 + Float(window) < Float(w - 1), ty0 + Float(window) < Float(h - 1) else {
                if level == 0 { return .failure(.outOfImage) }
                d *= 2
                continue
            }
            // Every window sample shares one sub-pixel fraction: four weights for the whole window.
            let (a, b, c) = Self.sampleWindow(origin: (tx0, ty0), window: window, image: I, dx: Ix, dy: Iy,
                                              template: &template, gx: &gx, gy: &gy)
            let det = a * c - b * b
            let minEig = ((a + c) - ((a - c) * (a - c) + 4 * b * b).squareRoot()) / (2 * Float(n))
            guard minEig >= minEigenvalue, det > 1e-12 else {
                if level == 0 { return .failure(.lowTexture) }
                d *= 2
                continue
            }
            for _ in 0..<maxIterations {
                let q = p + d
                let jx0 = q.x - Float(half), jy0 = q.y - Float(half)
                guard jx0 >= 0, jy0 >= 0, jx0 + Float(window) < Float(w - 1), jy0 + Float(window) < Float(h - 1) else {
                    // On a coarse level the big window may leave the small image: keep the
                    // estimate and refine on the finer levels. On level 0 the point is lost.
                    if level == 0 { return .failure(.outOfImage) }
                    break
                }
                let (bx, by) = Self.mismatch(origin: (jx0, jy0), window: window, image: J, template: template, gx: gx, gy: gy)
                let step = SIMD2<Float>((c * bx - b * by) / det, (a * by - b * bx) / det)
                d -= step
                if (step * step).sum() < epsilon * epsilon { break }
            }
            if level > 0 { d *= 2 }
        }
        let result = Vector2(point.x + Double(d.x), point.y + Double(d.y))
        guard result.x >= 0, result.y >= 0, result.x <= Double(prev.size.width - 1), result.y <= Double(prev.size.height - 1) else {
            return .failure(.outOfImage)
        }
        return .success(result)
    }

    /// Integer corner and the four bilinear weights of a sub-pixel position (shared by every
    /// sample of a window on the same grid).
    @inline(__always)
    static func bilinearWeights(_ origin: (Float, Float)) -> (Int, Int, Float, Float, Float, Float) {
        let x0 = Int(origin.0), y0 = Int(origin.1)
        let fx = origin.0 - Float(x0), fy = origin.1 - Float(y0)
        return (x0, y0, (1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy)
    }

    /// Samples the template and its gradients (scaled to 0…1 intensities) over the window at a
    /// sub-pixel origin; returns the structure tensor entries (Σ gx², Σ gx·gy, Σ gy²).
    @inline(__always)
    static func sampleWindow(origin: (Float, Float), window: Int, image: GrayImage, dx: GrayImage, dy: GrayImage,
                             template: inout [Float], gx: inout [Float], gy: inout [Float]) -> (Float, Float, Float) {
        let (x0, y0, w00, w01, w10, w11) = bilinearWeights(origin)
        let stride = image.width
        var a: Float = 0, b: Float = 0, c: Float = 0
        image.pixels.withUnsafeBufferPointer { ip in
            dx.pixels.withUnsafeBufferPointer { xp in
                dy.pixels.withUnsafeBufferPointer { yp in
                    template.withUnsafeMutableBufferPointer { t in
                        gx.withUnsafeMutableBufferPointer { gxp in
                            gy.withUnsafeMutableBufferPointer { gyp in
                                var k = 0
                                for wy in 0..<window {
                                    var i = (y0 + wy) * stride + x0
                                    for _ in 0..<window {
                                        t[k] = ip[i] * w00 + ip[i + 1] * w01 + ip[i + stride] * w10 + ip[i + stride + 1] * w11
                                        let ix = (xp[i] * w00 + xp[i + 1] * w01 + xp[i + stride] * w10 + xp[i + stride + 1] * w11) * (1 / 255)
                                        let iy = (yp[i] * w00 + yp[i + 1] * w01 + yp[i + stride] * w10 + yp[i + stride + 1] * w11) * (1 / 255)
                                        gxp[k] = ix; gyp[k] = iy
                                        a += ix * ix; b += ix * iy; c += iy * iy
                                        k += 1
                                        i += 1
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return (a, b, c)
    }

    /// Σ (J(x + d) − T(x)) · ∇T over the window (intensities scaled to 0…1).
    @inline(__always)
    static func mismatch(origin: (Float, Float), window: Int, image: GrayImage, template: [Float], gx: [Float], gy: [Float]) -> (Float, Float) {
        let (x0, y0, w00, w01, w10, w11) = bilinearWeights(origin)
        let stride = image.width
        var bx: Float = 0, by: Float = 0
        image.pixels.withUnsafeBufferPointer { jp in
            template.withUnsafeBufferPointer { t in
                gx.withUnsafeBufferPointer { gxp in
                    gy.withUnsafeBufferPointer { gyp in
                        var k = 0
                        for wy in 0..<window {
                            var i = (y0 + wy) * stride + x0
                            for _ in 0..<window {
                                let r = (jp[i] * w00 + jp[i + 1] * w01 + jp[i + stride] * w10 + jp[i + stride + 1] * w11 - t[k]) * (1 / 255)
                                bx += r * gxp[k]; by += r * gyp[k]
                                k += 1
                                i += 1
                            }
                        }
                    }
                }
            }
        }
        return (bx, by)
    }
}
