import ParallaxMath

/// The plane-to-plane projective map `b ~ H a` between two images: Hartley-normalized DLT
/// (LAPACK SVD), transfer error, and a seeded RANSAC estimate for matched points.
public enum Homography {
    /// `H` from ≥ 4 correspondences (pixels), least squares on the algebraic error when more;
    /// scaled so `H[2,2] = 1` when possible. Nil when degenerate (three of four points
    /// collinear, coincident points, or a singular result).
    public static func directLinearTransform(_ a: [Vector2], _ b: [Vector2]) -> Matrix3? {
        guard a.count >= 4, a.count == b.count else { return nil }
        if a.count == 4, hasCollinearTriple(a) || hasCollinearTriple(b) { return nil }
        guard let (ta, na) = HartleyNormalization.normalize(a), let (tb, nb) = HartleyNormalization.normalize(b) else { return nil }
        if a.count == 4, let exact = exactFit(na, nb) { return denormalized(exact, ta, tb) }
        var m = Matrix(rows: 2 * a.count, columns: 9)
        for i in 0..<a.count {
            let p = na[i], q = nb[i]
            let r0 = [-p.x, -p.y, -1, 0, 0, 0, q.x * p.x, q.x * p.y, q.x]
            let r1 = [0, 0, 0, -p.x, -p.y, -1, q.y * p.x, q.y * p.y, q.y]
            for j in 0..<9 { m[2 * i, j] = r0[j]; m[2 * i + 1, j] = r1[j] }
        }
        guard let svd = try? SVD(m, mode: .full) else { return nil }
        let h = svd.vt.row(8)
        return denormalized(Matrix3(rows: Vector3(h[0], h[1], h[2]), Vector3(h[3], h[4], h[5]), Vector3(h[6], h[7], h[8])), ta, tb)
    }

    /// `T_b⁻¹ H T_a`, scaled so its corner is 1 (or to unit norm); nil when singular.
    static func denormalized(_ normalized: Matrix3, _ ta: Matrix3, _ tb: Matrix3) -> Matrix3? {
        guard let tbInverse = tb.inverse else { return nil }
        var result = tbInverse * normalized * ta
        let corner = result[2, 2]
        result = abs(corner) > 1e-12 ? (1 / corner) * result : (1 / result.frobeniusNorm) * result
        guard abs(result.determinant) > 1e-12, result.determinant.isFinite else { return nil }
        return result
    }

    /// The homography through exactly 4 (normalized) correspondences with `h₃₃ = 1`: the 8 × 8
    /// linear system solved without LAPACK (``LUDecomposition/solveSmall(_:_:n:)``) — RANSAC's
    /// minimal fit, thousands of times per picture search (the SVD was a sixth of image-track's
    /// time). Nil when the system is near singular (then the SVD decides).
    static func exactFit(_ a: [Vector2], _ b: [Vector2]) -> Matrix3? {
        var m = [Double](repeating: 0, count: 64), rhs = [Double](repeating: 0, count: 8)
        for i in 0..<4 {
            let p = a[i], q = b[i]
            let r0: [Double] = [p.x, p.y, 1, 0, 0, 0, -q.x * p.x, -q.x * p.y]
            let r1: [Double] = [0, 0, 0, p.x, p.y, 1, -q.y * p.x, -q.y * p.y]
            for j in 0..<8 { m[(2 * i) * 8 + j] = r0[j]; m[(2 * i + 1) * 8 + j] = r1[j] }
            rhs[2 * i] = q.x
            rhs[2 * i + 1] = q.y
        }
        guard LUDecomposition.solveSmall(&m, &rhs, n: 8) else { return nil }
        let h = rhs
        return Matrix3(rows: Vector3(h[0], h[1], h[2]), Vector3(h[3], h[4], h[5]), Vector3(h[6], h[7], 1))
    }

    /// Distance of `b` from `H a` (px, in the second image); infinite when `a` maps to infinity.
    @inlinable public static func transferError(_ h: Matrix3, _ a: Vector2, _ b: Vector2) -> Double {
        guard let p = h.transferring(a) else { return .infinity }
        return (p - b).norm
    }

    /// A robust estimate: seeded RANSAC (MSAC) over 4-point DLT samples with transfer error
    /// `threshold` (px), refitted on all inliers by DLT, then refined by Levenberg–Marquardt on
    /// the inliers' transfer error (``refine(_:_:_:)``) and the inliers recounted. Nil when
    /// fewer than 4 matches or no model.
    public static func estimate(_ a: [Vector2], _ b: [Vector2], threshold: Double = 3, maxIterations: Int = 2000,
                                seed: UInt64 = 0) -> (homography: Matrix3, inliers: [Int])? {
        guard a.count >= 4, a.count == b.count else { return nil }
        let ransac = RANSAC<Matrix3>(minimalSampleSize: 4, threshold: threshold, confidence: 0.999, maxIterations: maxIterations, seed: seed)
        guard let result = try? ransac.run(dataCount: a.count,
                                           fit: { idx in directLinearTransform(idx.map { a[$0] }, idx.map { b[$0] }) },
                                           residual: { h, i in transferError(h, a[i], b[i]) },
                                           refit: { idx in directLinearTransform(idx.map { a[$0] }, idx.map { b[$0] }) })
        else { return nil }
        guard result.inliers.count > 4, let refined = refine(result.model, result.inliers.map { a[$0] }, result.inliers.map { b[$0] }) else {
            return (result.model, result.inliers)
        }
        let inliers = (0..<a.count).filter { transferError(refined, a[$0], b[$0]) <= threshold }
        return inliers.count >= result.inliers.count ? (refined, inliers) : (result.model, result.inliers)
    }

    /// Minimizes the transfer error `Σ ‖b − H a‖²` over the 8 free entries of `h`
    /// (Levenberg–Marquardt, analytic Jacobian, in Hartley-normalized coordinates so the
    /// entries have comparable scale). Nil when the solver fails or the result is singular.
    public static func refine(_ h: Matrix3, _ a: [Vector2], _ b: [Vector2]) -> Matrix3? {
        guard a.count >= 4, a.count == b.count,
              let (ta, na) = HartleyNormalization.normalize(a), let (tb, nb) = HartleyNormalization.normalize(b),
              let taInverse = ta.inverse, let tbInverse = tb.inverse else { return nil }
        var start = tb * h * taInverse
        guard abs(start[2, 2]) > 1e-12 else { return nil }
        start = (1 / start[2, 2]) * start
        let initial = [start[0, 0], start[0, 1], start[0, 2], start[1, 0], start[1, 1], start[1, 2], start[2, 0], start[2, 1]]
        func project(_ x: [Double], _ p: Vector2) -> (u: Double, v: Double, w: Double) {
            let w = x[6] * p.x + x[7] * p.y + 1
            return ((x[0] * p.x + x[1] * p.y + x[2]) / w, (x[3] * p.x + x[4] * p.y + x[5]) / w, w)
        }
        var solver = LevenbergMarquardt()
        solver.maxIterations = 20
        guard let result = try? solver.minimize(
            initial: initial,
            residuals: { x in
                var r = [Double](repeating: 0, count: 2 * na.count)
                for i in na.indices {
                    let (u, v, _) = project(x, na[i])
                    r[2 * i] = u - nb[i].x
                    r[2 * i + 1] = v - nb[i].y
                }
                return r
            },
            jacobian: { x in
                var j = Matrix(rows: 2 * na.count, columns: 8)
                for i in na.indices {
                    let p = na[i], (u, v, w) = project(x, p)
                    j[2 * i, 0] = p.x / w; j[2 * i, 1] = p.y / w; j[2 * i, 2] = 1 / w
                    j[2 * i, 6] = -u * p.x / w; j[2 * i, 7] = -u * p.y / w
                    j[2 * i + 1, 3] = p.x / w; j[2 * i + 1, 4] = p.y / w; j[2 * i + 1, 5] = 1 / w
                    j[2 * i + 1, 6] = -v * p.x / w; j[2 * i + 1, 7] = -v * p.y / w
                }
                return j
            }) else { return nil }
        let x = result.parameters
        let normalized = Matrix3(rows: Vector3(x[0], x[1], x[2]), Vector3(x[3], x[4], x[5]), Vector3(x[6], x[7], 1))
        var refined = tbInverse * normalized * ta
        guard abs(refined[2, 2]) > 1e-12 else { return nil }
        refined = (1 / refined[2, 2]) * refined
        guard abs(refined.determinant) > 1e-12, refined.determinant.isFinite else { return nil }
        return refined
    }

    /// Whether any three of `points` lie on a line (within 1e-9 of the spread, squared).
    static func hasCollinearTriple(_ points: [Vector2]) -> Bool {
        let n = points.count
        let spread = points.reduce(0) { max($0, (($1 - points[0]) * ($1 - points[0])).sum()) }
        for i in 0..<n { for j in (i + 1)..<n { for k in (j + 1)..<n {
            let u = points[j] - points[i], v = points[k] - points[i]
            if abs(u.x * v.y - u.y * v.x) <= 1e-9 * max(spread, 1e-300) { return true }
        } } }
        return false
    }
}
