// See include/parallax_klt_kernels.h. Written for Parallax (issue 47).
//
// Why float and not OpenCV's 14-bit fixed point: the Swift tracker these loops replaced is float,
// and the same arithmetic in the same order keeps every tracked point bit-identical (no accuracy
// or VIO figure moves), while AVX2 runs the Swift code's eight-lane vectors in one instruction
// instead of two SSE halves. Fixed point would halve the bytes again but change every track.
#include "parallax_klt_kernels.h"
#include "parallax_feature_kernels.h"

// One lane's arithmetic must stay exactly as written: never fuse a multiply and an add.
#pragma clang fp contract(off)

#if defined(__x86_64__) || defined(__i386__)
#define PXL_X86 1
#include <immintrin.h>
#endif

#define PXL_LANES 8

/// Swift's `SIMD8<Float>.sum()`: the lanes added in order, starting from −0.
static inline float pxl_lane_sum(const float lanes[PXL_LANES]) {
    float s = -0.0f;
    for (int i = 0; i < PXL_LANES; i++) s += lanes[i];
    return s;
}

static inline ptrdiff_t pxl_padded(ptrdiff_t window) { return (window + 7) / 8 * 8; }

// ---------------------------------------------------------------------------------------------
// Portable paths: the eight lanes one by one, each in the Swift code's order.

/// Rows `0 … window` of one 8-column block interpolated horizontally then vertically, times
/// `scale` (1 leaves the value as it is: x·1 = x), into column block `wx` of `out`.
static void pxl_interpolate_block(const float *p, ptrdiff_t stride, float fx, float fy, ptrdiff_t window,
                                  ptrdiff_t padded, ptrdiff_t wx, float scale, float *out) {
    float above[PXL_LANES], below[PXL_LANES];
    for (int i = 0; i < PXL_LANES; i++) above[i] = p[i] + (p[i + 1] - p[i]) * fx;
    for (ptrdiff_t wy = 0; wy < window; wy++) {
        p += stride;
        float *o = out + wy * padded + wx;
        for (int i = 0; i < PXL_LANES; i++) {
            below[i] = p[i] + (p[i + 1] - p[i]) * fx;
            o[i] = (above[i] + (below[i] - above[i]) * fy) * scale;
            above[i] = below[i];
        }
    }
}

static void pxl_lk_template_portable(const float *image, const float *dx, const float *dy, ptrdiff_t stride, float fx,
                                     float fy, ptrdiff_t window, float *templ, float *gx, float *gy, float sums[3]) {
    const ptrdiff_t padded = pxl_padded(window);
    const float inv255 = 1.0f / 255.0f;
    for (ptrdiff_t wx = 0; wx < padded; wx += PXL_LANES) {
        pxl_interpolate_block(image + wx, stride, fx, fy, window, padded, wx, 1.0f, templ);
        pxl_interpolate_block(dx + wx, stride, fx, fy, window, padded, wx, inv255, gx);
        pxl_interpolate_block(dy + wx, stride, fx, fy, window, padded, wx, inv255, gy);
    }
    // 1 in the last block's lanes inside the window, 0 past it.
    float last_mask[PXL_LANES];
    for (int i = 0; i < PXL_LANES; i++) last_mask[i] = (padded - PXL_LANES + i) < window ? 1.0f : 0.0f;
    float va[PXL_LANES] = {0}, vb[PXL_LANES] = {0}, vc[PXL_LANES] = {0};
    for (ptrdiff_t wy = 0; wy < window; wy++) {
        for (ptrdiff_t k = wy * padded; k < (wy + 1) * padded; k += PXL_LANES) {
            const int last = k + PXL_LANES == (wy + 1) * padded;
            for (int i = 0; i < PXL_LANES; i++) {
                float ix = gx[k + i], iy = gy[k + i];
                if (last) { ix *= last_mask[i]; iy *= last_mask[i]; }
                va[i] += ix * ix; vb[i] += ix * iy; vc[i] += iy * iy;
                gx[k + i] = ix * inv255;
                gy[k + i] = iy * inv255;
            }
        }
    }
    sums[0] = pxl_lane_sum(va);
    sums[1] = pxl_lane_sum(vb);
    sums[2] = pxl_lane_sum(vc);
}

static void pxl_lk_mismatch_portable(const float *image, ptrdiff_t stride, float fx, float fy, ptrdiff_t window,
                                     const float *templ, const float *gx, const float *gy, float out[2]) {
    const ptrdiff_t padded = pxl_padded(window);
    float acc_x[PXL_LANES] = {0}, acc_y[PXL_LANES] = {0}, above[PXL_LANES], below[PXL_LANES];
    for (ptrdiff_t wx = 0; wx < padded; wx += PXL_LANES) {
        const float *p = image + wx;
        for (int i = 0; i < PXL_LANES; i++) above[i] = p[i] + (p[i + 1] - p[i]) * fx;
        for (ptrdiff_t wy = 0; wy < window; wy++) {
            p += stride;
            const ptrdiff_t k = wy * padded + wx;
            for (int i = 0; i < PXL_LANES; i++) {
                below[i] = p[i] + (p[i + 1] - p[i]) * fx;
                const float r = above[i] + (below[i] - above[i]) * fy - templ[k + i];
                acc_x[i] += r * gx[k + i];
                acc_y[i] += r * gy[k + i];
                above[i] = below[i];
            }
        }
    }
    out[0] = pxl_lane_sum(acc_x);
    out[1] = pxl_lane_sum(acc_y);
}

// ---------------------------------------------------------------------------------------------
// AVX2 paths: one register holds the eight lanes.

#ifdef PXL_X86
#define PXL_AVX2 __attribute__((target("avx2")))

PXL_AVX2 static inline __m256 pxl_horizontal_avx2(const float *p, __m256 fx) {
    const __m256 a = _mm256_loadu_ps(p), b = _mm256_loadu_ps(p + 1);
    return _mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), fx));
}

PXL_AVX2 static inline void pxl_lanes_store(__m256 v, float out[PXL_LANES]) { _mm256_storeu_ps(out, v); }

PXL_AVX2 static void pxl_interpolate_block_avx2(const float *p, ptrdiff_t stride, __m256 fx, __m256 fy, ptrdiff_t window,
                                                ptrdiff_t padded, float *out, __m256 scale, int scaled) {
    __m256 above = pxl_horizontal_avx2(p, fx);
    for (ptrdiff_t wy = 0; wy < window; wy++) {
        p += stride;
        const __m256 below = pxl_horizontal_avx2(p, fx);
        __m256 v = _mm256_add_ps(above, _mm256_mul_ps(_mm256_sub_ps(below, above), fy));
        if (scaled) v = _mm256_mul_ps(v, scale);
        _mm256_storeu_ps(out + wy * padded, v);
        above = below;
    }
}

PXL_AVX2 static void pxl_lk_template_avx2(const float *image, const float *dx, const float *dy, ptrdiff_t stride, float fx,
                                          float fy, ptrdiff_t window, float *templ, float *gx, float *gy, float sums[3]) {
    const ptrdiff_t padded = pxl_padded(window);
    const __m256 vfx = _mm256_set1_ps(fx), vfy = _mm256_set1_ps(fy), inv255 = _mm256_set1_ps(1.0f / 255.0f);
    for (ptrdiff_t wx = 0; wx < padded; wx += PXL_LANES) {
        pxl_interpolate_block_avx2(image + wx, stride, vfx, vfy, window, padded, templ + wx, inv255, 0);
        pxl_interpolate_block_avx2(dx + wx, stride, vfx, vfy, window, padded, gx + wx, inv255, 1);
        pxl_interpolate_block_avx2(dy + wx, stride, vfx, vfy, window, padded, gy + wx, inv255, 1);
    }
    float mask[PXL_LANES];
    for (int i = 0; i < PXL_LANES; i++) mask[i] = (padded - PXL_LANES + i) < window ? 1.0f : 0.0f;
    const __m256 last_mask = _mm256_loadu_ps(mask);
    __m256 va = _mm256_setzero_ps(), vb = va, vc = va;
    for (ptrdiff_t wy = 0; wy < window; wy++) {
        for (ptrdiff_t k = wy * padded; k < (wy + 1) * padded; k += PXL_LANES) {
            __m256 ix = _mm256_loadu_ps(gx + k), iy = _mm256_loadu_ps(gy + k);
            if (k + PXL_LANES == (wy + 1) * padded) { ix = _mm256_mul_ps(ix, last_mask); iy = _mm256_mul_ps(iy, last_mask); }
            va = _mm256_add_ps(va, _mm256_mul_ps(ix, ix));
            vb = _mm256_add_ps(vb, _mm256_mul_ps(ix, iy));
            vc = _mm256_add_ps(vc, _mm256_mul_ps(iy, iy));
            _mm256_storeu_ps(gx + k, _mm256_mul_ps(ix, inv255));
            _mm256_storeu_ps(gy + k, _mm256_mul_ps(iy, inv255));
        }
    }
    float lanes[PXL_LANES];
    pxl_lanes_store(va, lanes); sums[0] = pxl_lane_sum(lanes);
    pxl_lanes_store(vb, lanes); sums[1] = pxl_lane_sum(lanes);
    pxl_lanes_store(vc, lanes); sums[2] = pxl_lane_sum(lanes);
}

PXL_AVX2 static void pxl_lk_mismatch_avx2(const float *image, ptrdiff_t stride, float fx, float fy, ptrdiff_t window,
                                          const float *templ, const float *gx, const float *gy, float out[2]) {
    const ptrdiff_t padded = pxl_padded(window);
    const __m256 vfx = _mm256_set1_ps(fx), vfy = _mm256_set1_ps(fy);
    __m256 acc_x = _mm256_setzero_ps(), acc_y = acc_x;
    for (ptrdiff_t wx = 0; wx < padded; wx += PXL_LANES) {
        const float *p = image + wx;
        const float *t = templ + wx, *ix = gx + wx, *iy = gy + wx;
        __m256 above = pxl_horizontal_avx2(p, vfx);
        for (ptrdiff_t wy = 0; wy < window; wy++) {
            p += stride;
            const __m256 below = pxl_horizontal_avx2(p, vfx);
            const __m256 r = _mm256_sub_ps(_mm256_add_ps(above, _mm256_mul_ps(_mm256_sub_ps(below, above), vfy)), _mm256_loadu_ps(t));
            acc_x = _mm256_add_ps(acc_x, _mm256_mul_ps(r, _mm256_loadu_ps(ix)));
            acc_y = _mm256_add_ps(acc_y, _mm256_mul_ps(r, _mm256_loadu_ps(iy)));
            above = below;
            t += padded; ix += padded; iy += padded;
        }
    }
    float lanes[PXL_LANES];
    pxl_lanes_store(acc_x, lanes); out[0] = pxl_lane_sum(lanes);
    pxl_lanes_store(acc_y, lanes); out[1] = pxl_lane_sum(lanes);
}
#endif

// ---------------------------------------------------------------------------------------------
// Dispatch

void pxl_lk_template(const float *image, const float *dx, const float *dy, ptrdiff_t stride, float fx, float fy,
                     ptrdiff_t window, float *templ, float *gx, float *gy, float sums[3]) {
#ifdef PXL_X86
    if (pxl_kernels_features() & 1) {
        pxl_lk_template_avx2(image, dx, dy, stride, fx, fy, window, templ, gx, gy, sums);
        return;
    }
#endif
    pxl_lk_template_portable(image, dx, dy, stride, fx, fy, window, templ, gx, gy, sums);
}

void pxl_lk_mismatch(const float *image, ptrdiff_t stride, float fx, float fy, ptrdiff_t window,
                     const float *templ, const float *gx, const float *gy, float out[2]) {
#ifdef PXL_X86
    if (pxl_kernels_features() & 1) { pxl_lk_mismatch_avx2(image, stride, fx, fy, window, templ, gx, gy, out); return; }
#endif
    pxl_lk_mismatch_portable(image, stride, fx, fy, window, templ, gx, gy, out);
}
