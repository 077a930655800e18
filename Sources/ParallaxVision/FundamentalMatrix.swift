import ParallaxMath

/// The fundamental matrix `F` (x₂ᵀ F x₁ = 0) from point correspondences: Hartley-normalized
/// 8-point algorithm (LAPACK SVD), rank 2 enforced, plus the Sampson distance for RANSAC.
public enum FundamentalMatrix {
    /// `F` from ≥ 8 correspondences (pixels); nil when degenerate.
    public static func eightPoint(_ a: [Vector2], _ b: [Vector2]) -> Matrix3? {
        guard a.count >= 8, a.count == b.count else { return nil }
        guard let (ta, na) = HartleyNormalization.normalize(a), let (tb, nb) = HartleyNormalization.normalize(b) else { return nil }
        var m = Matrix(rows: a.count, columns: 9)
        for i in 0..<a.count {
            let p = na[i], q = nb[i]
            let row = [q.x * p.x, q.x * p.y, q.x, q.y * p.x, q.y * p.y, q.y, p.x, p.y, 1]
            for j in 0..<9 { m[i, j] = row[j] }
        }
        guard let svd = try? SVD(m, mode: .full) else { return nil }
        let f = svd.vt.row(8)
        var fm = Matrix3(rows: Vector3(f[0], f[1], f[2]), Vector3(f[3], f[4], f[5]), Vector3(f[6], f[7], f[8]))
        // Closest rank-2 matrix.
        guard let s3 = try? SVD(fm.matrix), let u = try? Matrix3(s3.u), let vt = try? Matrix3(s3.vt) else { return nil }
        fm = u * Matrix3.diagonal(Vector3(s3.singularValues[0], s3.singularValues[1], 0)) * vt
        // Undo the normalizations: F = T_bᵀ F̂ T_a.
        let result = tb.transposed * fm * ta
        let scale = result.frobeniusNorm
        return scale > 0 ? (1 / scale) * result : nil
    }

    /// First-order geometric error of the correspondence (px): √Sampson distance.
    public static func sampsonError(_ f: Matrix3, _ p: Vector2, _ q: Vector2) -> Double {
        let x1 = Vector3(p.x, p.y, 1), x2 = Vector3(q.x, q.y, 1)
        let fx1 = f * x1, ftx2 = f.transposed * x2
        let e = x2.dot(fx1)
        let d = fx1.x * fx1.x + fx1.y * fx1.y + ftx2.x * ftx2.x + ftx2.y * ftx2.y
        return d > 0 ? abs(e) / d.squareRoot() : .infinity
    }
}
