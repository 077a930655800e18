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
    v4d cost = zero, behind = zero;
    v4d h00 = zero, h10 = zero, h11 = zero, h20 = zero, h21 = zero, h22 = zero, h30 = zero, h31 = zero, h32 = zero, h33 = zero;
    v4d h40 = zero, h41 = zero, h42 = zero, h44 = zero, h50 = zero, h51 = zero, h52 = zero, h53 = zero, h54 = zero, h55 = zero;
    v4d g0 = zero, g1 = zero, g2 = zero, g3 = zero, g4 = zero, g5 = zero;
    for (size_t k = 0; k < blocks; k++) {
        const v4du *p = (const v4du *)(lanes + 24 * k);
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
        // Rows for p_C = exp(δθ)·R·p + t + δt (rotation about the model's origin: well
        // conditioned however far the model is): (R p) × ∂(u, v)/∂p_C, then ∂(u, v)/∂p_C.
        const v4d a0 = -u * qy * iz, a1 = (qz + u * qx) * iz, a2 = -qy * iz, a3 = iz, a5 = -u * iz;
        const v4d b0 = -(v * qy + qz) * iz, b1 = v * qx * iz, b2 = qx * iz, b4 = iz, b5 = -v * iz;
        const v4d wa = w * fxx, wb = w * fyy;
        const v4d wa0 = wa * a0, wa1 = wa * a1, wa2 = wa * a2, wa3 = wa * a3, wa5 = wa * a5;
        const v4d wb0 = wb * b0, wb1 = wb * b1, wb2 = wb * b2, wb4 = wb * b4, wb5 = wb * b5;
        h00 = FMA(wa0, a0, FMA(wb0, b0, h00));
        h10 = FMA(wa1, a0, FMA(wb1, b0, h10));
        h11 = FMA(wa1, a1, FMA(wb1, b1, h11));
        h20 = FMA(wa2, a0, FMA(wb2, b0, h20));
        h21 = FMA(wa2, a1, FMA(wb2, b1, h21));
        h22 = FMA(wa2, a2, FMA(wb2, b2, h22));
        h30 = FMA(wa3, a0, h30);
        h31 = FMA(wa3, a1, h31);
        h32 = FMA(wa3, a2, h32);
        h33 = FMA(wa3, a3, h33);
        h40 = FMA(wb4, b0, h40);
        h41 = FMA(wb4, b1, h41);
        h42 = FMA(wb4, b2, h42);
        h44 = FMA(wb4, b4, h44);
        h50 = FMA(wa5, a0, FMA(wb5, b0, h50));
        h51 = FMA(wa5, a1, FMA(wb5, b1, h51));
        h52 = FMA(wa5, a2, FMA(wb5, b2, h52));
        h53 = FMA(wa5, a3, h53);
        h54 = FMA(wb5, b4, h54);
        h55 = FMA(wa5, a5, FMA(wb5, b5, h55));
        const v4d ga = w * vfx * eu, gb = w * vfy * ev;
        g0 = FMA(ga, a0, FMA(gb, b0, g0));
        g1 = FMA(ga, a1, FMA(gb, b1, g1));
        g2 = FMA(ga, a2, FMA(gb, b2, g2));
        g3 = FMA(ga, a3, g3);
        g4 = FMA(gb, b4, g4);
        g5 = FMA(ga, a5, FMA(gb, b5, g5));
    }
#define PNP_SUM(v) (((v)[0] + (v)[1]) + ((v)[2] + (v)[3]))
    out->cost = PNP_SUM(cost);
    out->behind = ((v4l)behind)[0] | ((v4l)behind)[1] | ((v4l)behind)[2] | ((v4l)behind)[3] ? 1 : 0;
    const v4d sums[21] = {h00, h10, h11, h20, h21, h22, h30, h31, h32, h33, h40, h41, h42, zero, h44, h50, h51, h52, h53, h54, h55};
    for (int i = 0; i < 21; i++) out->h[i] = PNP_SUM(sums[i]);
    const v4d gs[6] = {g0, g1, g2, g3, g4, g5};
    for (int i = 0; i < 6; i++) out->g[i] = PNP_SUM(gs[i]);
#undef PNP_SUM
}
