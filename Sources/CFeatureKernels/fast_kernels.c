// FAST-9 scores and the non-maximum suppression that follows them in ORB (issue 47). See
// include/parallax_feature_kernels.h.
//
// Two stages on AVX2: an exact 8-bit prefilter, then the float segment test (eight pixels per
// instruction) only where the prefilter passed. With q = floor(v) and T = floor(threshold) ≥ 1,
// on pixels in [0, 256):
//   v > fl(c + t)  ⇒  q(v) ≥ q(c) + T   (fl(c + t) ≥ q(c) + T, which is exact, and v < q(v) + 1)
//   v < fl(c − t)  ⇒  q(v) ≤ q(c) − T   (fl(c − t) ≤ q(c) + 1 − T, exact, and q(v) ≤ v)
// so every circle pixel the float test counts, the 8-bit test counts too (NaN pixels the float
// test never counts): a pixel without an 8-bit arc has no float arc. The 8-bit test runs on 32
// pixels per instruction as OpenCV's; its survivors (≈ 2 % of pixels) get the float test, whose
// scores are the ones written. Images with a value outside [0, 256), or thresholds below 1 or
// from 256 on, take the float test everywhere (the same scores).
#include "parallax_feature_kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// One pixel's arithmetic must stay exactly as written: never fuse a multiply and an add.
#pragma clang fp contract(off)

#if defined(__x86_64__) || defined(__i386__)
#define PXL_X86 1
#include <immintrin.h>
#endif

#define PXL_HAS_AVX2() (pxl_kernels_features() & 1)

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

#ifdef PXL_X86
// ---------------------------------------------------------------------------------------------
// The float segment test, eight pixels

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

/// One row of scores on floats alone: an exact rejection (a 9-arc always holds two neighbouring
/// compass pixels of one kind), then pxl_fast8_avx2.
__attribute__((target("avx2"))) static void pxl_fast_row_avx2(const float *image, ptrdiff_t row, ptrdiff_t x0, ptrdiff_t x1,
                                                               float threshold, const ptrdiff_t *off, float *out) {
    const __m256 t = _mm256_set1_ps(threshold), zero = _mm256_setzero_ps();
    ptrdiff_t x = x0;
    for (; x + 8 <= x1; x += 8) {
        const float *p = image + row + x;
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
        _mm256_storeu_ps(out + row + x, _mm256_testz_ps(pass, pass) ? zero : pxl_fast8_avx2(p, off, hi, lo));
    }
    for (; x < x1; x++) out[row + x] = pxl_fast_pixel(image + row + x, off, threshold);
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
/// or below `lo` (dark = 1), wrapping. With e[j] = m[2j] & m[2j+1], every 9-arc is
/// e[j] & … & e[j+3] (positions 2j … 2j+7) plus position 2j+8 or 2j−1; each m enters one e and one
/// of those pairs, so 16 vectors stay live.
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

/// A growing list of pixel indices (the pixels with a positive score, raster order).
typedef struct {
    int64_t *data;
    size_t count, capacity;
    int failed;  // an allocation failed: the list is incomplete
} pxl_index_list;

static void pxl_list_push(pxl_index_list *list, int64_t index) {
    if (list->failed) return;
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? 2 * list->capacity : 4096;
        int64_t *data = realloc(list->data, capacity * sizeof(int64_t));
        if (!data) { list->failed = 1; return; }
        list->data = data;
        list->capacity = capacity;
    }
    list->data[list->count++] = index;
}

/// One row: the 8-bit test on 32 pixels at a time (the compass rejection, then the arc test on
/// all 16), the float test (pxl_fast8_avx2) on each eight of them holding an 8-bit corner; the
/// rest of the row (fewer than 32) on floats alone. Positive scores go to `list` when given.
__attribute__((target("avx2"))) static void pxl_fast_row_prefiltered_avx2(const float *image, const int8_t *q, ptrdiff_t row, ptrdiff_t x0,
                                                                           ptrdiff_t x1, float threshold, int steps, const ptrdiff_t *off,
                                                                           float *out, pxl_index_list *list) {
    const __m256 t = _mm256_set1_ps(threshold), zero = _mm256_setzero_ps();
    const __m256i vt = _mm256_set1_epi8((char)steps);
    ptrdiff_t ring[16];  // a local copy: stores to `out` cannot alias it
    for (int k = 0; k < 16; k++) ring[k] = off[k];
    ptrdiff_t x = x0;
    for (; x + 32 <= x1; x += 32) {
        const int8_t *pq = q + row + x;
        float *o = out + row + x;
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
        if (!mask) {
            _mm256_storeu_ps(o, zero); _mm256_storeu_ps(o + 8, zero); _mm256_storeu_ps(o + 16, zero); _mm256_storeu_ps(o + 24, zero);
            continue;
        }
        for (int s = 0; s < 4; s++) {
            if (!(mask >> (8 * s) & 0xff)) { _mm256_storeu_ps(o + 8 * s, zero); continue; }
            const float *p = image + row + x + 8 * s;
            __m256 cf = _mm256_loadu_ps(p);
            __m256 score = pxl_fast8_avx2(p, ring, _mm256_add_ps(cf, t), _mm256_sub_ps(cf, t));
            _mm256_storeu_ps(o + 8 * s, score);
            if (list) {
                unsigned positive = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(score, zero, _CMP_GT_OQ));
                while (positive) {
                    pxl_list_push(list, row + x + 8 * s + __builtin_ctz(positive));
                    positive &= positive - 1;
                }
            }
        }
    }
    if (x < x1) {
        pxl_fast_row_avx2(image, row, x, x1, threshold, off, out);
        if (list)
            for (; x < x1; x++)
                if (out[row + x] > 0.0f) pxl_list_push(list, row + x);
    }
}
#endif

// ---------------------------------------------------------------------------------------------
// Non-maximum suppression

static inline int pxl_is_peak(const float *s, ptrdiff_t i, ptrdiff_t w) {
    float v = s[i];
    return v > s[i - w - 1] && v > s[i - w] && v > s[i - w + 1] && v > s[i - 1] &&
           v >= s[i + 1] && v >= s[i + w - 1] && v >= s[i + w] && v >= s[i + w + 1];
}

#ifdef PXL_X86
__attribute__((target("avx2"))) static size_t pxl_nms_row_avx2(const float *s, ptrdiff_t row, ptrdiff_t x0, ptrdiff_t x1, ptrdiff_t w,
                                                                int64_t *indices, float *values, size_t capacity, size_t n) {
    const __m256 zero = _mm256_setzero_ps();
    ptrdiff_t x = x0;
    for (; x + 8 <= x1; x += 8) {
        const float *c = s + row + x;
        __m256 v = _mm256_loadu_ps(c);
        __m256 keep = _mm256_cmp_ps(v, zero, _CMP_GT_OQ);
        if (_mm256_testz_ps(keep, keep)) continue;
        // Strictly greater than the 4 neighbours before in raster order, ≥ the 4 after.
        keep = _mm256_and_ps(keep, _mm256_cmp_ps(v, _mm256_loadu_ps(c - w - 1), _CMP_GT_OQ));
        keep = _mm256_and_ps(keep, _mm256_cmp_ps(v, _mm256_loadu_ps(c - w), _CMP_GT_OQ));
        keep = _mm256_and_ps(keep, _mm256_cmp_ps(v, _mm256_loadu_ps(c - w + 1), _CMP_GT_OQ));
        keep = _mm256_and_ps(keep, _mm256_cmp_ps(v, _mm256_loadu_ps(c - 1), _CMP_GT_OQ));
        keep = _mm256_and_ps(keep, _mm256_cmp_ps(v, _mm256_loadu_ps(c + 1), _CMP_GE_OQ));
        keep = _mm256_and_ps(keep, _mm256_cmp_ps(v, _mm256_loadu_ps(c + w - 1), _CMP_GE_OQ));
        keep = _mm256_and_ps(keep, _mm256_cmp_ps(v, _mm256_loadu_ps(c + w), _CMP_GE_OQ));
        keep = _mm256_and_ps(keep, _mm256_cmp_ps(v, _mm256_loadu_ps(c + w + 1), _CMP_GE_OQ));
        unsigned bits = (unsigned)_mm256_movemask_ps(keep);
        while (bits) {
            ptrdiff_t i = row + x + __builtin_ctz(bits);
            bits &= bits - 1;
            if (n < capacity) { indices[n] = i; values[n] = s[i]; }
            n++;
        }
    }
    for (; x < x1; x++) {
        ptrdiff_t i = row + x;
        if (s[i] > 0 && pxl_is_peak(s, i, w)) {
            if (n < capacity) { indices[n] = i; values[n] = s[i]; }
            n++;
        }
    }
    return n;
}
#endif

size_t pxl_nms_candidates(const float *scores, ptrdiff_t w, ptrdiff_t h, ptrdiff_t border,
                          int64_t *indices, float *values, size_t capacity) {
    size_t n = 0;
    ptrdiff_t y1 = h - border > border ? h - border : border, x1 = w - border > border ? w - border : border;
    for (ptrdiff_t y = border; y < y1; y++) {
        ptrdiff_t row = y * w;
#ifdef PXL_X86
        if (PXL_HAS_AVX2()) { n = pxl_nms_row_avx2(scores, row, border, x1, w, indices, values, capacity, n); continue; }
#endif
        for (ptrdiff_t x = border; x < x1; x++) {
            ptrdiff_t i = row + x;
            if (scores[i] > 0 && pxl_is_peak(scores, i, w)) {
                if (n < capacity) { indices[n] = i; values[n] = scores[i]; }
                n++;
            }
        }
    }
    return n;
}


// ---------------------------------------------------------------------------------------------
// Entry points

/// The scores of every pixel (see the header); `list`, when given and the prefiltered path runs,
/// gets the positive ones. Returns 1 when the list was filled.
static int pxl_fast_scores_listing(const float *image, ptrdiff_t w, ptrdiff_t h, ptrdiff_t border, float threshold,
                                   const ptrdiff_t offsets[16], float *out, pxl_index_list *list) {
    ptrdiff_t b = border < 3 ? 3 : border;
    if (h <= 0 || w <= 0) return 0;
    if (w - b <= b || h - b <= b) {
        memset(out, 0, sizeof(float) * (size_t)w * (size_t)h);
        return list != NULL;
    }
    ptrdiff_t y1 = h - b, x1 = w - b;
    memset(out, 0, sizeof(float) * (size_t)b * (size_t)w);
    if (y1 < h) memset(out + y1 * w, 0, sizeof(float) * (size_t)(h - y1) * (size_t)w);
    for (ptrdiff_t y = b; y < y1; y++) {
        memset(out + y * w, 0, sizeof(float) * (size_t)b);
        memset(out + y * w + x1, 0, sizeof(float) * (size_t)(w - x1));
    }
#ifdef PXL_X86
    if (PXL_HAS_AVX2()) {
        int8_t *q = NULL;
        // T = floor(threshold) in 1 … 127 (the 8-bit bounds are c ± (T − 1)); 8-bit copy of the image.
        if (threshold >= 1.0f && threshold < 128.0f) q = malloc((size_t)w * (size_t)h);
        if (q && pxl_quantize_avx2(image, (size_t)w * (size_t)h, q)) {
            int steps = (int)threshold - 1;
            for (ptrdiff_t y = b; y < y1; y++) pxl_fast_row_prefiltered_avx2(image, q, y * w, b, x1, threshold, steps, offsets, out, list);
            free(q);
            return list != NULL && !list->failed;
        }
        free(q);
        for (ptrdiff_t y = b; y < y1; y++) pxl_fast_row_avx2(image, y * w, b, x1, threshold, offsets, out);
        return 0;
    }
#else
    (void)list;
#endif
    for (ptrdiff_t y = b; y < y1; y++)
        for (ptrdiff_t x = b; x < x1; x++) out[y * w + x] = pxl_fast_pixel(image + y * w + x, offsets, threshold);
    return 0;
}

void pxl_fast_scores(const float *image, ptrdiff_t w, ptrdiff_t h, ptrdiff_t border, float threshold,
                     const ptrdiff_t offsets[16], float *out) {
    (void)pxl_fast_scores_listing(image, w, h, border, threshold, offsets, out, NULL);
}

size_t pxl_fast_nms(const float *image, ptrdiff_t w, ptrdiff_t h, ptrdiff_t fast_border, float threshold, const ptrdiff_t offsets[16],
                    ptrdiff_t nms_border, float *scores, int64_t *indices, float *values, size_t capacity) {
    pxl_index_list list = {NULL, 0, 0, 0};
    if (!pxl_fast_scores_listing(image, w, h, fast_border, threshold, offsets, scores, &list)) {
        free(list.data);
        return pxl_nms_candidates(scores, w, h, nms_border, indices, values, capacity);
    }
    // Every pixel with a positive score is listed, in raster order: the same survivors, in the same
    // order, as the scan of pxl_nms_candidates (which keeps positive scores only).
    ptrdiff_t fb = fast_border < 3 ? 3 : fast_border;
    int check = nms_border > fb;  // listed pixels lie in the FAST interior; the NMS one may be smaller
    ptrdiff_t y1 = h - nms_border, x1 = w - nms_border;
    size_t n = 0;
    for (size_t k = 0; k < list.count; k++) {
        ptrdiff_t i = (ptrdiff_t)list.data[k];
        if (check) {
            ptrdiff_t y = i / w, x = i % w;
            if (y < nms_border || y >= y1 || x < nms_border || x >= x1) continue;
        }
        if (scores[i] > 0.0f && pxl_is_peak(scores, i, w)) {
            if (n < capacity) { indices[n] = i; values[n] = scores[i]; }
            n++;
        }
    }
    free(list.data);
    return n;
}
