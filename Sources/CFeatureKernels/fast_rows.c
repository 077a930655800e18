// FAST-9 segment test, one row at a time (issue 47). See fast_rows.h.
//
// On SIMD paths two stages: an exact 8-bit prefilter, then the float segment test only where the
// prefilter passed. With q = floor(v) and T = floor(threshold) ≥ 1, on pixels in [0, 256):
//   v > fl(c + t)  ⇒  q(v) ≥ q(c) + T   (fl(c + t) ≥ q(c) + T, which is exact, and v < q(v) + 1)
//   v < fl(c − t)  ⇒  q(v) ≤ q(c) − T   (fl(c − t) ≤ q(c) + 1 − T, exact, and q(v) ≤ v)
// so every circle pixel the float test counts, the 8-bit test counts too (NaN pixels the float
// test never counts): a pixel without an 8-bit arc has no float arc. The 8-bit test runs on 32
// (AVX2) or 64 (AVX-512) pixels per instruction; its survivors (≈ 2 % of pixels) get the float
// test, whose scores are the ones written. Rows are quantized as the test reaches them; a row
// whose 7-row neighbourhood holds a value outside [0, 256), and thresholds below 1 or from 128
// on, take the float test alone (the same scores).
#include "fast_rows.h"

#include "parallax_feature_kernels.h"

#include <math.h>
#include <string.h>

// One pixel's arithmetic must stay exactly as written: never fuse a multiply and an add.
#pragma clang fp contract(off)

#if defined(__x86_64__) || defined(__i386__)
#define PXL_X86 1
#include <immintrin.h>
#endif

// ---------------------------------------------------------------------------------------------
// The float segment test, one pixel

static inline int pxl_has_arc(uint32_t mask) {
    uint32_t m = mask | mask << 16, run = m;
    for (int k = 1; k < 9; k++) run &= m >> k;
    return run != 0;
}

/// Swift's `max(x, 0)`: `0 >= x ? 0 : x` (NaN stays NaN).
static inline float pxl_max0(float x) { return 0.0f >= x ? 0.0f : x; }

static inline float pxl_fast_pixel(const float *p, const ptrdiff_t *off, float threshold) {
    float c = p[0], hi = c + threshold, lo = c - threshold;
    float n = p[off[0]], e = p[off[4]], s = p[off[8]], wv = p[off[12]];
    int brighter = (n > hi) + (e > hi) + (s > hi) + (wv > hi);
    int darker = (n < lo) + (e < lo) + (s < lo) + (wv < lo);
    if (brighter < 2 && darker < 2) return 0.0f;
    uint32_t bright = 0, dark = 0;
    float score = 0.0f;
    for (int k = 0; k < 16; k++) {
        float v = p[off[k]];
        bright |= (uint32_t)(v > hi) << k;
        dark |= (uint32_t)(v < lo) << k;
        score += pxl_max0(v - hi) + pxl_max0(lo - v);
    }
    return (pxl_has_arc(bright) || pxl_has_arc(dark)) ? score : 0.0f;
}

/// Columns [x, x1) of a row on the portable test.
static size_t pxl_fast_row_portable(const pxl_fast_rows *r, ptrdiff_t row, ptrdiff_t x, float *dst, int32_t *xs, size_t n) {
    for (; x < r->x1; x++) {
        float s = pxl_fast_pixel(r->image + row + x, r->off, r->threshold);
        if (!(s == 0.0f)) { dst[x] = s; xs[n++] = (int32_t)x; }
    }
    return n;
}

/// Which of the pixels whose circles give the masks m[0…15] (bit i: pixel i's circle pixel k
/// counts) have 9 contiguous counted circle pixels, wrapping. With e[j] = m[2j] & m[2j+1], every
/// 9-arc is e[j] & … & e[j+3] (positions 2j … 2j+7) plus position 2j+8 or 2j−1.
static inline uint64_t pxl_arc9_masks(const uint64_t m[16]) {
    uint64_t e[8], end[8], g[8], arc = 0;
    for (int j = 0; j < 8; j++) {
        e[j] = m[2 * j] & m[2 * j + 1];
        end[j] = m[(2 * j + 8) & 15] | m[(2 * j + 15) & 15];
    }
    for (int j = 0; j < 8; j++) g[j] = e[j] & e[(j + 1) & 7];
    for (int j = 0; j < 8; j++) arc |= g[j] & g[(j + 2) & 7] & end[j];
    return arc;
}

#ifdef PXL_X86
// ---------------------------------------------------------------------------------------------
// The float segment test, eight pixels (AVX2)

/// The scores of the eight pixels at `p` (0 where the segment test fails), each lane exactly
/// pxl_fast_pixel: the 16 comparisons as bit masks, the arc test by doubling runs, the score
/// summed in circle order.
__attribute__((target("avx2"), always_inline)) static inline __m256 pxl_fast8_avx2(const float *p, const ptrdiff_t *off, __m256 hi, __m256 lo) {
    const __m256 zero = _mm256_setzero_ps();
    const __m256i izero = _mm256_setzero_si256();
    __m256i bright = izero, dark = izero;
#pragma clang loop unroll(full)
    for (int k = 0; k < 16; k++) {
        __m256 v = _mm256_loadu_ps(p + off[k]);
        __m256i bit = _mm256_set1_epi32(1 << k);
        bright = _mm256_or_si256(bright, _mm256_and_si256(_mm256_castps_si256(_mm256_cmp_ps(v, hi, _CMP_GT_OQ)), bit));
        dark = _mm256_or_si256(dark, _mm256_and_si256(_mm256_castps_si256(_mm256_cmp_ps(v, lo, _CMP_LT_OQ)), bit));
    }
    // 9 contiguous set bits (wrapping): runs of 2, 4, 8, then one more.
    __m256i mb = _mm256_or_si256(bright, _mm256_slli_epi32(bright, 16)), md = _mm256_or_si256(dark, _mm256_slli_epi32(dark, 16));
    __m256i rb = _mm256_and_si256(mb, _mm256_srli_epi32(mb, 1)), rd = _mm256_and_si256(md, _mm256_srli_epi32(md, 1));
    rb = _mm256_and_si256(rb, _mm256_srli_epi32(rb, 2)); rd = _mm256_and_si256(rd, _mm256_srli_epi32(rd, 2));
    rb = _mm256_and_si256(rb, _mm256_srli_epi32(rb, 4)); rd = _mm256_and_si256(rd, _mm256_srli_epi32(rd, 4));
    rb = _mm256_and_si256(rb, _mm256_srli_epi32(mb, 8)); rd = _mm256_and_si256(rd, _mm256_srli_epi32(md, 8));
    __m256i none = _mm256_and_si256(_mm256_cmpeq_epi32(rb, izero), _mm256_cmpeq_epi32(rd, izero));
    if (_mm256_testc_si256(none, _mm256_set1_epi32(-1))) return zero;
    // The score only where some lane is a corner: summed in circle order, per lane.
    __m256 score = zero;
#pragma clang loop unroll(full)
    for (int k = 0; k < 16; k++) {
        __m256 v = _mm256_loadu_ps(p + off[k]);
        // max(0, x) returns x when either is NaN, as Swift's max(x, 0); a −0 term cannot reach
        // the sum's sign (the sum starts at +0).
        __m256 a = _mm256_max_ps(zero, _mm256_sub_ps(v, hi)), b = _mm256_max_ps(zero, _mm256_sub_ps(lo, v));
        score = _mm256_add_ps(score, _mm256_add_ps(a, b));
    }
    return _mm256_andnot_ps(_mm256_castsi256_ps(none), score);
}

/// Writes the eight scores at dst[x …] and lists the columns whose score is not 0.
__attribute__((target("avx2"), always_inline)) static inline size_t pxl_emit8_avx2(__m256 score, ptrdiff_t x, float *dst, int32_t *xs, size_t n) {
    unsigned nonzero = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(score, _mm256_setzero_ps(), _CMP_NEQ_UQ));
    if (!nonzero) return n;
    _mm256_storeu_ps(dst + x, score);
    while (nonzero) {
        xs[n++] = (int32_t)(x + __builtin_ctz(nonzero));
        nonzero &= nonzero - 1;
    }
    return n;
}

/// Columns [x, x1) of a row on floats alone: an exact rejection (a 9-arc always holds two
/// neighbouring compass pixels of one kind), then pxl_fast8_avx2; the last few columns portable.
__attribute__((target("avx2"))) static size_t pxl_fast_row_float_avx2(const pxl_fast_rows *r, ptrdiff_t row, ptrdiff_t x, float *dst,
                                                                       int32_t *xs, size_t n) {
    const __m256 t = _mm256_set1_ps(r->threshold);
    const ptrdiff_t *off = r->off;
    for (; x + 8 <= r->x1; x += 8) {
        const float *p = r->image + row + x;
        __m256 c = _mm256_loadu_ps(p), hi = _mm256_add_ps(c, t), lo = _mm256_sub_ps(c, t);
        __m256 v0 = _mm256_loadu_ps(p + off[0]), v4 = _mm256_loadu_ps(p + off[4]);
        __m256 v8 = _mm256_loadu_ps(p + off[8]), v12 = _mm256_loadu_ps(p + off[12]);
        __m256 b0 = _mm256_cmp_ps(v0, hi, _CMP_GT_OQ), b4 = _mm256_cmp_ps(v4, hi, _CMP_GT_OQ);
        __m256 b8 = _mm256_cmp_ps(v8, hi, _CMP_GT_OQ), b12 = _mm256_cmp_ps(v12, hi, _CMP_GT_OQ);
        __m256 d0 = _mm256_cmp_ps(v0, lo, _CMP_LT_OQ), d4 = _mm256_cmp_ps(v4, lo, _CMP_LT_OQ);
        __m256 d8 = _mm256_cmp_ps(v8, lo, _CMP_LT_OQ), d12 = _mm256_cmp_ps(v12, lo, _CMP_LT_OQ);
        // (b0|b8)&(b4|b12) is exactly "some neighbouring pair": every pair of one from {0, 8} and
        // one from {4, 12} is a neighbouring pair.
        __m256 pb = _mm256_and_ps(_mm256_or_ps(b0, b8), _mm256_or_ps(b4, b12));
        __m256 pd = _mm256_and_ps(_mm256_or_ps(d0, d8), _mm256_or_ps(d4, d12));
        __m256 pass = _mm256_or_ps(pb, pd);
        if (_mm256_testz_ps(pass, pass)) continue;
        n = pxl_emit8_avx2(pxl_fast8_avx2(p, off, hi, lo), x, dst, xs, n);
    }
    return pxl_fast_row_portable(r, row, x, dst, xs, n);
}

// ---------------------------------------------------------------------------------------------
// The 8-bit prefilter

/// q[i] = floor(src[i]) − 128 as int8 for src[i] in [0, 256) (anything for other values); returns
/// 1 when no value outside [0, 256) but NaN occurs.
__attribute__((target("avx2"))) static int pxl_quantize_avx2(const float *src, size_t n, int8_t *q) {
    __m256 vmin = _mm256_set1_ps(INFINITY), vmax = _mm256_set1_ps(-INFINITY);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7), bias = _mm256_set1_epi8((char)0x80);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256 a = _mm256_loadu_ps(src + i), b = _mm256_loadu_ps(src + i + 8);
        __m256 c = _mm256_loadu_ps(src + i + 16), d = _mm256_loadu_ps(src + i + 24);
        // min(v, acc) and max(v, acc) return acc when v is NaN: NaN pixels are ignored.
        vmin = _mm256_min_ps(a, vmin); vmin = _mm256_min_ps(b, vmin); vmin = _mm256_min_ps(c, vmin); vmin = _mm256_min_ps(d, vmin);
        vmax = _mm256_max_ps(a, vmax); vmax = _mm256_max_ps(b, vmax); vmax = _mm256_max_ps(c, vmax); vmax = _mm256_max_ps(d, vmax);
        // Truncation is floor on [0, 256); the packs saturate, the permute undoes their lane order.
        __m256i ab = _mm256_packs_epi32(_mm256_cvttps_epi32(a), _mm256_cvttps_epi32(b));
        __m256i cd = _mm256_packs_epi32(_mm256_cvttps_epi32(c), _mm256_cvttps_epi32(d));
        __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(ab, cd), order);
        _mm256_storeu_si256((__m256i *)(q + i), _mm256_xor_si256(bytes, bias));
    }
    float lo[8], hi[8];
    _mm256_storeu_ps(lo, vmin);
    _mm256_storeu_ps(hi, vmax);
    int ok = 1;
    for (int k = 0; k < 8; k++) ok &= lo[k] >= 0.0f && hi[k] < 256.0f;
    for (; i < n; i++) {
        float v = src[i];
        if (v < 0.0f || v >= 256.0f) ok = 0;
        q[i] = (int8_t)((v >= 0.0f && v < 256.0f ? (int)v : 0) - 128);
    }
    return ok;
}

/// Lanes (0xff) of the 32 pixels at `pq` with 9 contiguous circle pixels above `hi` (dark = 0)
/// or below `lo` (dark = 1), wrapping: pxl_arc9_masks on vectors.
__attribute__((target("avx2"), always_inline)) static inline __m256i pxl_arc9_bytes(const int8_t *pq, const ptrdiff_t *off, __m256i hi,
                                                                                   __m256i lo, int dark) {
    __m256i m[16];
#pragma clang loop unroll(full)
    for (int k = 0; k < 16; k++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(pq + off[k]));
        m[k] = dark ? _mm256_cmpgt_epi8(lo, v) : _mm256_cmpgt_epi8(v, hi);
    }
    __m256i e[8], end[8];
#pragma clang loop unroll(full)
    for (int j = 0; j < 8; j++) {
        e[j] = _mm256_and_si256(m[2 * j], m[2 * j + 1]);
        end[j] = _mm256_or_si256(m[(2 * j + 8) & 15], m[(2 * j + 15) & 15]);
    }
    __m256i g[8], arc = _mm256_setzero_si256();
#pragma clang loop unroll(full)
    for (int j = 0; j < 8; j++) g[j] = _mm256_and_si256(e[j], e[(j + 1) & 7]);
#pragma clang loop unroll(full)
    for (int j = 0; j < 8; j++) arc = _mm256_or_si256(arc, _mm256_and_si256(_mm256_and_si256(g[j], g[(j + 2) & 7]), end[j]));
    return arc;
}

/// Columns [x, x1) of a row whose 7-row neighbourhood is quantized and in range: the 8-bit test
/// on 32 pixels at a time (the compass rejection, then the arc test on all 16), the float test
/// (pxl_fast8_avx2) on each eight of them holding an 8-bit corner; the rest (fewer than 32) on
/// floats alone.
__attribute__((target("avx2"))) static size_t pxl_fast_row_q_avx2(const pxl_fast_rows *r, ptrdiff_t row, ptrdiff_t x, float *dst, int32_t *xs,
                                                                   size_t n) {
    const __m256 t = _mm256_set1_ps(r->threshold);
    const __m256i vt = _mm256_set1_epi8((char)r->steps);
    const ptrdiff_t *ring = r->off;
    for (; x + 32 <= r->x1; x += 32) {
        const int8_t *pq = r->q + row + x;
        // Saturating: a bound beyond the range admits no pixel (bright: q > c + T − 1; dark: q < c − T + 1).
        __m256i c = _mm256_loadu_si256((const __m256i *)pq);
        __m256i hi = _mm256_adds_epi8(c, vt), lo = _mm256_subs_epi8(c, vt);
        __m256i v0 = _mm256_loadu_si256((const __m256i *)(pq + ring[0])), v4 = _mm256_loadu_si256((const __m256i *)(pq + ring[4]));
        __m256i v8 = _mm256_loadu_si256((const __m256i *)(pq + ring[8])), v12 = _mm256_loadu_si256((const __m256i *)(pq + ring[12]));
        __m256i pb = _mm256_and_si256(_mm256_or_si256(_mm256_cmpgt_epi8(v0, hi), _mm256_cmpgt_epi8(v8, hi)),
                                      _mm256_or_si256(_mm256_cmpgt_epi8(v4, hi), _mm256_cmpgt_epi8(v12, hi)));
        __m256i pd = _mm256_and_si256(_mm256_or_si256(_mm256_cmpgt_epi8(lo, v0), _mm256_cmpgt_epi8(lo, v8)),
                                      _mm256_or_si256(_mm256_cmpgt_epi8(lo, v4), _mm256_cmpgt_epi8(lo, v12)));
        unsigned mask = 0;
        if (!_mm256_testz_si256(pb, pb)) mask = (unsigned)_mm256_movemask_epi8(pxl_arc9_bytes(pq, ring, hi, lo, 0));
        if (!_mm256_testz_si256(pd, pd)) mask |= (unsigned)_mm256_movemask_epi8(pxl_arc9_bytes(pq, ring, hi, lo, 1));
        for (; mask; mask &= ~(0xffu << (__builtin_ctz(mask) & ~7))) {
            ptrdiff_t xs8 = x + (__builtin_ctz(mask) & ~7);
            const float *p = r->image + row + xs8;
            __m256 cf = _mm256_loadu_ps(p);
            n = pxl_emit8_avx2(pxl_fast8_avx2(p, ring, _mm256_add_ps(cf, t), _mm256_sub_ps(cf, t)), xs8, dst, xs, n);
        }
    }
    return pxl_fast_row_float_avx2(r, row, x, dst, xs, n);
}

// ---------------------------------------------------------------------------------------------
// AVX-512 (F + BW): 64 pixels per 8-bit comparison, 16 per float one, the arc test on the
// comparison masks in general registers

#define PXL_AVX512 __attribute__((target("avx2,avx512f,avx512bw,avx512vl,bmi,popcnt")))

/// The float test of the 16 pixels at `p` (pxl_fast_pixel in each lane), written at dst[x …] and
/// listed where not 0.
PXL_AVX512 static inline size_t pxl_fast16_avx512(const float *p, const ptrdiff_t *off, __m512 t, ptrdiff_t x, float *dst, int32_t *xs,
                                                  size_t n) {
    const __m512 zero = _mm512_setzero_ps();
    __m512 c = _mm512_loadu_ps(p), hi = _mm512_add_ps(c, t), lo = _mm512_sub_ps(c, t);
    // Both kinds in one word: bright in bits 0 … 15, dark in bits 16 … 31.
    uint64_t m[16];
#pragma clang loop unroll(full)
    for (int k = 0; k < 16; k++) {
        __m512 v = _mm512_loadu_ps(p + off[k]);
        m[k] = (uint64_t)_mm512_cmp_ps_mask(v, hi, _CMP_GT_OQ) | (uint64_t)_mm512_cmp_ps_mask(v, lo, _CMP_LT_OQ) << 16;
    }
    uint64_t arc = pxl_arc9_masks(m);
    __mmask16 corner = (__mmask16)(arc | arc >> 16);
    if (!corner) return n;
    __m512 score = zero;
#pragma clang loop unroll(full)
    for (int k = 0; k < 16; k++) {
        __m512 v = _mm512_loadu_ps(p + off[k]);
        // As pxl_fast8_avx2: max(0, x) returns x when either is NaN.
        __m512 a = _mm512_max_ps(zero, _mm512_sub_ps(v, hi)), b = _mm512_max_ps(zero, _mm512_sub_ps(lo, v));
        score = _mm512_add_ps(score, _mm512_add_ps(a, b));
    }
    // A corner's score is not 0: at least 9 terms are positive (v > hi makes v − hi > 0 exactly)
    // or it is NaN. So the columns listed are the corners, known before the sum (which then does
    // not hold up the next group).
    _mm512_storeu_ps(dst + x, _mm512_maskz_mov_ps(corner, score));
    // Compressed in a register and stored whole (the compressing store is slow on some
    // processors): xs holds the columns before x and these 16 at most, so the 16 lanes fit.
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    _mm512_storeu_si512(xs + n, _mm512_maskz_compress_epi32(corner, _mm512_add_epi32(lanes, _mm512_set1_epi32((int)x))));
    return n + (size_t)__builtin_popcount(corner);
}

/// As pxl_fast_row_q_avx2 on 64 pixels at a time; the rest by pxl_fast_row_q_avx2.
PXL_AVX512 static size_t pxl_fast_row_q_avx512(const pxl_fast_rows *r, ptrdiff_t row, ptrdiff_t x, float *dst, int32_t *xs, size_t n) {
    const __m512 t = _mm512_set1_ps(r->threshold);
    const __m512i vt = _mm512_set1_epi8((char)r->steps);
    const ptrdiff_t *off = r->off;
    for (; x + 64 <= r->x1; x += 64) {
        const int8_t *pq = r->q + row + x;
        __m512i c = _mm512_loadu_si512(pq);
        __m512i hi = _mm512_adds_epi8(c, vt), lo = _mm512_subs_epi8(c, vt);
        __m512i v0 = _mm512_loadu_si512(pq + off[0]), v4 = _mm512_loadu_si512(pq + off[4]);
        __m512i v8 = _mm512_loadu_si512(pq + off[8]), v12 = _mm512_loadu_si512(pq + off[12]);
        uint64_t pb = (_mm512_cmpgt_epi8_mask(v0, hi) | _mm512_cmpgt_epi8_mask(v8, hi)) &
                      (_mm512_cmpgt_epi8_mask(v4, hi) | _mm512_cmpgt_epi8_mask(v12, hi));
        uint64_t pd = (_mm512_cmplt_epi8_mask(v0, lo) | _mm512_cmplt_epi8_mask(v8, lo)) &
                      (_mm512_cmplt_epi8_mask(v4, lo) | _mm512_cmplt_epi8_mask(v12, lo));
        if (!(pb | pd)) continue;
        uint64_t m[16], corners = 0;
        if (pb) {
#pragma clang loop unroll(full)
            for (int k = 0; k < 16; k++) m[k] = _mm512_cmpgt_epi8_mask(_mm512_loadu_si512(pq + off[k]), hi);
            corners = pxl_arc9_masks(m);
        }
        if (pd) {
#pragma clang loop unroll(full)
            for (int k = 0; k < 16; k++) m[k] = _mm512_cmplt_epi8_mask(_mm512_loadu_si512(pq + off[k]), lo);
            corners |= pxl_arc9_masks(m);
        }
        for (; corners; corners &= ~((uint64_t)0xffff << (__builtin_ctzll(corners) & ~15))) {
            ptrdiff_t x16 = x + (__builtin_ctzll(corners) & ~15);
            n = pxl_fast16_avx512(r->image + row + x16, off, t, x16, dst, xs, n);
        }
    }
    return pxl_fast_row_q_avx2(r, row, x, dst, xs, n);
}
#endif

// ---------------------------------------------------------------------------------------------
// Rows

void pxl_fast_rows_init(pxl_fast_rows *r, const float *image, ptrdiff_t w, ptrdiff_t h, ptrdiff_t border, float threshold,
                        const ptrdiff_t offsets[16], int8_t *q) {
    int features = pxl_kernels_features();
    r->image = image;
    r->w = w;
    r->h = h;
    r->x0 = border;
    r->x1 = w - border;
    r->threshold = threshold;
    r->level = (features & 8) ? 2 : (features & 1) ? 1 : 0;
    // T = floor(threshold) in 1 … 127 (the 8-bit bounds are c ± (T − 1)).
    r->q = (r->level > 0 && threshold >= 1.0f && threshold < 128.0f) ? q : NULL;
    r->steps = r->q ? (int)threshold - 1 : 0;
    for (int k = 0; k < 16; k++) r->off[k] = offsets[k];
    r->quantized = border - 3;
    r->last_invalid = -1;
}

size_t pxl_fast_row(pxl_fast_rows *r, ptrdiff_t y, float *dst, int32_t *xs) {
    ptrdiff_t row = y * r->w;
#ifdef PXL_X86
    if (r->level == 0) return pxl_fast_row_portable(r, row, r->x0, dst, xs, 0);
    if (!r->q) return pxl_fast_row_float_avx2(r, row, r->x0, dst, xs, 0);
    // Rows up to y + 3 into the 8-bit copy, noting the ones out of range.
    for (; r->quantized <= y + 3; r->quantized++) {
        ptrdiff_t k = r->quantized;
        if (!pxl_quantize_avx2(r->image + k * r->w, (size_t)r->w, r->q + k * r->w)) r->last_invalid = k;
    }
    if (r->last_invalid >= y - 3) return pxl_fast_row_float_avx2(r, row, r->x0, dst, xs, 0);
    if (r->level == 2) return pxl_fast_row_q_avx512(r, row, r->x0, dst, xs, 0);
    return pxl_fast_row_q_avx2(r, row, r->x0, dst, xs, 0);
#else
    return pxl_fast_row_portable(r, row, r->x0, dst, xs, 0);
#endif
}
