// The semi-global matching and census loops, written once and compiled once per instruction set
// by kernels.c (which defines KFN(name) and KATTR before including this file). Plain C loops over
// the disparities, which the compiler vectorizes at the width the variant's target allows; the
// byte arithmetic wraps exactly as the Swift lanes it replaces did.

// The vector types (kernels.c): vNb N bytes, vNw N 16-bit lanes, vNbu/vNwu their unaligned
// forms. The main loop runs KVB lanes at a time, then 32 and 16 for the rest of the depth.

/// One path's costs at disparities d … d + N − 1 from its previous pixel's (`f`, with pads at
/// f[−1] and f[depth]), lanes beyond the searched disparities 255 (`beyond`: all ones there).
#define SGM_PATHV(N, f, J, B) \
    ((((cd + __builtin_elementwise_min(__builtin_elementwise_min(*(const v##N##bu *)((f) + d), \
        (v##N##b)(__builtin_elementwise_min(*(const v##N##bu *)((f) + d - 1), *(const v##N##bu *)((f) + d + 1)) + p1v)), (J))) - (B))) | beyond)

/// One chunk of N disparities for `count` (2 or 4) paths: path costs stored, minima kept in
/// m0…m3 (vectors of N lanes), sums (+ prev) stored; the same disparities' costs and previous
/// sums of the pixel ahead (pc, pp) prefetched.
#define SGM_CHUNK(N, COUNT) { \
    const v##N##b p1v = (v##N##b){0} + p1; \
    const v##N##b cd = *(const v##N##bu *)(c + d), beyond = masked ? *(const v##N##bu *)(mask + d) : (v##N##b){0}; \
    __builtin_prefetch(pc + d); __builtin_prefetch(pp + d); __builtin_prefetch(pp + d + N / 2); \
    const v##N##b v0 = SGM_PATHV(N, f0, (v##N##b){0} + j0, (v##N##b){0} + b0); \
    const v##N##b v1 = SGM_PATHV(N, f1, (v##N##b){0} + j1, (v##N##b){0} + b1); \
    *(v##N##bu *)(o0 + d) = v0; *(v##N##bu *)(o1 + d) = v1; \
    v##N##w sum = __builtin_convertvector(v0, v##N##w) + __builtin_convertvector(v1, v##N##w); \
    if (COUNT == 4) { \
        const v##N##b v2 = SGM_PATHV(N, f2, (v##N##b){0} + j2, (v##N##b){0} + b2); \
        const v##N##b v3 = SGM_PATHV(N, f3, (v##N##b){0} + j3, (v##N##b){0} + b3); \
        *(v##N##bu *)(o2 + d) = v2; *(v##N##bu *)(o3 + d) = v3; \
        sum += __builtin_convertvector(v2, v##N##w) + __builtin_convertvector(v3, v##N##w); \
        LOWEST(2, v2); LOWEST(3, v3); \
    } \
    LOWEST(0, v0); LOWEST(1, v1); \
    if (prev) sum += *(const v##N##wu *)(prev + d); \
    *(v##N##wu *)(total + d) = sum; \
}

static inline KATTR uint8_t KFN(min8)(uint8_t a, uint8_t b) { return b < a ? b : a; }

/// Two or four paths at one pixel over all its disparities (`count`), vectorized over them;
/// each path's lowest cost to lowest0…3. Every per-path value comes in a scalar of its own
/// (no small arrays: bytes stored one by one and loaded as a word stall the store buffer).
static inline __attribute__((always_inline)) KATTR void KFN(sgm_pixel)(int count, int depth, const int masked, const uint8_t *restrict c,
                                        const uint8_t *pc, const uint8_t *restrict mask, uint8_t p1,
                                        const uint8_t *restrict f0, const uint8_t *restrict f1, const uint8_t *restrict f2, const uint8_t *restrict f3,
                                        uint8_t j0, uint8_t j1, uint8_t j2, uint8_t j3, uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3,
                                        uint8_t *restrict o0, uint8_t *restrict o1, uint8_t *restrict o2, uint8_t *restrict o3,
                                        const uint16_t *restrict prev, const uint16_t *pp, uint16_t *restrict total,
                                        uint8_t *lowest0, uint8_t *lowest1, uint8_t *lowest2, uint8_t *lowest3) {
    uint8_t l0 = 255, l1 = 255, l2 = 255, l3 = 255;
    // The main loop keeps each path's lowest lanes in a vector (one reduction per pixel); the
    // shorter tails reduce each chunk.
    SGM_MAIN_MINIMA
    int d = 0;
#define LOWEST(k, v) m##k = __builtin_elementwise_min(m##k, v)
    if (count == 4) {
        for (; d + KVB <= depth; d += KVB) SGM_CHUNK_MAIN(4)
    } else {
        for (; d + KVB <= depth; d += KVB) SGM_CHUNK_MAIN(2)
    }
    if (d > 0) {
        l0 = __builtin_reduce_min(m0); l1 = __builtin_reduce_min(m1);
        if (count == 4) { l2 = __builtin_reduce_min(m2); l3 = __builtin_reduce_min(m3); }
    }
#undef LOWEST
#define LOWEST(k, v) l##k = KFN(min8)(l##k, __builtin_reduce_min(v))
    if (count == 4) {
        if (KVB > 32) for (; d + 32 <= depth; d += 32) SGM_CHUNK(32, 4)
        if (KVB > 16) for (; d + 16 <= depth; d += 16) SGM_CHUNK(16, 4)
    } else {
        if (KVB > 32) for (; d + 32 <= depth; d += 32) SGM_CHUNK(32, 2)
        if (KVB > 16) for (; d + 16 <= depth; d += 16) SGM_CHUNK(16, 2)
    }
#undef LOWEST
    *lowest0 = l0; *lowest1 = l1;
    if (count == 4) { *lowest2 = l2; *lowest3 = l3; }
}

/// Path k's source at (x, y): its previous pixel's costs f, their lowest b and b + P2 of the gray
/// step j (zeros where the path starts), and where its own costs go (o). The paths along the
/// row come from the pixel before in the sweep (xs − 1); the others from the row before.
#define SGM_SOURCE(k) \
    const uint8_t *f##k = s->zeros + 16; \
    uint8_t j##k = 0, b##k = 0, *o##k = NULL, *lo##k = NULL; \
    if (k < count) { \
        const int nx = x + s->dx[k], ny = y + s->dy[k]; \
        /* A path along the row needs only its previous pixel: two slots, by the parity of xs, \
           stay in the first level cache (the others keep two rows). */ \
        const int along = s->dy[k] == 0; \
        const size_t own = along ? (size_t)((xs & 1) * count + k) * w : (size_t)(current * count + k) * w + x; \
        o##k = s->rows + own * stride + 16; \
        lo##k = s->minima + own; \
        if (nx >= 0 && nx < w && ny >= 0 && ny < h) { \
            const size_t slot = along ? (size_t)(((xs & 1) ^ 1) * count + k) * w : (size_t)(previous * count + k) * w + nx; \
            f##k = s->rows + slot * stride + 16; \
            b##k = s->minima[slot]; \
            const int change = (int)gray[(size_t)y * w + x] - (int)gray[(size_t)ny * w + nx]; \
            j##k = (uint8_t)(b##k + s->large[change < 0 ? -change : change]); \
        } \
    }

#ifndef SGM_AHEAD
#define SGM_AHEAD 4
#endif

static KATTR void KFN(sgm_row)(const parallax_sgm_sweep *s, int y, int step, int forward, int16_t *sums, const int16_t *base) {
    const int w = s->width, h = s->height, depth = s->depth, count = s->count;
    const size_t stride = (size_t)depth + 32;
    const int current = step & 1, previous = current ^ 1;
    const uint8_t *gray = s->gray;
    // Lanes beyond the searched disparities (none when they fill the depth: no mask needed).
    const int masked = s->disparities < depth;
    uint8_t spare[4];
    for (int xs = 0; xs < w; xs++) {
        const int x = forward ? xs : w - 1 - xs;
        SGM_SOURCE(0)
        SGM_SOURCE(1)
        SGM_SOURCE(2)
        SGM_SOURCE(3)
        const uint8_t *c = s->cost + ((size_t)y * w + x) * depth;
        uint16_t *total = (uint16_t *)sums + (size_t)x * depth;
        const uint16_t *prev = base ? (const uint16_t *)base + (size_t)x * depth : NULL;
        // The volumes' entries of the pixel SGM_AHEAD steps on, asked for while this one is
        // computed (sgm_pixel, chunk by chunk), the sums (read, or else written) too: the sweep from
        // the bottom right reads them downwards, which the processor's own prefetching followed
        // late (a third of the sweep's time waited on them). Near the row's end this pixel's own.
        const ptrdiff_t ahead = xs + SGM_AHEAD < w ? (forward ? SGM_AHEAD : -SGM_AHEAD) * (ptrdiff_t)depth : 0;
        const uint8_t *pc = c + ahead;
        const uint16_t *pp = (prev ? prev : total) + ahead;
        if (masked) {
            KFN(sgm_pixel)(count, depth, 1, c, pc, s->beyond, s->p1, f0, f1, f2, f3, j0, j1, j2, j3, b0, b1, b2, b3, o0, o1, o2, o3, prev, pp, total,
                           lo0, lo1, lo2 ? lo2 : &spare[2], lo3 ? lo3 : &spare[3]);
        } else {
            KFN(sgm_pixel)(count, depth, 0, c, pc, s->beyond, s->p1, f0, f1, f2, f3, j0, j1, j2, j3, b0, b1, b2, b3, o0, o1, o2, o3, prev, pp, total,
                           lo0, lo1, lo2 ? lo2 : &spare[2], lo3 ? lo3 : &spare[3]);
        }
    }
}
#undef SGM_SOURCE

static KATTR void KFN(census_row)(const uint64_t *restrict left, const uint64_t *restrict reversedRight, int w, int depth, int nd,
                                  uint8_t outside, uint8_t *restrict cost) {
    for (int x = 0; x < w; x++) {
        uint8_t *restrict out = cost + (size_t)x * depth;
        const uint64_t cl = left[x];
        const uint64_t *restrict row = reversedRight + (w - 1 - x);
        const int limit = nd < x + 1 ? nd : x + 1;
        for (int d = 0; d < limit; d++) out[d] = (uint8_t)__builtin_popcountll(cl ^ row[d]);
        for (int d = limit; d < nd; d++) out[d] = outside;
        for (int d = nd; d < depth; d++) out[d] = 0;
    }
}

/// One pass over a pixel's sums v[d], N disparities at a time from d while d < limit (lanes at or
/// beyond `limit` counted as the largest cost): in each lane its lowest cost (low), the first
/// disparity of it (at; INT16_MAX while none) and its lowest cost but at that disparity
/// (second); the right image's winners (r, rbest: the first, lowest x, of equal costs) updated.
#define WIN_PASS(N, MASKED) { \
    const v##N##s top = (v##N##s){0} + INT16_MAX, limits = (v##N##s){0} + (int16_t)limit; \
    for (; d < limit && d + N <= depth; d += N) { \
        const v##N##s lanes = (v##N##s)LANES##N + (int16_t)d; \
        v##N##s c = *(const v##N##su *)(v + d); \
        if (MASKED) { \
            const v##N##s inside = (v##N##s)(lanes < limits); \
            c = (c & inside) | (top & ~inside); \
        } \
        const v##N##s lower = (v##N##s)(c < low##N); \
        second##N = __builtin_elementwise_min(second##N, __builtin_elementwise_max(c, low##N)); \
        at##N = (lanes & lower) | (at##N & ~lower); \
        low##N = __builtin_elementwise_min(low##N, c); \
        const v##N##s old = *(const v##N##su *)(r + d); \
        const v##N##s better = (v##N##s)(c < old); \
        *(v##N##su *)(r + d) = (c & better) | (old & ~better); \
        *(v##N##su *)(rbest + d) = (lanes & better) | (*(const v##N##su *)(rbest + d) & ~better); \
    } \
}

/// The winners of one row of summed costs (see parallax_sgm_row_winners): one pass over each
/// pixel's sums (WIN_PASS, 32 lanes with AVX-512, then 16 for the rest), then from the lanes'
/// lowest costs the lowest, its first disparity, and the lowest cost more than 1 px away from
/// it: in each lane its lowest, or, where that lane's first lowest lies within the winner's
/// ±1 px, its lowest but there (the window's 3 disparities fall in 3 different lanes).
static KATTR void KFN(row_winners)(const int16_t *restrict sums, int w, int depth, int nd, int keep, int leftRight, int subpixel,
                                   int16_t *restrict rc, int16_t *restrict rb, int32_t *restrict integer, float *restrict out) {
    for (int i = 0; i < w + depth; i++) { rc[i] = INT16_MAX; rb[i] = INT16_MAX; }
    for (int x = 0; x < w; x++) {
        integer[x] = -1;
        const int16_t *restrict v = sums + (size_t)x * depth;
        const int limit = nd < x + 1 ? nd : x + 1;
        int16_t *restrict r = rc + (w - 1 - x);
        int16_t *restrict rbest = rb + (w - 1 - x);
        v32s low32 = (v32s){0} + INT16_MAX, second32 = low32, at32 = low32;
        v16s low16 = (v16s){0} + INT16_MAX, second16 = low16, at16 = low16;
        int d = 0;
        if (limit == depth) {
            if (KVB == 64) WIN_PASS(32, 0)
            WIN_PASS(16, 0)
        } else {
            if (KVB == 64) WIN_PASS(32, 1)
            WIN_PASS(16, 1)
        }
        const int16_t l32 = __builtin_reduce_min(low32), l16 = __builtin_reduce_min(low16);
        const int bestCost = l32 < l16 ? l32 : l16;
        // The first disparity at the lowest cost: the least `at` of the lanes at it.
        const v32s at32Best = (v32s)(low32 == (int16_t)bestCost), none32 = (v32s){0} + INT16_MAX;
        const v16s at16Best = (v16s)(low16 == (int16_t)bestCost), none16 = (v16s){0} + INT16_MAX;
        const int16_t b32 = __builtin_reduce_min((at32 & at32Best) | (none32 & ~at32Best));
        const int16_t b16 = __builtin_reduce_min((at16 & at16Best) | (none16 & ~at16Best));
        const int best = b32 < b16 ? b32 : b16;
        // Unique: no cost more than 1 px away at or below the threshold.
        if (bestCost > 0 && keep > 0) {
            const int threshold = (bestCost * 100 - 1) / keep;
            if (threshold >= 0) {
                const int t = threshold < INT16_MAX - 1 ? threshold : INT16_MAX - 1;
                const v32s near32 = (v32s)(at32 >= (int16_t)(best - 1)) & (v32s)(at32 <= (int16_t)(best + 1));
                const v16s near16 = (v16s)(at16 >= (int16_t)(best - 1)) & (v16s)(at16 <= (int16_t)(best + 1));
                const int16_t a32 = __builtin_reduce_min((second32 & near32) | (low32 & ~near32));
                const int16_t a16 = __builtin_reduce_min((second16 & near16) | (low16 & ~near16));
                const int away = a32 < a16 ? a32 : a16;
                if (away <= t) continue;
            }
        }
        integer[x] = best;
        float value = (float)best;
        if (subpixel && best > 0 && best < limit - 1) {
            const int a = v[best - 1], b = v[best + 1];
            const int denominator = a + b - 2 * bestCost;
            if (denominator > 0) value += (float)(a - b) / (float)(2 * denominator);
        }
        out[x] = value;
    }
#undef WIN_PASS
    if (leftRight < 0) return;
    for (int x = 0; x < w; x++) {
        if (integer[x] < 0) continue;
        const int partner = rb[w - 1 - (x - integer[x])];
        const int difference = partner - integer[x];
        if (partner != INT16_MAX && (difference < 0 ? -difference : difference) > leftRight) out[x] = NAN;
    }
}

// This variant's parameters end here (the next variant defines its own).
#undef KATTR
#undef KFN
#undef SGM_PATHV
#undef SGM_CHUNK
