/// The normal equations of a 6-parameter least-squares problem, accumulated one pair of
/// Jacobian rows at a time in stored scalars (no arrays, no bounds checks): the inner loop of
/// per-point pose solvers. `H = Σ w (aᵀa + bᵀb)` (symmetric: the lower triangle is stored) and
/// the gradient `g = Σ w (aᵀeₐ + bᵀe_b)` (`Jᵀr`) for rows `a`, `b` with residuals `eₐ`, `e_b`.
public struct NormalEquations6: Sendable {
    // Lower triangle of H, row by row.
    @usableFromInline var h00, h10, h11, h20, h21, h22, h30, h31, h32, h33, h40, h41, h42, h43, h44, h50, h51, h52, h53, h54, h55: Double
    @usableFromInline var g0, g1, g2, g3, g4, g5: Double

    /// All zero.
    @inlinable public init() {
        h00 = 0; h10 = 0; h11 = 0; h20 = 0; h21 = 0; h22 = 0; h30 = 0; h31 = 0; h32 = 0; h33 = 0; h40 = 0; h41 = 0; h42 = 0; h43 = 0; h44 = 0; h50 = 0; h51 = 0; h52 = 0; h53 = 0; h54 = 0; h55 = 0
        g0 = 0; g1 = 0; g2 = 0; g3 = 0; g4 = 0; g5 = 0
    }

    /// `H` from its lower triangle by rows (`lower[i]` holds `Hᵢ₀ … Hᵢᵢ` in lanes `0…i`; the
    /// other lanes are ignored) and the gradient `g` (lanes 0–5): for solvers that accumulate
    /// the sums their own way (four points at a time, zero entries skipped).
    @inlinable public init(lower r0: SIMD8<Double>, _ r1: SIMD8<Double>, _ r2: SIMD8<Double>, _ r3: SIMD8<Double>, _ r4: SIMD8<Double>, _ r5: SIMD8<Double>,
                           gradient g: SIMD8<Double>) {
        h00 = r0[0]
        h10 = r1[0]; h11 = r1[1]
        h20 = r2[0]; h21 = r2[1]; h22 = r2[2]
        h30 = r3[0]; h31 = r3[1]; h32 = r3[2]; h33 = r3[3]
        h40 = r4[0]; h41 = r4[1]; h42 = r4[2]; h43 = r4[3]; h44 = r4[4]
        h50 = r5[0]; h51 = r5[1]; h52 = r5[2]; h53 = r5[3]; h54 = r5[4]; h55 = r5[5]
        g0 = g[0]; g1 = g[1]; g2 = g[2]; g3 = g[3]; g4 = g[4]; g5 = g[5]
    }

    /// Adds rows `a` (residual `ea`) and `b` (residual `eb`) with weight `w`.
    @inlinable public mutating func add(_ a: SIMD8<Double>, _ ea: Double, _ b: SIMD8<Double>, _ eb: Double, weight w: Double) {
        let a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4], a5 = a[5]
        let b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3], b4 = b[4], b5 = b[5]
        let wa0 = w * a0, wa1 = w * a1, wa2 = w * a2, wa3 = w * a3, wa4 = w * a4, wa5 = w * a5
        let wb0 = w * b0, wb1 = w * b1, wb2 = w * b2, wb3 = w * b3, wb4 = w * b4, wb5 = w * b5
        h00 += wa0 * a0 + wb0 * b0
        h10 += wa1 * a0 + wb1 * b0
        h11 += wa1 * a1 + wb1 * b1
        h20 += wa2 * a0 + wb2 * b0
        h21 += wa2 * a1 + wb2 * b1
        h22 += wa2 * a2 + wb2 * b2
        h30 += wa3 * a0 + wb3 * b0
        h31 += wa3 * a1 + wb3 * b1
        h32 += wa3 * a2 + wb3 * b2
        h33 += wa3 * a3 + wb3 * b3
        h40 += wa4 * a0 + wb4 * b0
        h41 += wa4 * a1 + wb4 * b1
        h42 += wa4 * a2 + wb4 * b2
        h43 += wa4 * a3 + wb4 * b3
        h44 += wa4 * a4 + wb4 * b4
        h50 += wa5 * a0 + wb5 * b0
        h51 += wa5 * a1 + wb5 * b1
        h52 += wa5 * a2 + wb5 * b2
        h53 += wa5 * a3 + wb5 * b3
        h54 += wa5 * a4 + wb5 * b4
        h55 += wa5 * a5 + wb5 * b5
        g0 += wa0 * ea + wb0 * eb
        g1 += wa1 * ea + wb1 * eb
        g2 += wa2 * ea + wb2 * eb
        g3 += wa3 * ea + wb3 * eb
        g4 += wa4 * ea + wb4 * eb
        g5 += wa5 * ea + wb5 * eb
    }

    /// `H` as a full row-major 6 × 6 array.
    public var matrix: [Double] {
        [h00, h10, h20, h30, h40, h50, h10, h11, h21, h31, h41, h51, h20, h21, h22, h32, h42, h52, h30, h31, h32, h33, h43, h53, h40, h41, h42, h43, h44, h54, h50, h51, h52, h53, h54, h55]
    }
    /// `g`.
    public var vector: [Double] { [g0, g1, g2, g3, g4, g5] }

    /// As ``LevenbergMarquardt/NormalEquations`` with `cost`.
    public func equations(cost: Double) -> LevenbergMarquardt.NormalEquations {
        LevenbergMarquardt.NormalEquations(cost: cost, hessian: matrix, gradient: vector)
    }
}
