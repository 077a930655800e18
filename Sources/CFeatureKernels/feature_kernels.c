// See include/parallax_feature_kernels.h. Written for Parallax (issue 47).
#include "parallax_feature_kernels.h"

#include <math.h>
#include <string.h>

// One pixel's arithmetic must stay exactly as written (results are bit-identical to the Swift
// code these loops replaced): never fuse a multiply and an add.
#pragma clang fp contract(off)

#if defined(__x86_64__) || defined(__i386__)
#define PXL_X86 1
#include <immintrin.h>
#endif

// ---------------------------------------------------------------------------------------------
// Dispatch

static int pxl_detected = -1;  // bit 0 AVX2, bit 1 POPCNT, bit 2 AVX-512 VPOPCNTDQ (+F, VL), bit 3 AVX-512 F + BW
static int pxl_portable = 0;   // 1: portable paths only; 2: no AVX-512

static int pxl_detect(void) {
    int d = __atomic_load_n(&pxl_detected, __ATOMIC_RELAXED);
    if (d >= 0) return d;
    d = 0;
#ifdef PXL_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) d |= 1;
    if (__builtin_cpu_supports("popcnt")) d |= 2;
    if ((d & 1) && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512vpopcntdq"))
        d |= 4;
    if ((d & 1) && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
        d |= 8;
#endif
    __atomic_store_n(&pxl_detected, d, __ATOMIC_RELAXED);
    return d;
}

int pxl_kernels_features(void) {
    int mode = __atomic_load_n(&pxl_portable, __ATOMIC_RELAXED);
    return mode == 1 ? 0 : mode == 2 ? pxl_detect() & 3 : pxl_detect();
}

void pxl_kernels_force_portable(int portable) {
    __atomic_store_n(&pxl_portable, portable == 1 || portable == 2 ? portable : 0, __ATOMIC_RELAXED);
}

#define PXL_HAS_AVX2() (pxl_kernels_features() & 1)
#define PXL_HAS_POPCNT() (pxl_kernels_features() & 2)
#define PXL_HAS_VPOPCNT() (pxl_kernels_features() & 4)

// ---------------------------------------------------------------------------------------------
// Separable filter

#ifdef PXL_X86
__attribute__((target("avx2"))) static void pxl_weighted_sum_avx2(const float *base, const ptrdiff_t *starts, const float *weights,
                                                                   ptrdiff_t taps, ptrdiff_t n, float *out) {
    ptrdiff_t x = 0;
    if (taps == 7) {
        const float *s0 = base + starts[0], *s1 = base + starts[1], *s2 = base + starts[2], *s3 = base + starts[3];
        const float *s4 = base + starts[4], *s5 = base + starts[5], *s6 = base + starts[6];
        const __m256 w0 = _mm256_set1_ps(weights[0]), w1 = _mm256_set1_ps(weights[1]), w2 = _mm256_set1_ps(weights[2]);
        const __m256 w3 = _mm256_set1_ps(weights[3]), w4 = _mm256_set1_ps(weights[4]), w5 = _mm256_set1_ps(weights[5]);
        const __m256 w6 = _mm256_set1_ps(weights[6]);
        for (; x + 8 <= n; x += 8) {
            __m256 acc = _mm256_add_ps(_mm256_setzero_ps(), _mm256_mul_ps(w0, _mm256_loadu_ps(s0 + x)));
            acc = _mm256_add_ps(acc, _mm256_mul_ps(w1, _mm256_loadu_ps(s1 + x)));
            acc = _mm256_add_ps(acc, _mm256_mul_ps(w2, _mm256_loadu_ps(s2 + x)));
            acc = _mm256_add_ps(acc, _mm256_mul_ps(w3, _mm256_loadu_ps(s3 + x)));
            acc = _mm256_add_ps(acc, _mm256_mul_ps(w4, _mm256_loadu_ps(s4 + x)));
            acc = _mm256_add_ps(acc, _mm256_mul_ps(w5, _mm256_loadu_ps(s5 + x)));
            acc = _mm256_add_ps(acc, _mm256_mul_ps(w6, _mm256_loadu_ps(s6 + x)));
            _mm256_storeu_ps(out + x, acc);
        }
    }
    for (; x + 8 <= n; x += 8) {
        __m256 acc = _mm256_setzero_ps();
        for (ptrdiff_t k = 0; k < taps; k++)
            acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_set1_ps(weights[k]), _mm256_loadu_ps(base + starts[k] + x)));
        _mm256_storeu_ps(out + x, acc);
    }
    for (; x < n; x++) {
        float acc = 0.0f;
        for (ptrdiff_t k = 0; k < taps; k++) acc += weights[k] * base[starts[k] + x];
        out[x] = acc;
    }
}
#endif

/// out[x] = Σ_k weights[k]·base[starts[k] + x], from 0 in tap order.
static void pxl_weighted_sum(const float *base, const ptrdiff_t *starts, const float *weights, ptrdiff_t taps, ptrdiff_t n, float *out) {
#ifdef PXL_X86
    if (PXL_HAS_AVX2()) { pxl_weighted_sum_avx2(base, starts, weights, taps, n, out); return; }
#endif
    for (ptrdiff_t x = 0; x < n; x++) {
        float acc = 0.0f;
        for (ptrdiff_t k = 0; k < taps; k++) acc += weights[k] * base[starts[k] + x];
        out[x] = acc;
    }
}

void pxl_filter_vertical(const float *src, ptrdiff_t w, ptrdiff_t h, const float *weights, ptrdiff_t taps,
                         const ptrdiff_t *row_starts, float *out) {
    for (ptrdiff_t y = 0; y < h; y++) pxl_weighted_sum(src, row_starts + y * taps, weights, taps, w, out + y * w);
}

void pxl_filter_horizontal(const float *src, ptrdiff_t w, ptrdiff_t h, const float *weights, ptrdiff_t taps,
                           const ptrdiff_t *columns, const ptrdiff_t *tap_starts, float *scratch, float *out) {
    ptrdiff_t r = (taps - 1) / 2;
    for (ptrdiff_t y = 0; y < h; y++) {
        const float *row = src + y * w;
        float *o = out + y * w;
        if (w < 2 * r + 1) {
            for (ptrdiff_t i = 0; i < w + taps - 1; i++) scratch[i] = row[columns[i]];
            pxl_weighted_sum(scratch, tap_starts, weights, taps, w, o);
            continue;
        }
        // The padded row is the row itself from column r to w − r − 1 (pad[x + k] = row[x − r + k]):
        // read it in place; only the r columns at each end go through a reflected copy.
        pxl_weighted_sum(row, tap_starts, weights, taps, w - 2 * r, o + r);
        for (ptrdiff_t i = 0; i < 3 * r; i++) scratch[i] = row[columns[i]];
        pxl_weighted_sum(scratch, tap_starts, weights, taps, r, o);
        for (ptrdiff_t i = 0; i < 3 * r; i++) scratch[i] = row[columns[w - r + i]];
        pxl_weighted_sum(scratch, tap_starts, weights, taps, r, o + w - r);
    }
}

// ---------------------------------------------------------------------------------------------
// Bilinear resampling

#ifdef PXL_X86
__attribute__((target("avx2"))) static void pxl_resize_row_avx2(const float *line, ptrdiff_t line_width, const int32_t *x0, const int32_t *x1,
                                                                 const float *fx, ptrdiff_t dw, float *out) {
    ptrdiff_t x = 0;
    const __m256i seven = _mm256_set1_epi32(7);
    for (; x + 8 <= dw; x += 8) {
        // Taps monotonic: the eight outputs read source columns base … base + 15 at most. Two
        // plain loads and in-register permutes select them (gathers are slow on processors with
        // the gather-data-sampling mitigation); blocks that reach farther are done one by one.
        int32_t base = x0[x];
        if (x1[x + 7] - base >= 16 || (ptrdiff_t)base + 16 > line_width) {
            for (ptrdiff_t i = x; i < x + 8; i++) {
                float a = line[x0[i]];
                out[i] = a + (line[x1[i]] - a) * fx[i];
            }
            continue;
        }
        __m256 lo = _mm256_loadu_ps(line + base), hi = _mm256_loadu_ps(line + base + 8);
        __m256i vb = _mm256_set1_epi32(base);
        __m256i ra = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(x0 + x)), vb);
        __m256i rb = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(x1 + x)), vb);
        __m256 a = _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo, ra), _mm256_permutevar8x32_ps(hi, ra),
                                    _mm256_castsi256_ps(_mm256_cmpgt_epi32(ra, seven)));
        __m256 b = _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo, rb), _mm256_permutevar8x32_ps(hi, rb),
                                    _mm256_castsi256_ps(_mm256_cmpgt_epi32(rb, seven)));
        _mm256_storeu_ps(out + x, _mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), _mm256_loadu_ps(fx + x))));
    }
    for (; x < dw; x++) {
        float a = line[x0[x]];
        out[x] = a + (line[x1[x]] - a) * fx[x];
    }
}

/// pxl_resize_row_avx2 on 16 outputs at a time: two 16-float loads cover their taps (at most 32
/// columns from the first), one two-source permute each for the left and the right taps.
__attribute__((target("avx2,avx512f,avx512vl"))) static void pxl_resize_row_avx512(const float *line, ptrdiff_t line_width, const int32_t *x0,
                                                                                const int32_t *x1, const float *fx, ptrdiff_t dw,
                                                                                float *out) {
    ptrdiff_t x = 0;
    for (; x + 16 <= dw; x += 16) {
        int32_t base = x0[x];
        if (x1[x + 15] - base >= 32 || (ptrdiff_t)base + 32 > line_width) break;
        __m512 lo = _mm512_loadu_ps(line + base), hi = _mm512_loadu_ps(line + base + 16);
        __m512i vb = _mm512_set1_epi32(base);
        __m512i ra = _mm512_sub_epi32(_mm512_loadu_si512(x0 + x), vb), rb = _mm512_sub_epi32(_mm512_loadu_si512(x1 + x), vb);
        __m512 a = _mm512_permutex2var_ps(lo, ra, hi), b = _mm512_permutex2var_ps(lo, rb, hi);
        _mm512_storeu_ps(out + x, _mm512_add_ps(a, _mm512_mul_ps(_mm512_sub_ps(b, a), _mm512_loadu_ps(fx + x))));
    }
    // The rest (or from a block whose taps spread wider) as eight at a time.
    if (x < dw) pxl_resize_row_avx2(line, line_width, x0 + x, x1 + x, fx + x, dw - x, out + x);
}

#endif


static void pxl_resize_row(const float *line, ptrdiff_t line_width, const ptrdiff_t *x0, const ptrdiff_t *x1, const int32_t *x0_32, const int32_t *x1_32,
                           const float *fx, ptrdiff_t dw, float *out) {
#ifdef PXL_X86
    if (x0_32 && (pxl_kernels_features() & 8)) { pxl_resize_row_avx512(line, line_width, x0_32, x1_32, fx, dw, out); return; }
    if (x0_32 && PXL_HAS_AVX2()) { pxl_resize_row_avx2(line, line_width, x0_32, x1_32, fx, dw, out); return; }
#else
    (void)x0_32; (void)x1_32; (void)line_width;
#endif
    for (ptrdiff_t x = 0; x < dw; x++) {
        float a = line[x0[x]];
        out[x] = a + (line[x1[x]] - a) * fx[x];
    }
}

#ifdef PXL_X86
__attribute__((target("avx2"))) static void pxl_lerp_rows_avx2(const float *top, const float *bottom, float fy, ptrdiff_t n, float *out) {
    __m256 f = _mm256_set1_ps(fy);
    ptrdiff_t x = 0;
    for (; x + 8 <= n; x += 8) {
        __m256 t = _mm256_loadu_ps(top + x), b = _mm256_loadu_ps(bottom + x);
        _mm256_storeu_ps(out + x, _mm256_add_ps(t, _mm256_mul_ps(_mm256_sub_ps(b, t), f)));
    }
    for (; x < n; x++) out[x] = top[x] + (bottom[x] - top[x]) * fy;
}
#endif

void pxl_resize_bilinear(const float *src, ptrdiff_t sw, const ptrdiff_t *x0, const ptrdiff_t *x1, const float *fx,
                         ptrdiff_t dw, const ptrdiff_t *y0, const ptrdiff_t *y1, const float *fy, ptrdiff_t dh,
                         float *scratch, int32_t *index_scratch, float *out) {
    // 32-bit copies of the column taps for 8-wide gathers, when the source row is narrow enough.
    const int32_t *x0_32 = NULL, *x1_32 = NULL;
    if (sw < ((ptrdiff_t)1 << 31)) {
        for (ptrdiff_t x = 0; x < dw; x++) { index_scratch[x] = (int32_t)x0[x]; index_scratch[dw + x] = (int32_t)x1[x]; }
        x0_32 = index_scratch;
        x1_32 = index_scratch + dw;
    }
    // Two cached horizontally interpolated source rows (each source row is used by up to
    // ~2 destination rows when shrinking).
    float *cache[2] = {scratch, scratch + dw};
    ptrdiff_t cached[2] = {-1, -1};
    for (ptrdiff_t y = 0; y < dh; y++) {
        const float *rows[2];
        ptrdiff_t want[2] = {y0[y], y1[y]};
        for (int r = 0; r < 2; r++) {
            int slot = cached[0] == want[r] ? 0 : cached[1] == want[r] ? 1 : -1;
            if (slot < 0) {
                // Evict the slot the other wanted row does not use.
                // Row 0: keep row 1 if cached. Row 1: never evict row 0's slot.
                if (r == 0) slot = cached[0] == want[1] ? 1 : 0;
                else slot = rows[0] == cache[0] ? 1 : 0;
                pxl_resize_row(src + want[r] * sw, sw, x0, x1, x0_32, x1_32, fx, dw, cache[slot]);
                cached[slot] = want[r];
            }
            rows[r] = cache[slot];
        }
        float *o = out + y * dw;
#ifdef PXL_X86
        if (PXL_HAS_AVX2()) { pxl_lerp_rows_avx2(rows[0], rows[1], fy[y], dw, o); continue; }
#endif
        for (ptrdiff_t x = 0; x < dw; x++) o[x] = rows[0][x] + (rows[1][x] - rows[0][x]) * fy[y];
    }
}

// ---------------------------------------------------------------------------------------------
// Steered BRIEF

#ifdef PXL_X86
__attribute__((target("avx2"))) static void pxl_brief_avx2(const float *centre, ptrdiff_t w, float c, float s, const float *pattern,
                                                            uint64_t out[4]) {
    const __m256 vc = _mm256_set1_ps(c), vs = _mm256_set1_ps(s);
    const __m256i vw = _mm256_set1_epi32((int)w);
    uint64_t words[4] = {0, 0, 0, 0};
    for (int k = 0; k < 256; k += 8) {
        __m256 ax = _mm256_loadu_ps(pattern + k), ay = _mm256_loadu_ps(pattern + 256 + k);
        __m256 bx = _mm256_loadu_ps(pattern + 512 + k), by = _mm256_loadu_ps(pattern + 768 + k);
        // Rounded to nearest, ties to even (the default MXCSR mode), as Swift's .toNearestOrEven.
        __m256i au = _mm256_cvtps_epi32(_mm256_sub_ps(_mm256_mul_ps(vc, ax), _mm256_mul_ps(vs, ay)));
        __m256i av = _mm256_cvtps_epi32(_mm256_add_ps(_mm256_mul_ps(vs, ax), _mm256_mul_ps(vc, ay)));
        __m256i bu = _mm256_cvtps_epi32(_mm256_sub_ps(_mm256_mul_ps(vc, bx), _mm256_mul_ps(vs, by)));
        __m256i bv = _mm256_cvtps_epi32(_mm256_add_ps(_mm256_mul_ps(vs, bx), _mm256_mul_ps(vc, by)));
        __m256 a = _mm256_i32gather_ps(centre, _mm256_add_epi32(_mm256_mullo_epi32(av, vw), au), 4);
        __m256 b = _mm256_i32gather_ps(centre, _mm256_add_epi32(_mm256_mullo_epi32(bv, vw), bu), 4);
        uint64_t bits = (uint64_t)(unsigned)_mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_LT_OQ));
        words[k >> 6] |= bits << (k & 63);
    }
    memcpy(out, words, sizeof words);
}
#endif

void pxl_brief_describe(const float *centre, ptrdiff_t w, float c, float s, const float *pattern, uint64_t out[4]) {
#ifdef PXL_X86
    // 32-bit gather offsets: ±19 rows of the image fit for any width below 2^26.
    if (PXL_HAS_AVX2() && w < ((ptrdiff_t)1 << 26)) { pxl_brief_avx2(centre, w, c, s, pattern, out); return; }
#endif
    uint64_t words[4] = {0, 0, 0, 0};
    for (int k = 0; k < 256; k++) {
        float ax = pattern[k], ay = pattern[256 + k], bx = pattern[512 + k], by = pattern[768 + k];
        ptrdiff_t au = (ptrdiff_t)nearbyintf(c * ax - s * ay), av = (ptrdiff_t)nearbyintf(s * ax + c * ay);
        ptrdiff_t bu = (ptrdiff_t)nearbyintf(c * bx - s * by), bv = (ptrdiff_t)nearbyintf(s * bx + c * by);
        if (centre[av * w + au] < centre[bv * w + bu]) words[k >> 6] |= (uint64_t)1 << (k & 63);
    }
    memcpy(out, words, sizeof words);
}

// ---------------------------------------------------------------------------------------------
// Hamming matching

#define PXL_MATCH_BODY(POPCOUNT)                                                                   \
    for (ptrdiff_t i = 0; i < nq; i++) {                                                           \
        const uint64_t *q = query + 4 * i;                                                         \
        uint64_t q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];                                       \
        int32_t b = INT32_MAX, sec = INT32_MAX, bi = -1;                                           \
        for (ptrdiff_t j = 0; j < nt; j++) {                                                       \
            const uint64_t *t = train + 4 * j;                                                     \
            int32_t d = (int32_t)(POPCOUNT(q0 ^ t[0]) + POPCOUNT(q1 ^ t[1]) + POPCOUNT(q2 ^ t[2]) + \
                                  POPCOUNT(q3 ^ t[3]));                                            \
            if (d < b) { sec = b; b = d; bi = (int32_t)j; } else if (d < sec) { sec = d; }         \
            if (d < train_best[j]) { train_best[j] = d; train_best_query[j] = (int32_t)i; }        \
        }                                                                                          \
        best[i] = b; second[i] = sec; best_index[i] = bi;                                          \
    }

#ifdef PXL_X86
__attribute__((target("popcnt"))) static void pxl_hamming_popcnt(const uint64_t *query, ptrdiff_t nq, const uint64_t *train, ptrdiff_t nt,
                                                                  int32_t *best, int32_t *second, int32_t *best_index,
                                                                  int32_t *train_best, int32_t *train_best_query) {
    PXL_MATCH_BODY(__builtin_popcountll)
}
#endif

#ifdef PXL_X86
/// Eight train descriptors per step: four 512-bit XORs and VPOPCNTQs, the 64-bit counts summed
/// to eight 32-bit distances in train order. Per query, each of the 8 lanes keeps the best,
/// second best and first index of the best over its trains (j ≡ lane mod 8), merged at the end
/// into exactly what the sequential loop gives (best = minimum, lowest index with it; second =
/// second smallest of all distances); per train, the nearest query so far by a strict "<", as
/// the sequential loop. Remaining trains (nt mod 8) run the sequential loop on the merged state.
__attribute__((target("avx512f,avx512vl,avx512vpopcntdq,avx2,popcnt")))
static void pxl_hamming_vpopcnt(const uint64_t *query, ptrdiff_t nq, const uint64_t *train, ptrdiff_t nt,
                                int32_t *best, int32_t *second, int32_t *best_index,
                                int32_t *train_best, int32_t *train_best_query) {
    const ptrdiff_t vector_end = nt - nt % 8;
    const __m512i order = _mm512_setr_epi64(0, 2, 1, 3, 4, 6, 5, 7);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (ptrdiff_t i = 0; i < nq; i++) {
        const uint64_t *q = query + 4 * i;
        __m512i qq = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)q));
        __m256i vb = _mm256_set1_epi32(INT32_MAX), vs = vb, vbi = _mm256_set1_epi32(-1);
        __m256i vi = _mm256_set1_epi32((int32_t)i);
        for (ptrdiff_t j = 0; j < vector_end; j += 8) {
            const uint64_t *t = train + 4 * j;
            __m512i p0 = _mm512_popcnt_epi64(_mm512_xor_si512(qq, _mm512_loadu_si512((const void *)t)));
            __m512i p1 = _mm512_popcnt_epi64(_mm512_xor_si512(qq, _mm512_loadu_si512((const void *)(t + 8))));
            __m512i p2 = _mm512_popcnt_epi64(_mm512_xor_si512(qq, _mm512_loadu_si512((const void *)(t + 16))));
            __m512i p3 = _mm512_popcnt_epi64(_mm512_xor_si512(qq, _mm512_loadu_si512((const void *)(t + 24))));
            // Pair sums per 128-bit block: r0 block k = [p0 pair k, p1 pair k].
            __m512i r0 = _mm512_add_epi64(_mm512_unpacklo_epi64(p0, p1), _mm512_unpackhi_epi64(p0, p1));
            __m512i r1 = _mm512_add_epi64(_mm512_unpacklo_epi64(p2, p3), _mm512_unpackhi_epi64(p2, p3));
            // Blocks 0+1 and 2+3 of each: descriptors (j, j+2 | j+1, j+3 | j+4, j+6 | j+5, j+7).
            __m512i x = _mm512_shuffle_i64x2(r0, r1, 0x88), y = _mm512_shuffle_i64x2(r0, r1, 0xDD);
            __m256i d = _mm512_cvtepi64_epi32(_mm512_permutexvar_epi64(order, _mm512_add_epi64(x, y)));
            // Per lane, as the sequential loop: d < best → second = best, best = d; else second = min.
            __m256i lt = _mm256_cmpgt_epi32(vb, d);
            vs = _mm256_blendv_epi8(_mm256_min_epi32(vs, d), vb, lt);
            vb = _mm256_blendv_epi8(vb, d, lt);
            vbi = _mm256_blendv_epi8(vbi, _mm256_add_epi32(lane, _mm256_set1_epi32((int32_t)j)), lt);
            // Per train: strictly nearer than any earlier query.
            __m256i tb = _mm256_loadu_si256((const __m256i *)(train_best + j));
            __m256i tq = _mm256_loadu_si256((const __m256i *)(train_best_query + j));
            __m256i nearer = _mm256_cmpgt_epi32(tb, d);
            _mm256_storeu_si256((__m256i *)(train_best + j), _mm256_blendv_epi8(tb, d, nearer));
            _mm256_storeu_si256((__m256i *)(train_best_query + j), _mm256_blendv_epi8(tq, vi, nearer));
        }
        int32_t lb[8], ls[8], li[8];
        _mm256_storeu_si256((__m256i *)lb, vb);
        _mm256_storeu_si256((__m256i *)ls, vs);
        _mm256_storeu_si256((__m256i *)li, vbi);
        // Merge the lanes: best = smallest lane best, lowest index among lanes with it; second =
        // the second smallest of the lane bests (duplicates count) or a lane's second if smaller.
        int32_t b = INT32_MAX, sec = INT32_MAX, bi = -1;
        for (int l = 0; l < 8; l++) {
            if (lb[l] < b || (lb[l] == b && li[l] < bi)) { sec = b < sec ? b : sec; b = lb[l]; bi = li[l]; }
            else if (lb[l] < sec) sec = lb[l];
            if (ls[l] < sec) sec = ls[l];
        }
        if (bi < 0) { b = INT32_MAX; sec = INT32_MAX; }
        for (ptrdiff_t j = vector_end; j < nt; j++) {
            const uint64_t *t = train + 4 * j;
            int32_t dj = (int32_t)(__builtin_popcountll(q[0] ^ t[0]) + __builtin_popcountll(q[1] ^ t[1]) +
                                   __builtin_popcountll(q[2] ^ t[2]) + __builtin_popcountll(q[3] ^ t[3]));
            if (dj < b) { sec = b; b = dj; bi = (int32_t)j; } else if (dj < sec) { sec = dj; }
            if (dj < train_best[j]) { train_best[j] = dj; train_best_query[j] = (int32_t)i; }
        }
        best[i] = b; second[i] = sec; best_index[i] = bi;
    }
}
#endif

void pxl_hamming_match(const uint64_t *query, ptrdiff_t nq, const uint64_t *train, ptrdiff_t nt,
                       int32_t *best, int32_t *second, int32_t *best_index,
                       int32_t *train_best, int32_t *train_best_query) {
#ifdef PXL_X86
    if (PXL_HAS_VPOPCNT()) {
        pxl_hamming_vpopcnt(query, nq, train, nt, best, second, best_index, train_best, train_best_query);
        return;
    }
    if (PXL_HAS_POPCNT()) {
        pxl_hamming_popcnt(query, nq, train, nt, best, second, best_index, train_best, train_best_query);
        return;
    }
#endif
    PXL_MATCH_BODY(__builtin_popcountll)
}

// ---------------------------------------------------------------------------------------------
// Intensity-centroid moments

static void pxl_moments_one(const float *image, ptrdiff_t w, int64_t centre, ptrdiff_t radius, const ptrdiff_t *half_widths,
                            float *m10_out, float *m01_out) {
    float m10 = 0.0f, m01 = 0.0f;
    for (ptrdiff_t dy = -radius; dy <= radius; dy++) {
        ptrdiff_t half = half_widths[dy < 0 ? -dy : dy];
        const float *row = image + centre + dy * w;
        float row_sum = 0.0f;
        for (ptrdiff_t dx = -half; dx <= half; dx++) {
            float v = row[dx];
            m10 += (float)dx * v;
            row_sum += v;
        }
        m01 += (float)dy * row_sum;
    }
    *m10_out = m10;
    *m01_out = m01;
}

#ifdef PXL_X86
/// Eight patches at once, one per lane: each lane runs exactly the scalar sequence of operations.
__attribute__((target("avx2"))) static void pxl_moments_avx2(const float *image, ptrdiff_t w, const int64_t *centres, ptrdiff_t radius,
                                                              const ptrdiff_t *half_widths, float *m10_out, float *m01_out) {
    __m256i base = _mm256_setr_epi32((int)centres[0], (int)centres[1], (int)centres[2], (int)centres[3],
                                     (int)centres[4], (int)centres[5], (int)centres[6], (int)centres[7]);
    __m256 m10 = _mm256_setzero_ps(), m01 = _mm256_setzero_ps();
    for (ptrdiff_t dy = -radius; dy <= radius; dy++) {
        ptrdiff_t half = half_widths[dy < 0 ? -dy : dy];
        __m256i row = _mm256_add_epi32(base, _mm256_set1_epi32((int)(dy * w)));
        __m256 row_sum = _mm256_setzero_ps();
        for (ptrdiff_t dx = -half; dx <= half; dx++) {
            __m256 v = _mm256_i32gather_ps(image, _mm256_add_epi32(row, _mm256_set1_epi32((int)dx)), 4);
            m10 = _mm256_add_ps(m10, _mm256_mul_ps(_mm256_set1_ps((float)dx), v));
            row_sum = _mm256_add_ps(row_sum, v);
        }
        m01 = _mm256_add_ps(m01, _mm256_mul_ps(_mm256_set1_ps((float)dy), row_sum));
    }
    _mm256_storeu_ps(m10_out, m10);
    _mm256_storeu_ps(m01_out, m01);
}
#endif

void pxl_patch_moments(const float *image, ptrdiff_t w, ptrdiff_t pixel_count, const int64_t *centres, ptrdiff_t count,
                       ptrdiff_t radius, const ptrdiff_t *half_widths, float *m10, float *m01) {
    ptrdiff_t i = 0;
#ifdef PXL_X86
    // 32-bit gather indices: the whole image must be addressable by them.
    if (PXL_HAS_AVX2() && pixel_count < ((ptrdiff_t)1 << 31))
        for (; i + 8 <= count; i += 8) pxl_moments_avx2(image, w, centres + i, radius, half_widths, m10 + i, m01 + i);
#else
    (void)pixel_count;
#endif
    for (; i < count; i++) pxl_moments_one(image, w, centres[i], radius, half_widths, m10 + i, m01 + i);
}

// ---------------------------------------------------------------------------------------------
// Selection

static inline void pxl_swap(uint64_t *a, uint64_t *b) { uint64_t t = *a; *a = *b; *b = t; }

/// Max-heap sift of keys[i] within keys[0..<n].
static void pxl_sift_down(uint64_t *keys, size_t i, size_t n) {
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n) return;
        if (child + 1 < n && keys[child + 1] > keys[child]) child++;
        if (keys[i] >= keys[child]) return;
        pxl_swap(&keys[i], &keys[child]);
        i = child;
    }
}

void pxl_sort_smallest(uint64_t *keys, size_t n, size_t k) {
    if (k > n) k = n;
    if (k == 0) return;
    if (k < n) {
        // Quickselect (median of three, Lomuto on distinct keys) until the k smallest lead.
        size_t lo = 0, hi = n - 1;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (keys[mid] < keys[lo]) pxl_swap(&keys[mid], &keys[lo]);
            if (keys[hi] < keys[lo]) pxl_swap(&keys[hi], &keys[lo]);
            if (keys[hi] < keys[mid]) pxl_swap(&keys[hi], &keys[mid]);
            pxl_swap(&keys[mid], &keys[hi]);  // pivot (the median) at hi
            uint64_t pivot = keys[hi];
            size_t store = lo;
            for (size_t i = lo; i < hi; i++)
                if (keys[i] < pivot) pxl_swap(&keys[i], &keys[store++]);
            pxl_swap(&keys[store], &keys[hi]);
            // keys[store] is now in its sorted place.
            if (store == k - 1 || store == k) break;
            if (store > k) hi = store - 1;
            else lo = store + 1;
        }
    }
    // Heap sort of the first k (no allocation, O(k log k)).
    for (size_t start = k / 2; start-- > 0;) pxl_sift_down(keys, start, k);
    for (size_t end = k; end-- > 1;) {
        pxl_swap(&keys[0], &keys[end]);
        pxl_sift_down(keys, 0, end);
    }
}

// ---------------------------------------------------------------------------------------------
// Separable filter, fused

void pxl_filter_separable(const float *src, ptrdiff_t w, ptrdiff_t h, const float *weights, ptrdiff_t taps,
                          const ptrdiff_t *row_starts, const ptrdiff_t *columns, const ptrdiff_t *tap_starts,
                          float *row_scratch, float *pad_scratch, float *out) {
    for (ptrdiff_t y = 0; y < h; y++) {
        pxl_weighted_sum(src, row_starts + y * taps, weights, taps, w, row_scratch);
        pxl_filter_horizontal(row_scratch, w, 1, weights, taps, columns, tap_starts, pad_scratch, out + y * w);
    }
}

// ---------------------------------------------------------------------------------------------
// Separable filter, marked tiles only

#ifdef PXL_X86
__attribute__((target("avx2"))) static void pxl_zero_avx2(float *p, size_t n) {
    const __m256 zero = _mm256_setzero_ps();
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        _mm256_storeu_ps(p + i, zero); _mm256_storeu_ps(p + i + 8, zero);
        _mm256_storeu_ps(p + i + 16, zero); _mm256_storeu_ps(p + i + 24, zero);
    }
    for (; i < n; i++) p[i] = 0.0f;
}
#endif

/// p[0 ..< n] = 0 with vector stores (glibc's memset of large blocks is `rep stosb`, which
/// callgrind counts per byte; the stores are as fast).
static void pxl_zero(float *p, size_t n) {
#ifdef PXL_X86
    if (PXL_HAS_AVX2()) { pxl_zero_avx2(p, n); return; }
#endif
    memset(p, 0, sizeof(float) * n);
}

/// The horizontal pass of one row (the vertical pass in `row`, valid wherever the outputs
/// [x0, x1) read it) for outputs [x0, x1) only, each as pxl_filter_horizontal computes it: in place
/// from column r to w − r − 1, through the reflected copy (`pad`, 3r floats) within r of an end.
static void pxl_filter_horizontal_span(const float *row, ptrdiff_t w, const float *weights, ptrdiff_t taps, const ptrdiff_t *columns,
                                       const ptrdiff_t *tap_starts, float *pad, ptrdiff_t x0, ptrdiff_t x1, float *o) {
    ptrdiff_t r = (taps - 1) / 2;
    ptrdiff_t a = x0 > r ? x0 : r, b = x1 < w - r ? x1 : w - r;
    if (b > a) pxl_weighted_sum(row + a - r, tap_starts, weights, taps, b - a, o + a);
    float end[16];
    if (x0 < r) {
        for (ptrdiff_t i = 0; i < 3 * r; i++) pad[i] = row[columns[i]];
        pxl_weighted_sum(pad, tap_starts, weights, taps, r, end);
        for (ptrdiff_t x = x0; x < x1 && x < r; x++) o[x] = end[x];
    }
    if (x1 > w - r) {
        for (ptrdiff_t i = 0; i < 3 * r; i++) pad[i] = row[columns[w - r + i]];
        pxl_weighted_sum(pad, tap_starts, weights, taps, r, end);
        for (ptrdiff_t x = x0 > w - r ? x0 : w - r; x < x1; x++) o[x] = end[x - (w - r)];
    }
}

void pxl_filter_separable_tiles(const float *src, ptrdiff_t w, ptrdiff_t h, const float *weights, ptrdiff_t taps,
                                const ptrdiff_t *row_starts, const ptrdiff_t *columns, const ptrdiff_t *tap_starts, const uint8_t *tiles,
                                int clear, float *row_scratch, float *pad_scratch, float *out) {
    ptrdiff_t r = (taps - 1) / 2, tw = (w + 7) / 8;
    if (r > 16 || w < 2 * r + 1) {
        // Outside what the spans handle (an end piece longer than 16, or a row shorter than the
        // kernel): every row whole, then the unmarked tiles cleared.
        pxl_filter_separable(src, w, h, weights, taps, row_starts, columns, tap_starts, row_scratch, pad_scratch, out);
        for (ptrdiff_t y = 0; y < h && clear; y++)
            for (ptrdiff_t t = 0; t < tw; t++)
                if (!tiles[(y / 8) * tw + t])
                    memset(out + y * w + 8 * t, 0, sizeof(float) * (size_t)((8 * t + 8 < w ? 8 * t + 8 : w) - 8 * t));
        return;
    }
    for (ptrdiff_t ty = 0; 8 * ty < h; ty++) {
        const uint8_t *marks = tiles + ty * tw;
        ptrdiff_t ya = 8 * ty, yb = 8 * ty + 8 < h ? 8 * ty + 8 : h;
        // The tile row's unmarked pixels are 0 (when asked): clear its rows (contiguous) at once.
        if (clear) pxl_zero(out + ya * w, (size_t)((yb - ya) * w));
        ptrdiff_t t = 0;
        while (t < tw) {
            if (!marks[t]) { t++; continue; }
            ptrdiff_t t0 = t;
            while (t < tw && marks[t]) t++;
            ptrdiff_t x0 = 8 * t0, x1 = 8 * t < w ? 8 * t : w;
            // The vertical pass over the columns these outputs read: ±r around them (widened to
            // whole vectors where the image allows: any column's value is the same), and the first
            // or last 2r columns where the reflected ends are involved.
            ptrdiff_t va = x0 - r, vb = x1 + r;
            ptrdiff_t slack = (8 - (vb - va) % 8) % 8;
            va -= slack / 2;
            vb += slack - slack / 2;
            if (x0 < r) { va = 0; if (vb < 2 * r) vb = 2 * r; }
            if (x1 > w - r) { vb = w; if (va > w - 2 * r) va = w - 2 * r; }
            if (va < 0) va = 0;
            if (vb > w) vb = w;
            for (ptrdiff_t y = ya; y < yb; y++) {
                pxl_weighted_sum(src + va, row_starts + y * taps, weights, taps, vb - va, row_scratch + va);
                pxl_filter_horizontal_span(row_scratch, w, weights, taps, columns, tap_starts, pad_scratch, x0, x1, out + y * w);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Harris structure tensor

static void pxl_harris_one(const float *p, ptrdiff_t w, int64_t centre, float *a_out, float *b_out, float *c_out) {
    float a = 0.0f, b = 0.0f, c = 0.0f;
    for (ptrdiff_t v = -3; v <= 3; v++) {
        for (ptrdiff_t u = -3; u <= 3; u++) {
            ptrdiff_t i = centre + v * w + u;
            float dx = (p[i - w + 1] + 2.0f * p[i + 1] + p[i + w + 1]) - (p[i - w - 1] + 2.0f * p[i - 1] + p[i + w - 1]);
            float dy = (p[i + w - 1] + 2.0f * p[i + w] + p[i + w + 1]) - (p[i - w - 1] + 2.0f * p[i - w] + p[i - w + 1]);
            a += dx * dx;
            b += dy * dy;
            c += dx * dy;
        }
    }
    *a_out = a; *b_out = b; *c_out = c;
}

#ifdef PXL_X86
/// Eight windows at once, one per lane, each in the order of one window alone.
__attribute__((target("avx2"))) static void pxl_harris_avx2(const float *p, ptrdiff_t w, const int64_t *centres, float *a_out, float *b_out,
                                                             float *c_out) {
    const __m256i base = _mm256_setr_epi32((int)centres[0], (int)centres[1], (int)centres[2], (int)centres[3],
                                           (int)centres[4], (int)centres[5], (int)centres[6], (int)centres[7]);
    const __m256 two = _mm256_set1_ps(2.0f);
    const int iw = (int)w;
    __m256 a = _mm256_setzero_ps(), b = a, c = a;
    for (int v = -3; v <= 3; v++) {
        for (int u = -3; u <= 3; u++) {
            __m256i i = _mm256_add_epi32(base, _mm256_set1_epi32(v * iw + u));
#define PXL_AT(OFFSET) _mm256_i32gather_ps(p, _mm256_add_epi32(i, _mm256_set1_epi32(OFFSET)), 4)
            __m256 nw = PXL_AT(-iw - 1), n = PXL_AT(-iw), ne = PXL_AT(-iw + 1), west = PXL_AT(-1), east = PXL_AT(1);
            __m256 sw = PXL_AT(iw - 1), s = PXL_AT(iw), se = PXL_AT(iw + 1);
#undef PXL_AT
            __m256 dx = _mm256_sub_ps(_mm256_add_ps(_mm256_add_ps(ne, _mm256_mul_ps(two, east)), se),
                                      _mm256_add_ps(_mm256_add_ps(nw, _mm256_mul_ps(two, west)), sw));
            __m256 dy = _mm256_sub_ps(_mm256_add_ps(_mm256_add_ps(sw, _mm256_mul_ps(two, s)), se),
                                      _mm256_add_ps(_mm256_add_ps(nw, _mm256_mul_ps(two, n)), ne));
            a = _mm256_add_ps(a, _mm256_mul_ps(dx, dx));
            b = _mm256_add_ps(b, _mm256_mul_ps(dy, dy));
            c = _mm256_add_ps(c, _mm256_mul_ps(dx, dy));
        }
    }
    _mm256_storeu_ps(a_out, a);
    _mm256_storeu_ps(b_out, b);
    _mm256_storeu_ps(c_out, c);
}
#endif

void pxl_harris_sums(const float *image, ptrdiff_t w, ptrdiff_t pixel_count, const int64_t *centres, ptrdiff_t count,
                     float *a, float *b, float *c) {
    ptrdiff_t i = 0;
#ifdef PXL_X86
    // 32-bit gather indices: the whole image must be addressable by them.
    if (PXL_HAS_AVX2() && pixel_count < ((ptrdiff_t)1 << 31))
        for (; i + 8 <= count; i += 8) pxl_harris_avx2(image, w, centres + i, a + i, b + i, c + i);
#else
    (void)pixel_count;
#endif
    for (; i < count; i++) pxl_harris_one(image, w, centres[i], a + i, b + i, c + i);
}
