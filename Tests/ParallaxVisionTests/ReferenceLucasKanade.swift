import ParallaxImage
import ParallaxMath
@testable import ParallaxVision

// The Swift tracker that PyramidalLucasKanade ran before its window loops moved to C (issue 47),
// kept verbatim as the reference the C kernels must reproduce bit for bit.

/// The reference's window buffers: `window` rows of `padded` floats.
struct ReferenceBuffers {
    var template: [Float]
    var gx: [Float]
    var gy: [Float]

    init(window: Int) {
        let padded = (window + 7) / 8 * 8
        template = [Float](repeating: 0, count: window * padded)
        gx = template
        gy = template
    }
}

extension PyramidalLucasKanade {
    /// `track` as it was: the same levels, guesses and failures.
    func referenceTrack(_ points: [Vector2], from previous: Prepared, to next: Prepared,
                        guesses: [Vector2]? = nil, coarsestLevel: Int? = nil) -> [Result<Vector2, Failure>] {
        var buffers = ReferenceBuffers(window: window)
        let levels = min(previous.levels.count, next.levels.count, max(0, coarsestLevel ?? maxLevel) + 1)
        return points.indices.map { i in referenceTrackOne(points[i], guess: guesses?[i] ?? points[i], levels: levels, previous, next, &buffers) }
    }

    func referenceTrackOne(_ point: Vector2, guess: Vector2, levels: Int, _ prev: Prepared, _ next: Prepared,
                          _ buffers: inout ReferenceBuffers) -> Result<Vector2, Failure> {
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
            let (a, b, c) = Self.referenceSampleWindow(origin: (p.x - Float(half), p.y - Float(half)), window: window, image: I, dx: Ix, dy: Iy,
                                              template: &buffers.template, gx: &buffers.gx, gy: &buffers.gy)
            let det = a * c - b * b
            let minEig = ((a + c) - ((a - c) * (a - c) + 4 * b * b).squareRoot()) / (2 * Float(n))
            guard minEig >= minEigenvalue, det > 1e-12 else {
                if level == 0 { return .failure(.lowTexture) }
                d *= 2
                continue
            }
            var previousStep = SIMD2<Float>(0, 0)
            for iteration in 0..<maxIterations {
                let q = p + d
                guard q.x >= 0, q.y >= 0, q.x <= Float(J.width - 1), q.y <= Float(J.height - 1) else {
                    // On a coarse level the estimate may wander off the small image: keep it and
                    // refine on the finer levels. On level 0 the point is lost.
                    if level == 0 { return .failure(.outOfImage) }
                    break
                }
                let (bx, by) = Self.referenceMismatch(origin: (q.x - Float(half), q.y - Float(half)), window: window, image: J,
                                             template: buffers.template, gx: buffers.gx, gy: buffers.gy)
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
            if level > 0 { d *= 2 }
        }
        let result = Vector2(point.x + Double(d.x), point.y + Double(d.y))
        guard result.x >= 0, result.y >= 0, result.x <= Double(prev.size.width - 1), result.y <= Double(prev.size.height - 1) else {
            return .failure(.outOfImage)
        }
        return .success(result)
    }

    /// `referenceLaneMasks[n]`: 1 in the first `n` lanes, 0 in the others (n = 0…8).
    static let referenceLaneMasks: [SIMD8<Float>] = (0...8).map { n in SIMD8<Float>((0..<8).map { $0 < n ? 1 : 0 }) }

    /// Samples the template and its gradients (scaled to 0…1 intensities) over the window at a
    /// sub-pixel origin into rows of `padded` values (a multiple of 8); returns the structure
    /// tensor entries (Σ gx², Σ gx·gy, Σ gy²). The gradients are stored divided by 255 once
    /// more, for `referenceMismatch`; lanes past the window get zero gradients. One image at a time,
    /// interpolated as `referenceMismatch` interpolates (``referenceInterpolateWindow(_:origin:window:into:scale:)``).
    @inline(__always)
    static func referenceSampleWindow(origin: (Float, Float), window: Int, image: BorderedImage, dx: BorderedImage, dy: BorderedImage,
                             template: inout [Float], gx: inout [Float], gy: inout [Float]) -> (Float, Float, Float) {
        let padded = (window + 7) / 8 * 8
        let inv255 = SIMD8<Float>(repeating: 1 / 255)
        referenceInterpolateWindow(image, origin: origin, window: window, into: &template, scale: SIMD8<Float>(repeating: 1))
        referenceInterpolateWindow(dx, origin: origin, window: window, into: &gx, scale: inv255)
        referenceInterpolateWindow(dy, origin: origin, window: window, into: &gy, scale: inv255)
        // 1 for the lanes of a row's last vector that lie inside the window, 0 past it.
        let lastMask = referenceLaneMasks[window - (padded - 8)]
        var va = SIMD8<Float>(repeating: 0), vb = va, vc = va
        gx.withUnsafeMutableBufferPointer { gxb in
            gy.withUnsafeMutableBufferPointer { gyb in
                guard let gxp = gxb.baseAddress, let gyp = gyb.baseAddress else { return }
                for wy in 0..<window {
                    var k = wy &* padded
                    while k < (wy &+ 1) &* padded {
                        var ix = UnsafeRawPointer(gxp + k).loadUnaligned(as: SIMD8<Float>.self)
                        var iy = UnsafeRawPointer(gyp + k).loadUnaligned(as: SIMD8<Float>.self)
                        if k &+ 8 == (wy &+ 1) &* padded { ix *= lastMask; iy *= lastMask }
                        va += ix * ix; vb += ix * iy; vc += iy * iy
                        // Stored with the mismatch's 1/255 folded in.
                        UnsafeMutableRawPointer(gxp + k).storeBytes(of: ix * inv255, as: SIMD8<Float>.self)
                        UnsafeMutableRawPointer(gyp + k).storeBytes(of: iy * inv255, as: SIMD8<Float>.self)
                        k &+= 8
                    }
                }
            }
        }
        return (va.sum(), vb.sum(), vc.sum())
    }

    /// Eight floats from `p` interpolated toward their right neighbours by `fx` (the horizontal
    /// half of a bilinear sample; `referenceInterpolateWindow` and `referenceMismatch` share it, so the template
    /// and the next image are sampled by the same formula).
    @inline(__always)
    static func referenceHorizontal(_ p: UnsafePointer<Float>, _ fx: SIMD8<Float>) -> SIMD8<Float> {
        let a = UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
        let b = UnsafeRawPointer(p + 1).loadUnaligned(as: SIMD8<Float>.self)
        return a + (b - a) * fx
    }

    /// Bilinear samples of `image` over the window at a sub-pixel origin, times `scale`, into
    /// rows of `padded` values: down each 8-column block, every image row interpolated
    /// horizontally once and shared by the two window rows it borders.
    @inline(__always)
    static func referenceInterpolateWindow(_ image: BorderedImage, origin: (Float, Float), window: Int, into out: inout [Float], scale: SIMD8<Float>) {
        let x0 = Int(origin.0.rounded(.down)), y0 = Int(origin.1.rounded(.down))
        let fx = SIMD8<Float>(repeating: origin.0 - Float(x0)), fy = SIMD8<Float>(repeating: origin.1 - Float(y0))
        let stride = image.stride, padded = (window + 7) / 8 * 8
        image.storage.withUnsafeBufferPointer { ib in
            out.withUnsafeMutableBufferPointer { ob in
                guard let ip = ib.baseAddress, let op = ob.baseAddress else { return }
                var wx = 0
                while wx < padded {
                    var row = ip + image.index(x0 &+ wx, y0)
                    var above = Self.referenceHorizontal(row, fx)
                    for wy in 0..<window {
                        row += stride
                        let below = Self.referenceHorizontal(row, fx)
                        let value: SIMD8<Float> = (above + (below - above) * fy) * scale
                        let k = wy &* padded &+ wx
                        UnsafeMutableRawPointer(op + k).storeBytes(of: value, as: SIMD8<Float>.self)
                        above = below
                    }
                    wx &+= 8
                }
            }
        }
    }

    /// Σ (J(x + d) − T(x)) · ∇T over the window (intensities scaled to 0…1). Runs down each
    /// 8-column block of the padded rows (the padding has zero gradient): every image row is
    /// interpolated horizontally once and shared by the two window rows it borders, then
    /// blended vertically. Independent accumulators per lane.
    @inline(__always)
    static func referenceMismatch(origin: (Float, Float), window: Int, image: BorderedImage, template: [Float], gx: [Float], gy: [Float]) -> (Float, Float) {
        let x0 = Int(origin.0.rounded(.down)), y0 = Int(origin.1.rounded(.down))
        let fx = SIMD8<Float>(repeating: origin.0 - Float(x0)), fy = SIMD8<Float>(repeating: origin.1 - Float(y0))
        let stride = image.stride
        let padded = (window + 7) / 8 * 8
        var accX = SIMD8<Float>(repeating: 0), accY = SIMD8<Float>(repeating: 0)
        image.storage.withUnsafeBufferPointer { jb in
            template.withUnsafeBufferPointer { tb in
                gx.withUnsafeBufferPointer { gxb in
                    gy.withUnsafeBufferPointer { gyb in
                        guard let jp = jb.baseAddress, let tp = tb.baseAddress, let gxp = gxb.baseAddress, let gyp = gyb.baseAddress else { return }
                        var wx = 0
                        while wx < padded {
                            var row = jp + image.index(x0 &+ wx, y0)
                            var above = Self.referenceHorizontal(row, fx)
                            for wy in 0..<window {
                                row += stride
                                let below = Self.referenceHorizontal(row, fx)
                                let k = wy &* padded &+ wx
                                let t = UnsafeRawPointer(tp + k).loadUnaligned(as: SIMD8<Float>.self)
                                let r = above + (below - above) * fy - t  // gx, gy carry the 1/255
                                accX += r * UnsafeRawPointer(gxp + k).loadUnaligned(as: SIMD8<Float>.self)
                                accY += r * UnsafeRawPointer(gyp + k).loadUnaligned(as: SIMD8<Float>.self)
                                above = below
                            }
                            wx &+= 8
                        }
                    }
                }
            }
        }
        return (accX.sum(), accY.sum())
    }
}
