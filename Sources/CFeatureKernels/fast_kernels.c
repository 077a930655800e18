// FAST-9 scores and the non-maximum suppression that follows them in ORB (issue 47), on the row
// test of fast_rows.c. See include/parallax_feature_kernels.h.
#include "parallax_feature_kernels.h"

#include "fast_rows.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define PXL_X86 1
#include <immintrin.h>
#endif

/// The survivors of one row's suppression, appended at n (see pxl_fast_nms): the listed columns
/// `cs` in [k, count) of the row `mid`, between `above` and `below`.
static size_t pxl_suppress_listed(const float *above, const float *mid, const float *below, const int32_t *cs, size_t k, size_t count,
                                  ptrdiff_t nx0, ptrdiff_t nx1, ptrdiff_t row, int64_t *indices, float *values, size_t capacity, size_t n) {
    for (; k < count; k++) {
        ptrdiff_t x = cs[k];
        float v = mid[x];
        if (x < nx0 || x >= nx1 || !(v > 0.0f)) continue;
        if (v > above[x - 1] && v > above[x] && v > above[x + 1] && v > mid[x - 1] &&
            v >= mid[x + 1] && v >= below[x - 1] && v >= below[x] && v >= below[x + 1]) {
            if (n < capacity) { indices[n] = row + x; values[n] = v; }
            n++;
        }
    }
    return n;
}

#ifdef PXL_X86
/// pxl_suppress_listed on 16 columns at a time, from each listed column not yet covered: the
/// unlisted columns are 0, which never survive; columns within 16 of the row's end one by one.
__attribute__((target("avx2,avx512f,avx512bw,avx512vl,bmi,popcnt"))) static size_t
pxl_suppress_listed_avx512(const float *above, const float *mid, const float *below, const int32_t *cs, size_t count, ptrdiff_t w,
                           ptrdiff_t nx0, ptrdiff_t nx1, ptrdiff_t row, int64_t *indices, float *values, size_t capacity, size_t n) {
    const __m512 zero = _mm512_setzero_ps();
    size_t k = 0;
    while (k < count) {
        ptrdiff_t x = cs[k];
        if (x + 17 > w) return pxl_suppress_listed(above, mid, below, cs, k, count, nx0, nx1, row, indices, values, capacity, n);
        // Lanes inside [nx0, nx1).
        ptrdiff_t from = nx0 - x < 0 ? 0 : nx0 - x > 16 ? 16 : nx0 - x, to = nx1 - x < 0 ? 0 : nx1 - x > 16 ? 16 : nx1 - x;
        __mmask16 keep = (__mmask16)(((1u << to) - 1) & ~((1u << from) - 1));
        // Nine independent comparisons (a chain of masked ones waits for each in turn).
        __m512 v = _mm512_loadu_ps(mid + x);
        unsigned a = _mm512_cmp_ps_mask(v, zero, _CMP_GT_OQ) & _mm512_cmp_ps_mask(v, _mm512_loadu_ps(above + x - 1), _CMP_GT_OQ);
        unsigned b = _mm512_cmp_ps_mask(v, _mm512_loadu_ps(above + x), _CMP_GT_OQ) &
                     _mm512_cmp_ps_mask(v, _mm512_loadu_ps(above + x + 1), _CMP_GT_OQ);
        unsigned c = _mm512_cmp_ps_mask(v, _mm512_loadu_ps(mid + x - 1), _CMP_GT_OQ) &
                     _mm512_cmp_ps_mask(v, _mm512_loadu_ps(mid + x + 1), _CMP_GE_OQ);
        unsigned d = _mm512_cmp_ps_mask(v, _mm512_loadu_ps(below + x - 1), _CMP_GE_OQ) &
                     _mm512_cmp_ps_mask(v, _mm512_loadu_ps(below + x), _CMP_GE_OQ) &
                     _mm512_cmp_ps_mask(v, _mm512_loadu_ps(below + x + 1), _CMP_GE_OQ);
        keep &= (__mmask16)(a & b & c & d);
        for (unsigned bits = keep; bits; bits &= bits - 1) {
            ptrdiff_t c = x + __builtin_ctz(bits);
            if (n < capacity) { indices[n] = row + c; values[n] = mid[c]; }
            n++;
        }
        while (k < count && cs[k] < x + 16) k++;
    }
    return n;
}
#endif

void pxl_fast_scores(const float *image, ptrdiff_t w, ptrdiff_t h, ptrdiff_t border, float threshold,
                     const ptrdiff_t offsets[16], float *out) {
    ptrdiff_t b = border < 3 ? 3 : border;
    if (h <= 0 || w <= 0) return;
    memset(out, 0, sizeof(float) * (size_t)w * (size_t)h);
    if (w - b <= b || h - b <= b) return;
    // Scratch: the columns a row lists (not needed here), then the 8-bit copy. Without it, the
    // float test alone (the same scores).
    int32_t *xs = malloc(sizeof(int32_t) * (size_t)w + (size_t)w * (size_t)h);
    pxl_fast_rows rows;
    pxl_fast_rows_init(&rows, image, w, h, b, threshold, offsets, xs ? (int8_t *)(xs + w) : NULL);
    if (!xs) {
        int32_t one[1];
        for (ptrdiff_t y = b; y < h - b; y++)
            for (ptrdiff_t x = b; x < w - b; x++) {
                // A one-column row: the same per-pixel test.
                pxl_fast_rows single = rows;
                single.x0 = x;
                single.x1 = x + 1;
                single.level = 0;
                (void)pxl_fast_row(&single, y, out + y * w, one);
            }
        return;
    }
    for (ptrdiff_t y = b; y < h - b; y++) (void)pxl_fast_row(&rows, y, out + y * w, xs);
    free(xs);
}

size_t pxl_fast_nms(const float *image, ptrdiff_t w, ptrdiff_t h, ptrdiff_t fast_border, float threshold, const ptrdiff_t offsets[16],
                    ptrdiff_t nms_border, float *row_scratch, int32_t *column_scratch, int8_t *byte_scratch,
                    int64_t *indices, float *values, size_t capacity) {
    ptrdiff_t b = fast_border < 3 ? 3 : fast_border;
    if (h <= 0 || w <= 0 || w - b <= b || h - b <= b) return 0;
    pxl_fast_rows rows;
    pxl_fast_rows_init(&rows, image, w, h, b, threshold, offsets, byte_scratch);
    // Three rows of scores (row y in slot y % 3), 0 except at the columns listed for that row:
    // exactly the rows of pxl_fast_scores' image around the row being suppressed.
    memset(row_scratch, 0, sizeof(float) * 3 * (size_t)w);
    size_t listed[3] = {0, 0, 0};
    ptrdiff_t y0 = b, y1 = h - b;
    ptrdiff_t ny0 = nms_border, ny1 = h - nms_border, nx0 = nms_border, nx1 = w - nms_border;
    size_t n = 0;
    for (ptrdiff_t y = y0; y <= y1; y++) {
        int slot = (int)(y % 3);
        float *scores = row_scratch + slot * w;
        int32_t *columns = column_scratch + slot * w;
        // The slot held row y − 3: clear it, then score row y (none below the interior).
        for (size_t k = 0; k < listed[slot]; k++) scores[columns[k]] = 0.0f;
        listed[slot] = y < y1 ? pxl_fast_row(&rows, y, scores, columns) : 0;
        // Suppress row y − 1 (rows y − 2 … y are in the slots): positive, > the 4 neighbours
        // before in raster order, ≥ the 4 after. Only listed columns can be positive.
        ptrdiff_t yy = y - 1;
        if (yy < y0 || yy < ny0 || yy >= ny1) continue;
        int mid_slot = (int)(yy % 3);
        const float *above = row_scratch + ((mid_slot + 2) % 3) * w, *mid = row_scratch + mid_slot * w, *below = scores;
        const int32_t *cs = column_scratch + mid_slot * w;
#ifdef PXL_X86
        if (pxl_kernels_features() & 8) {
            n = pxl_suppress_listed_avx512(above, mid, below, cs, listed[mid_slot], w, nx0, nx1, yy * w, indices, values, capacity, n);
            continue;
        }
#endif
        n = pxl_suppress_listed(above, mid, below, cs, 0, listed[mid_slot], nx0, nx1, yy * w, indices, values, capacity, n);
    }
    return n;
}
