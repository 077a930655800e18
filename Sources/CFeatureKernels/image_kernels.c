// See include/parallax_image_kernels.h. Written for Parallax (issue 47).
#include "parallax_image_kernels.h"
#include "parallax_feature_kernels.h"

// One pixel's arithmetic must stay exactly as written: never fuse a multiply and an add.
#pragma clang fp contract(off)

#if defined(__x86_64__) || defined(__i386__)
#define PXL_X86 1
#include <immintrin.h>
#define PXL_AVX2 __attribute__((target("avx2")))
#endif

// ---------------------------------------------------------------------------------------------
// pyrDown

/// Vertical [1 4 6 4 1] of `n` columns from five rows.
static void pxl_pyr_vertical(const float *r0, const float *r1, const float *r2, const float *r3, const float *r4,
                             ptrdiff_t n, float *o) {
    for (ptrdiff_t x = 0; x < n; x++) o[x] = r0[x] + r4[x] + 4.0f * (r1[x] + r3[x]) + 6.0f * r2[x];
}

/// Horizontal [1 4 6 4 1]/256 of every second column: `row[c]` is column c (c = −2 … 2·n).
static void pxl_pyr_horizontal(const float *row, ptrdiff_t from, ptrdiff_t n, float *o) {
    for (ptrdiff_t x = from; x < n; x++) {
        const ptrdiff_t c = 2 * x;
        o[x] = (row[c - 2] + row[c + 2] + 4.0f * (row[c - 1] + row[c + 1]) + 6.0f * row[c]) * (1.0f / 256.0f);
    }
}

#ifdef PXL_X86
PXL_AVX2 static void pxl_pyr_vertical_avx2(const float *r0, const float *r1, const float *r2, const float *r3, const float *r4,
                                           ptrdiff_t n, float *o) {
    const __m256 four = _mm256_set1_ps(4.0f), six = _mm256_set1_ps(6.0f);
    ptrdiff_t x = 0;
    for (; x + 8 <= n; x += 8) {
        __m256 s = _mm256_add_ps(_mm256_loadu_ps(r0 + x), _mm256_loadu_ps(r4 + x));
        s = _mm256_add_ps(s, _mm256_mul_ps(four, _mm256_add_ps(_mm256_loadu_ps(r1 + x), _mm256_loadu_ps(r3 + x))));
        _mm256_storeu_ps(o + x, _mm256_add_ps(s, _mm256_mul_ps(six, _mm256_loadu_ps(r2 + x))));
    }
    for (; x < n; x++) o[x] = r0[x] + r4[x] + 4.0f * (r1[x] + r3[x]) + 6.0f * r2[x];
}

/// Even and odd columns of the 16 floats at `p`, in order.
PXL_AVX2 static inline void pxl_deinterleave(const float *p, __m256 *even, __m256 *odd) {
    const __m256 lo = _mm256_loadu_ps(p), hi = _mm256_loadu_ps(p + 8);
    *even = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0))), _MM_SHUFFLE(3, 1, 2, 0)));
    *odd = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1))), _MM_SHUFFLE(3, 1, 2, 0)));
}

/// Outputs 0 … `end` (a multiple of 8) eight at a time; returns `end`.
PXL_AVX2 static ptrdiff_t pxl_pyr_horizontal_avx2(const float *row, ptrdiff_t end, float *o) {
    const __m256 four = _mm256_set1_ps(4.0f), six = _mm256_set1_ps(6.0f), scale = _mm256_set1_ps(1.0f / 256.0f);
    for (ptrdiff_t x = 0; x < end; x += 8) {
        __m256 be, bo, he, ho, ae, ao;
        pxl_deinterleave(row + 2 * x - 2, &be, &bo);
        pxl_deinterleave(row + 2 * x, &he, &ho);
        pxl_deinterleave(row + 2 * x + 2, &ae, &ao);
        (void)ao;
        __m256 s = _mm256_add_ps(_mm256_add_ps(be, ae), _mm256_mul_ps(four, _mm256_add_ps(bo, ho)));
        s = _mm256_add_ps(s, _mm256_mul_ps(six, he));
        _mm256_storeu_ps(o + x, _mm256_mul_ps(s, scale));
    }
    return end;
}
#endif

void pxl_pyr_down(const float *src, ptrdiff_t src_stride, ptrdiff_t w, ptrdiff_t h, float *dst, ptrdiff_t dst_stride,
                  float *scratch) {
    const ptrdiff_t dw = (w + 1) / 2, dh = (h + 1) / 2, span = w + 4;
    // Vectors read columns up to 2·x + 17 for x < end: within column w + 1 (the scratch's last).
    const ptrdiff_t vector_end = dw >= 9 ? (dw - 1) / 8 * 8 : 0;
    const int avx2 = pxl_kernels_features() & 1;
    for (ptrdiff_t y = 0; y < dh; y++) {
        const float *r2 = src + 2 * y * src_stride - 2;
        const float *r1 = r2 - src_stride, *r0 = r1 - src_stride, *r3 = r2 + src_stride, *r4 = r3 + src_stride;
        float *o = dst + y * dst_stride;
        const float *row = scratch + 2;  // row[c] is column c
#ifdef PXL_X86
        if (avx2) {
            pxl_pyr_vertical_avx2(r0, r1, r2, r3, r4, span, scratch);
            pxl_pyr_horizontal(row, pxl_pyr_horizontal_avx2(row, vector_end, o), dw, o);
            continue;
        }
#endif
        (void)avx2;
        (void)vector_end;
        pxl_pyr_vertical(r0, r1, r2, r3, r4, span, scratch);
        pxl_pyr_horizontal(row, 0, dw, o);
    }
}

// ---------------------------------------------------------------------------------------------
// 3×3 derivatives

static void pxl_derivative_row(const float *up, const float *mid, const float *down, ptrdiff_t w, float k0, float k1, float k2,
                               float scale, float *v, float *d, float *dx, float *dy) {
    for (ptrdiff_t x = 0; x < w + 2; x++) {
        v[x] = k0 * up[x] + k1 * mid[x] + k2 * down[x];
        d[x] = down[x] - up[x];
    }
    for (ptrdiff_t x = 0; x < w; x++) {
        dx[x] = (v[x + 2] - v[x]) * scale;
        dy[x] = (k0 * d[x] + k1 * d[x + 1] + k2 * d[x + 2]) * scale;
    }
}

#ifdef PXL_X86
PXL_AVX2 static void pxl_derivative_row_avx2(const float *up, const float *mid, const float *down, ptrdiff_t w, float k0,
                                             float k1, float k2, float scale, float *v, float *d, float *dx, float *dy) {
    const __m256 a = _mm256_set1_ps(k0), b = _mm256_set1_ps(k1), c = _mm256_set1_ps(k2), s = _mm256_set1_ps(scale);
    ptrdiff_t x = 0;
    for (; x + 8 <= w + 2; x += 8) {
        const __m256 u = _mm256_loadu_ps(up + x), m = _mm256_loadu_ps(mid + x), n = _mm256_loadu_ps(down + x);
        _mm256_storeu_ps(v + x, _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a, u), _mm256_mul_ps(b, m)), _mm256_mul_ps(c, n)));
        _mm256_storeu_ps(d + x, _mm256_sub_ps(n, u));
    }
    for (; x < w + 2; x++) {
        v[x] = k0 * up[x] + k1 * mid[x] + k2 * down[x];
        d[x] = down[x] - up[x];
    }
    for (x = 0; x + 8 <= w; x += 8) {
        _mm256_storeu_ps(dx + x, _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(v + x + 2), _mm256_loadu_ps(v + x)), s));
        const __m256 t = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a, _mm256_loadu_ps(d + x)), _mm256_mul_ps(b, _mm256_loadu_ps(d + x + 1))),
                                       _mm256_mul_ps(c, _mm256_loadu_ps(d + x + 2)));
        _mm256_storeu_ps(dy + x, _mm256_mul_ps(t, s));
    }
    for (; x < w; x++) {
        dx[x] = (v[x + 2] - v[x]) * scale;
        dy[x] = (k0 * d[x] + k1 * d[x + 1] + k2 * d[x + 2]) * scale;
    }
}
#endif

void pxl_derivative3(const float *src, ptrdiff_t src_stride, ptrdiff_t w, ptrdiff_t h, float k0, float k1, float k2,
                     float scale, float *dx, float *dy, ptrdiff_t out_stride, float *v_scratch, float *d_scratch) {
    const int avx2 = pxl_kernels_features() & 1;
    for (ptrdiff_t y = 0; y < h; y++) {
        const float *mid = src + y * src_stride - 1, *up = mid - src_stride, *down = mid + src_stride;
        float *ox = dx + y * out_stride, *oy = dy + y * out_stride;
#ifdef PXL_X86
        if (avx2) {
            pxl_derivative_row_avx2(up, mid, down, w, k0, k1, k2, scale, v_scratch, d_scratch, ox, oy);
            continue;
        }
#endif
        (void)avx2;
        pxl_derivative_row(up, mid, down, w, k0, k1, k2, scale, v_scratch, d_scratch, ox, oy);
    }
}
