import ParallaxMath

extension MSCKF {
    /// Removes landmark `j` from the state.
    mutating func marginalize(landmark j: Int) {
        let o = landmarkOffset(j)
        covariance = covariance.removing(o..<(o + 3))
        landmarks.remove(at: j)
    }

    /// Adds a landmark at `point` from its observations in the window, separated by
    /// ``FeatureUpdate/split(_:)`` (delayed initialization, as OpenVINS does it): the top rows
    /// `r₁ = H₁ δx + R₁ δp_f + n₁` determine the feature (`δp_f = R₁⁻¹ (r₁ − H₁ δx − n₁)`, which
    /// gives its covariance and its correlation with the state), and the rest, free of it (the
    /// caller has gated them), update the state afterwards. False (nothing changed) when `R₁` is
    /// singular.
    mutating func addLandmark(id: UInt64, at point: Vector3, _ split: FeatureUpdate.Split) throws -> Bool {
        guard let r1Inverse = split.r1.inverse else { return false }
        let variance = normalizedNoise * normalizedNoise
        let n = dimension
        // P_xf = −P H₁ᵀ R₁⁻ᵀ, P_ff = R₁⁻¹ (H₁ P H₁ᵀ + σ² I) R₁⁻ᵀ.
        var inv = Matrix(rows: 3, columns: 3)
        inv.setBlock(row: 0, column: 0, r1Inverse)
        let ph1 = try covariance.multiplied(by: split.h1, transposeOther: true)      // n × 3
        let pxf = -1 * (try ph1.multiplied(by: inv, transposeOther: true))          // n × 3
        var inner = try split.h1 * ph1
        for i in 0..<3 { inner[i, i] += variance }
        var pff = try (try inv * inner).multiplied(by: inv, transposeOther: true)
        pff.symmetrize()
        var grown = Matrix(rows: n + 3, columns: n + 3)
        grown.setBlock(row: 0, column: 0, covariance)
        grown.setBlock(row: 0, column: n, pxf)
        grown.setBlock(row: n, column: 0, pxf.transposed)
        grown.setBlock(row: n, column: n, pff)
        covariance = grown
        landmarks.append(Landmark(id: id, position: point + r1Inverse * split.top))
        if !split.rest.r.isEmpty {
            var h = Matrix(rows: split.rest.r.count, columns: n + 3)
            h.setBlock(row: 0, column: 0, split.rest.h)
            try update(h: h, r: split.rest.r, variance: variance)
        }
        return true
    }
}
