// One pass of PnP's Levenberg–Marquardt over packed points (see pnp.c); included once per
// instruction set with KATTR (the target attribute) and KFN (the name suffix) defined.
KATTR static void KFN(pnp_equations)(const double *lanes, size_t blocks, const double *pose, double fx, double fy, double huber,
                                     parallax_pnp_sums *out) {
    const v4d r00 = (v4d){0} + pose[0], r01 = (v4d){0} + pose[1], r02 = (v4d){0} + pose[2];
    const v4d r10 = (v4d){0} + pose[3], r11 = (v4d){0} + pose[4], r12 = (v4d){0} + pose[5];
    const v4d r20 = (v4d){0} + pose[6], r21 = (v4d){0} + pose[7], r22 = (v4d){0} + pose[8];
    const v4d tx = (v4d){0} + pose[9], ty = (v4d){0} + pose[10], tz = (v4d){0} + pose[11];
    const v4d vfx = (v4d){0} + fx, vfy = (v4d){0} + fy, fxx = vfx * vfx, fyy = vfy * vfy;
    const v4d h = (v4d){0} + huber, hh = h * h, half = (v4d){0} + 0.5, one = (v4d){0} + 1.0, zero = (v4d){0};
    v4d cost = zero, behind = zero, squares = zero;
    // Sums for H (see pnp.c): P = Σ Wa·a, Q = Σ Wb·b (i < 3), the 3 × 3 block, the u/v moments.
    v4d h00 = zero, h10 = zero, h11 = zero, h20 = zero, h21 = zero, h22 = zero;
    v4d pa0 = zero, pa1 = zero, pa2 = zero, pb0 = zero, pb1 = zero, pb2 = zero;
    v4d m0 = zero, m1 = zero, m2 = zero, sa = zero, sb = zero, su = zero, sv = zero, suv = zero;
    v4d g0 = zero, g1 = zero, g2 = zero, g3 = zero, g4 = zero, g5 = zero;
    // Two loops per chunk of blocks: the first projects the points and weighs their errors (a
    // long chain of latencies per point: a division, a square root, a division), the second sums
    // the normal equations (many independent multiply-adds). In one loop the processor holds
    // too few points in flight to hide the first's latencies (measured: ≈ 80 cycles per four
    // points); split, the first overlaps many points and the second runs at the multiply-add
    // units' rate. Every value and every sum is the same operation in the same order as in one
    // loop: the same bits.
    enum { CHUNK = 16 };
    v4d su_u[CHUNK], su_v[CHUNK], su_qx[CHUNK], su_qy[CHUNK], su_qz[CHUNK], su_wa[CHUNK], su_wb[CHUNK], su_ga[CHUNK], su_gb[CHUNK];
    for (size_t k0 = 0; k0 < blocks; k0 += CHUNK) {
        const size_t n = blocks - k0 < CHUNK ? blocks - k0 : CHUNK;
        for (size_t j = 0; j < n; j++) {
            const v4du *p = (const v4du *)(lanes + 24 * (k0 + j));
            const v4d px = p[0], py = p[1], pz = p[2], nu = p[3], nv = p[4], prior = p[5];
            const v4d qx = FMA(r00, px, FMA(r01, py, r02 * pz)), qy = FMA(r10, px, FMA(r11, py, r12 * pz)), qz = FMA(r20, px, FMA(r21, py, r22 * pz));
            const v4d x = qx + tx, y = qy + ty, z = qz + tz;
            behind = (v4d)((v4l)behind | (v4l)(z <= zero));
            const v4d iz = one / z;
            const v4d u = x * iz, v = y * iz;
            const v4d eu = (u - nu) * vfx, ev = (v - nv) * vfy;
            const v4d e2 = FMA(eu, eu, ev * ev);
            const v4d e = KSQRT(e2);
            const v4l outside = e2 > hh;
            // Huber: ½e² inside, h(|e| − ½h) outside; weight 1 inside, h/|e| outside.
            const v4d rho = outside ? h * (e - half * h) : half * e2;
            const v4d w = outside ? prior * h / e : prior;
            cost = FMA(prior, rho, cost);
            squares += (v4d)((v4l)e2 & (v4l)(prior > zero));
            const v4d wz = w * iz, iz2 = wz * iz;
            su_u[j] = u; su_v[j] = v; su_qx[j] = qx; su_qy[j] = qy; su_qz[j] = qz;
            su_wa[j] = iz2 * fxx; su_wb[j] = iz2 * fyy;  // w·f²/Z²
            // g = Σ w (A e_u + B e_v) = Σ (w f_x e_u / Z)·a + (w f_y e_v / Z)·b.
            su_ga[j] = wz * vfx * eu; su_gb[j] = wz * vfy * ev;
        }
        for (size_t j = 0; j < n; j++) {
            const v4d u = su_u[j], v = su_v[j], qx = su_qx[j], qy = su_qy[j], qz = su_qz[j];
            const v4d wa = su_wa[j], wb = su_wb[j], ga = su_ga[j], gb = su_gb[j];
            // Rows of ∂(u, v)/∂(δθ, δt) times Z: a = (−u q_y, q_z + u q_x, −q_y, 1, 0, −u),
            // b = (−(v q_y + q_z), v q_x, q_x, 0, 1, −v); the pixel rows are (f_x/Z)·a, (f_y/Z)·b.
            const v4d a0 = -(u * qy), a1 = FMA(u, qx, qz), a2 = -qy;
            const v4d b0 = -FMA(v, qy, qz), b1 = v * qx, b2 = qx;
            const v4d wa0 = wa * a0, wa1 = wa * a1, wa2 = wa * a2, wb0 = wb * b0, wb1 = wb * b1, wb2 = wb * b2;
            const v4d wau = wa * u, wbv = wb * v;
            h00 = FMA(wa0, a0, FMA(wb0, b0, h00));
            h10 = FMA(wa1, a0, FMA(wb1, b0, h10));
            h11 = FMA(wa1, a1, FMA(wb1, b1, h11));
            h20 = FMA(wa2, a0, FMA(wb2, b0, h20));
            h21 = FMA(wa2, a1, FMA(wb2, b1, h21));
            h22 = FMA(wa2, a2, FMA(wb2, b2, h22));
            pa0 += wa0; pa1 += wa1; pa2 += wa2;
            pb0 += wb0; pb1 += wb1; pb2 += wb2;
            m0 = FMA(u, wa0, FMA(v, wb0, m0));
            m1 = FMA(u, wa1, FMA(v, wb1, m1));
            m2 = FMA(u, wa2, FMA(v, wb2, m2));
            sa += wa; sb += wb; su += wau; sv += wbv;
            suv = FMA(wau, u, FMA(wbv, v, suv));
            g0 = FMA(ga, a0, FMA(gb, b0, g0));
            g1 = FMA(ga, a1, FMA(gb, b1, g1));
            g2 = FMA(ga, a2, FMA(gb, b2, g2));
            g3 += ga;
            g4 += gb;
            g5 = FMA(ga, u, FMA(gb, v, g5));
        }
    }
#define PNP_SUM(v) (((v)[0] + (v)[1]) + ((v)[2] + (v)[3]))
    out->cost = PNP_SUM(cost);
    out->squares = PNP_SUM(squares);
    out->behind = ((v4l)behind)[0] | ((v4l)behind)[1] | ((v4l)behind)[2] | ((v4l)behind)[3] ? 1 : 0;
    // H by rows (lower triangle): the 3 × 3 rotation block, then the translation rows
    // H₃ = (P_a, Σ W_a), H₄ = (P_b, 0, Σ W_b), H₅ = (−M, −Σ W_a u, −Σ W_b v, Σ W_a u² + W_b v²).
    const double sums[21] = {PNP_SUM(h00), PNP_SUM(h10), PNP_SUM(h11), PNP_SUM(h20), PNP_SUM(h21), PNP_SUM(h22),
                             PNP_SUM(pa0), PNP_SUM(pa1), PNP_SUM(pa2), PNP_SUM(sa),
                             PNP_SUM(pb0), PNP_SUM(pb1), PNP_SUM(pb2), 0, PNP_SUM(sb),
                             -PNP_SUM(m0), -PNP_SUM(m1), -PNP_SUM(m2), -PNP_SUM(su), -PNP_SUM(sv), PNP_SUM(suv)};
    for (int i = 0; i < 21; i++) out->h[i] = sums[i];
    out->g[0] = PNP_SUM(g0); out->g[1] = PNP_SUM(g1); out->g[2] = PNP_SUM(g2);
    out->g[3] = PNP_SUM(g3); out->g[4] = PNP_SUM(g4); out->g[5] = -PNP_SUM(g5);
#undef PNP_SUM
}
