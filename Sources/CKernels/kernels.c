// CKernels: see include/parallax_kernels.h. Each kernel is compiled for the portable baseline
// and, on x86-64, for AVX2 and AVX-512; parallax_kernels_level() picks the best the processor
// has, once. No floating-point contraction anywhere (a fused multiply-add would round
// differently from the Swift code these loops reproduce).
#pragma clang fp contract(off)
#include "parallax_kernels.h"

#include <math.h>
#include <stdlib.h>

#if defined(__x86_64__) && defined(__clang__)
#define PARALLAX_X86 1
#include <immintrin.h>
#endif

// ---- The template instances: portable, AVX2, AVX-512 ----
// Vector types of N bytes and N 16-bit lanes (the compiler splits them into the registers
// the variant has), with unaligned forms for loads and stores.
#define PARALLAX_VECTORS(N) \
    typedef uint8_t v##N##b __attribute__((vector_size(N))); \
    typedef uint8_t v##N##bu __attribute__((vector_size(N), aligned(1))); \
    typedef uint16_t v##N##w __attribute__((vector_size(2 * N))); \
    typedef uint16_t v##N##wu __attribute__((vector_size(2 * N), aligned(1)));
typedef int16_t v16s __attribute__((vector_size(32)));
typedef int16_t v16su __attribute__((vector_size(32), aligned(1)));
typedef int16_t v32s __attribute__((vector_size(64)));
typedef int16_t v32su __attribute__((vector_size(64), aligned(1)));
#define LANES16 {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
#define LANES32 {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}
PARALLAX_VECTORS(16)
PARALLAX_VECTORS(32)
PARALLAX_VECTORS(64)
#define SGM_CHUNK_X(N, COUNT) SGM_CHUNK(N, COUNT)
#define SGM_CHUNK_MAIN(COUNT) SGM_CHUNK_X(KVB, COUNT)
#define SGM_MINIMA_X(N) v##N##b m0 = (v##N##b){0} + 255, m1 = m0, m2 = m0, m3 = m0;
#define SGM_MINIMA(N) SGM_MINIMA_X(N)
#define SGM_MAIN_MINIMA SGM_MINIMA(KVB)

#define KVB 16
#define KATTR
#define KFN(name) name##_portable
#include "template/sgm_body.h"
#undef KATTR
#undef KFN
#undef SGM_PATHV
#undef SGM_CHUNK

#ifdef PARALLAX_X86
#undef KVB
#define KVB 32
#define KATTR __attribute__((target("avx2,popcnt")))
#define KFN(name) name##_avx2
#include "template/sgm_body.h"
#undef KATTR
#undef KFN
#undef SGM_PATHV
#undef SGM_CHUNK

#undef KVB
#define KVB 64
#define KATTR __attribute__((target("avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx2,popcnt"), min_vector_width(512)))
#define KFN(name) name##_avx512
#include "template/sgm_body.h"
#undef KATTR
#undef KFN
#undef SGM_PATHV
#undef SGM_CHUNK
#endif

// ---- Dispatch ----
static int best_level = -1;

static int detect_level(void) {
#ifdef PARALLAX_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl")
        && __builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt")) {
        return 2;
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt")) return 1;
#endif
    return 0;
}

int parallax_kernels_level(int level) {
    int best = __atomic_load_n(&best_level, __ATOMIC_RELAXED);
    if (best < 0) {
        best = detect_level();
        __atomic_store_n(&best_level, best, __ATOMIC_RELAXED);
    }
    return level >= 0 && level < best ? level : best;
}

void parallax_sgm_sweep_row(const parallax_sgm_sweep *sweep, int y, int step, int forward, int16_t *sums, const int16_t *base, int level) {
    switch (parallax_kernels_level(level)) {
#ifdef PARALLAX_X86
    case 2: sgm_row_avx512(sweep, y, step, forward, sums, base); return;
    case 1: sgm_row_avx2(sweep, y, step, forward, sums, base); return;
#endif
    default: sgm_row_portable(sweep, y, step, forward, sums, base); return;
    }
}

void parallax_census_cost_row(const uint64_t *left, const uint64_t *reversedRight, int width, int depth, int disparities,
                              uint8_t outside, uint8_t *cost, int level) {
    switch (parallax_kernels_level(level)) {
#ifdef PARALLAX_X86
    case 2: census_row_avx512(left, reversedRight, width, depth, disparities, outside, cost); return;
    case 1: census_row_avx2(left, reversedRight, width, depth, disparities, outside, cost); return;
#endif
    default: census_row_portable(left, reversedRight, width, depth, disparities, outside, cost); return;
    }
}

void parallax_sgm_row_winners(const int16_t *sums, int width, int depth, int disparities, int keep, int leftRight, int subpixel,
                              int16_t *rc, int16_t *rb, int32_t *integer, float *out, int level) {
    switch (parallax_kernels_level(level)) {
#ifdef PARALLAX_X86
    case 2: row_winners_avx512(sums, width, depth, disparities, keep, leftRight, subpixel, rc, rb, integer, out); return;
    case 1: row_winners_avx2(sums, width, depth, disparities, keep, leftRight, subpixel, rc, rb, integer, out); return;
#endif
    default: row_winners_portable(sums, width, depth, disparities, keep, leftRight, subpixel, rc, rb, integer, out); return;
    }
}

// ---- Bilateral filter ----

/// One pixel, in exactly the order of the Swift loop it replaces: rows, then columns of the
/// window clipped to the image; invalid neighbours skipped.
static void bilateral_pixel(const float *z, const float *toIndex, int w, int h, int r, const float *sp, const float *rt, int steps,
                            const uint8_t *g, const float *gt, int x, int y, float *out) {
    const float c = z[(size_t)y * w + x];
    if (!isfinite(c)) return;
    const float scale = toIndex[(size_t)y * w + x];
    const int gc = g ? g[(size_t)y * w + x] : 0;
    const int side = 2 * r + 1;
    const float top = (float)(steps + 1);
    float sum = 0, total = 0;
    const int y0 = y - r < 0 ? 0 : y - r, y1 = y + r > h - 1 ? h - 1 : y + r;
    const int x0 = x - r < 0 ? 0 : x - r, x1 = x + r > w - 1 ? w - 1 : x + r;
    for (int yy = y0; yy <= y1; yy++) {
        const float *row = z + (size_t)yy * w;
        const float *spatial = sp + (yy - y + r) * side - x + r;
        for (int xx = x0; xx <= x1; xx++) {
            const float v = row[xx];
            if (!isfinite(v)) continue;
            const float dz = v - c;
            const float q = dz * dz * scale;
            const float k = q < top ? q : top;
            float weight = spatial[xx] * rt[(int)k];
            if (g) weight *= gt[abs((int)g[(size_t)yy * w + xx] - gc)];
            sum += weight * v;
            total += weight;
        }
    }
    out[(size_t)y * w + x] = total > 0 ? sum / total : c;
}

#ifdef PARALLAX_X86
/// 16 neighbouring pixels of one row at once (x … x + 15, their windows inside the image's
/// columns): each lane the same operations in the same order as bilateral_pixel.
__attribute__((target("avx512f,avx512bw,avx512vl,avx2")))
static void bilateral_16(const float *z, const float *toIndex, int w, int h, int r, const float *sp, const float *rt, int steps,
                         const uint8_t *g, const float *gt, int x, int y, float *out) {
    const size_t at = (size_t)y * w + x;
    const __m512 c = _mm512_loadu_ps(z + at);
    const __m512 inf = _mm512_set1_ps(INFINITY);
    const __mmask16 centres = _mm512_cmp_ps_mask(_mm512_abs_ps(c), inf, _CMP_LT_OQ);
    if (!centres) return;
    const __m512 scale = _mm512_loadu_ps(toIndex + at);
    const __m512 top = _mm512_set1_ps((float)(steps + 1));
    const __m512i gc = g ? _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(g + at))) : _mm512_setzero_si512();
    const int side = 2 * r + 1;
    __m512 sum = _mm512_setzero_ps(), total = _mm512_setzero_ps();
    const int y0 = y - r < 0 ? 0 : y - r, y1 = y + r > h - 1 ? h - 1 : y + r;
    for (int yy = y0; yy <= y1; yy++) {
        const float *row = z + (size_t)yy * w + x - r;
        const float *spatial = sp + (yy - y + r) * side;
        const uint8_t *grow = g ? g + (size_t)yy * w + x - r : NULL;
        for (int i = 0; i < side; i++) {
            const __m512 v = _mm512_loadu_ps(row + i);
            const __mmask16 valid = _mm512_cmp_ps_mask(_mm512_abs_ps(v), inf, _CMP_LT_OQ) & centres;
            const __m512 dz = _mm512_sub_ps(v, c);
            const __m512 q = _mm512_mul_ps(_mm512_mul_ps(dz, dz), scale);
            const __m512 k = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(q, top, _CMP_LT_OQ), top, q);
            const __m512i index = _mm512_cvttps_epi32(k);
            const __m512 range = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), valid, index, rt, 4);
            __m512 weight = _mm512_mul_ps(_mm512_set1_ps(spatial[i]), range);
            if (grow) {
                const __m512i gi = _mm512_abs_epi32(_mm512_sub_epi32(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(grow + i))), gc));
                weight = _mm512_mul_ps(weight, _mm512_mask_i32gather_ps(_mm512_setzero_ps(), valid, gi, gt, 4));
            }
            sum = _mm512_mask_add_ps(sum, valid, sum, _mm512_mul_ps(weight, v));
            total = _mm512_mask_add_ps(total, valid, total, weight);
        }
    }
    const __m512 mean = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(total, _mm512_setzero_ps(), _CMP_GT_OQ), c, _mm512_div_ps(sum, total));
    _mm512_mask_storeu_ps(out + at, centres, mean);
}

/// 8 pixels at once with AVX2: as bilateral_16; a skipped neighbour adds +0 (the sums start at
/// +0 and stay there or away from −0, so adding +0 changes no bit).
__attribute__((target("avx2")))
static void bilateral_8(const float *z, const float *toIndex, int w, int h, int r, const float *sp, const float *rt, int steps,
                        const uint8_t *g, const float *gt, int x, int y, float *out) {
    const size_t at = (size_t)y * w + x;
    const __m256 c = _mm256_loadu_ps(z + at);
    const __m256 inf = _mm256_set1_ps(INFINITY);
    const __m256 absMask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
    const __m256 centres = _mm256_cmp_ps(_mm256_and_ps(c, absMask), inf, _CMP_LT_OQ);
    if (_mm256_movemask_ps(centres) == 0) return;
    const __m256 scale = _mm256_loadu_ps(toIndex + at);
    const __m256 top = _mm256_set1_ps((float)(steps + 1));
    const __m256i gc = g ? _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(g + at))) : _mm256_setzero_si256();
    const int side = 2 * r + 1;
    __m256 sum = _mm256_setzero_ps(), total = _mm256_setzero_ps();
    const int y0 = y - r < 0 ? 0 : y - r, y1 = y + r > h - 1 ? h - 1 : y + r;
    for (int yy = y0; yy <= y1; yy++) {
        const float *row = z + (size_t)yy * w + x - r;
        const float *spatial = sp + (yy - y + r) * side;
        const uint8_t *grow = g ? g + (size_t)yy * w + x - r : NULL;
        for (int i = 0; i < side; i++) {
            const __m256 v = _mm256_loadu_ps(row + i);
            const __m256 valid = _mm256_and_ps(_mm256_cmp_ps(_mm256_and_ps(v, absMask), inf, _CMP_LT_OQ), centres);
            const __m256 dz = _mm256_sub_ps(v, c);
            const __m256 q = _mm256_mul_ps(_mm256_mul_ps(dz, dz), scale);
            const __m256 k = _mm256_blendv_ps(top, q, _mm256_cmp_ps(q, top, _CMP_LT_OQ));
            const __m256i index = _mm256_cvttps_epi32(_mm256_blendv_ps(top, k, valid));
            const __m256 range = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), rt, index, valid, 4);
            __m256 weight = _mm256_mul_ps(_mm256_set1_ps(spatial[i]), range);
            if (grow) {
                const __m256i gi = _mm256_abs_epi32(_mm256_sub_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(grow + i))), gc));
                weight = _mm256_mul_ps(weight, _mm256_mask_i32gather_ps(_mm256_setzero_ps(), gt, gi, valid, 4));
            }
            weight = _mm256_and_ps(weight, valid);
            sum = _mm256_add_ps(sum, _mm256_mul_ps(weight, _mm256_and_ps(v, valid)));
            total = _mm256_add_ps(total, weight);
        }
    }
    const __m256 mean = _mm256_blendv_ps(c, _mm256_div_ps(sum, total), _mm256_cmp_ps(total, _mm256_setzero_ps(), _CMP_GT_OQ));
    _mm256_maskstore_ps(out + at, _mm256_castps_si256(centres), mean);
}
#endif

void parallax_bilateral_rows(const float *depth, const float *toIndex, int width, int height, int radius, const float *spatial,
                             const float *rangeTable, int steps, const uint8_t *guide, const float *guideTable, int y0, int y1, float *out,
                             int level) {
    const int w = width, r = radius;
    const int chosen = parallax_kernels_level(level);
    const int lanes = chosen >= 2 ? 16 : chosen == 1 ? 8 : 0;
    for (int y = y0; y < y1; y++) {
        int x = 0;
        // Scalar where the window leaves the image's columns, vectors in between.
        for (; x < w && (x < r || lanes == 0); x++) bilateral_pixel(depth, toIndex, w, height, r, spatial, rangeTable, steps, guide, guideTable, x, y, out);
#ifdef PARALLAX_X86
        if (lanes == 16) {
            for (; x + 15 + r < w; x += 16) bilateral_16(depth, toIndex, w, height, r, spatial, rangeTable, steps, guide, guideTable, x, y, out);
        } else if (lanes == 8) {
            for (; x + 7 + r < w; x += 8) bilateral_8(depth, toIndex, w, height, r, spatial, rangeTable, steps, guide, guideTable, x, y, out);
        }
#endif
        for (; x < w; x++) bilateral_pixel(depth, toIndex, w, height, r, spatial, rangeTable, steps, guide, guideTable, x, y, out);
    }
}
