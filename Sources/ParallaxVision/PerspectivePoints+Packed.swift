import CKernels
import ParallaxMath

extension PerspectivePoints {
    /// A PnP problem's points in the layout its inner loop reads: blocks of four points, each
    /// block six `SIMD4<Double>` lanes — model x, y, z (m), undistorted normalized image x, y,
    /// and the weight — so one pass over the points is four points per vector operation with no
    /// bounds checks or gathers. The last block is padded with copies of the first point at
    /// weight 0 (they add nothing, and project wherever it does).
    struct Packed {
        /// `6 × blocks` vectors: block `k` at `6k ..< 6k + 6`.
        var lanes: [SIMD4<Double>]
        /// Points (without the padding).
        let count: Int
        /// Focal lengths (px): errors are weighed in undistorted pixels.
        let focal: Vector2

        init(model: [Vector3], normalized: [Vector2], weights: [Double], focal: Vector2) {
            // The packing reads the three arrays through unchecked pointers, up to `count`.
            precondition(normalized.count == model.count && weights.count == model.count,
                         "PerspectivePoints: \(model.count) model points, \(normalized.count) image points, \(weights.count) weights")
            count = model.count
            self.focal = focal
            let blocks = (count + 3) / 4
            let n = count
            lanes = [SIMD4<Double>](unsafeUninitializedCapacity: 6 * blocks) { out, initialized in
                guard let base = out.baseAddress else { return }
                base.withMemoryRebound(to: Double.self, capacity: 24 * blocks) { d in
                    model.withUnsafeBufferPointer { m in
                        normalized.withUnsafeBufferPointer { p in
                            weights.withUnsafeBufferPointer { w in
                                /// Point `source` into lane `lane` of the block at `at`, at `weight`.
                                func put(_ source: Int, _ at: UnsafeMutablePointer<Double>, _ lane: Int, _ weight: Double) {
                                    at[lane] = m[source].x
                                    at[4 + lane] = m[source].y
                                    at[8 + lane] = m[source].z
                                    at[12 + lane] = p[source].x
                                    at[16 + lane] = p[source].y
                                    at[20 + lane] = weight
                                }
                                for k in 0..<blocks {
                                    let at = d + 24 * k
                                    for lane in 0..<4 {
                                        let i = 4 * k + lane
                                        if i < n { put(i, at, lane, w[i]) } else { put(0, at, lane, 0) }
                                    }
                                }
                            }
                        }
                    }
                }
                initialized = 6 * blocks
            }
        }

        /// The robust cost `Σ wᵢ·ρ(|eᵢ|)` (ρ Huber's with threshold `huber` px, `eᵢ` the
        /// reprojection error in undistorted pixels) at `pose` (`T_CM`), and its Gauss–Newton
        /// normal equations for the increment of ``retract(_:_:)`` (`R ← exp(δθ)·R`,
        /// `t ← t + δt`), each point weighted by `wᵢ·ρ′(|eᵢ|)/|eᵢ|` (iteratively reweighted
        /// least squares). Infinite cost when a point (with weight or not) is not in front of the
        /// camera. The pass is CKernels' `parallax_pnp_equations` (AVX2 + FMA or AVX-512VL when
        /// the processor has them, the same bits from the portable build); `level` picks a
        /// variant for tests (−1: the best).
        ///
        /// With `q = R·p`, `(X, Y, Z) = q + t`, `u = X/Z`, `v = Y/Z`, the rows of
        /// `∂(u, v)/∂(δθ, δt)` are `(−u q_y, q_z + u q_x, −q_y, 1, 0, −u)/Z` and
        /// `(−(v q_y + q_z), v q_x, q_x, 0, 1, −v)/Z` (`q × ∂(u, v)/∂p_C`, then `∂(u, v)/∂p_C`),
        /// times the focal lengths. The pass sums the rotation block and, for the translation
        /// rows, the moments `Σ W`, `Σ W·a`, `Σ W u`, … (`W = w f²/Z²`) that they are made of:
        /// the ones and zeros of the rows cost nothing. The rotation turns about the model's
        /// origin, not the camera's: far models (a weak-perspective camera, f = 1000 × width)
        /// stay well conditioned. The four lanes sum separately and are added in a fixed order
        /// at the end: the same bits every run.
        func equations(at pose: SE3, huber: Double, level: Int32 = -1) -> LevenbergMarquardt.Equations6 {
            evaluate(at: pose, huber: huber, level: level).equations
        }

        /// ``equations(at:huber:level:)`` and the sum of the squared reprojection errors (px²) of
        /// the points with weight, unweighted (their RMS is `√(squares / count)`).
        func evaluate(at pose: SE3, huber: Double, level: Int32 = -1) -> (equations: LevenbergMarquardt.Equations6, squares: Double) {
            let r = pose.rotation.matrix, t = pose.translation
            let transform = (r[0, 0], r[0, 1], r[0, 2], r[1, 0], r[1, 1], r[1, 2], r[2, 0], r[2, 1], r[2, 2], t.x, t.y, t.z)
            var sums = parallax_pnp_sums()
            withUnsafeBytes(of: transform) { pose in
                lanes.withUnsafeBytes { raw in
                    parallax_pnp_equations(raw.baseAddress?.assumingMemoryBound(to: Double.self), lanes.count / 6,
                                           pose.baseAddress?.assumingMemoryBound(to: Double.self), focal.x, focal.y, huber, &sums, level)
                }
            }
            guard sums.behind == 0 else { return (LevenbergMarquardt.Equations6(cost: .infinity, normal: NormalEquations6()), .infinity) }
            let h = sums.h, g = sums.g
            let normal = NormalEquations6(lower: SIMD8(h.0, 0, 0, 0, 0, 0, 0, 0), SIMD8(h.1, h.2, 0, 0, 0, 0, 0, 0), SIMD8(h.3, h.4, h.5, 0, 0, 0, 0, 0),
                                          SIMD8(h.6, h.7, h.8, h.9, 0, 0, 0, 0), SIMD8(h.10, h.11, h.12, h.13, h.14, 0, 0, 0),
                                          SIMD8(h.15, h.16, h.17, h.18, h.19, h.20, 0, 0), gradient: SIMD8(g.0, g.1, g.2, g.3, g.4, g.5, 0, 0))
            return (LevenbergMarquardt.Equations6(cost: sums.cost, normal: normal), sums.squares)
        }

        /// A step of ``equations(at:huber:)``'s parameters applied: `R ← exp(δθ)·R`, `t ← t + δt`
        /// (the rotation about the model's origin: turning about the camera's instead couples
        /// rotation and translation by the distance, which for a near-orthographic view
        /// (AFLW2000's f = 1000 × width) stalls the fit in the wrong pose).
        static func retract(_ pose: SE3, _ delta: SIMD8<Double>) -> SE3 {
            SE3(rotation: SO3.exp(Vector3(delta[0], delta[1], delta[2])) * pose.rotation, translation: pose.translation + Vector3(delta[3], delta[4], delta[5]))
        }
    }
}
