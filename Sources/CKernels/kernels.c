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

#ifdef PARALLAX_X86
#undef KVB
#define KVB 32
#define KATTR __attribute__((target("avx2,popcnt")))
#define KFN(name) name##_avx2
#include "template/sgm_body.h"

#undef KVB
#define KVB 64
#define KATTR __attribute__((target("avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx2,popcnt"), min_vector_width(512)))
#define KFN(name) name##_avx512
#include "template/sgm_body.h"
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

/// One call's inputs (see parallax_bilateral_rows); `factors` NULL where the table's entries are
/// not exp(−i·step) of a known step.
typedef struct bilateral_factors {
    /// exp(−32·h·step) and exp(−l·step) for h, l = 0 … 31, each as a float and the float of
    /// what it leaves (hi + lo: about 48 bits).
    float ah[32], al[32], bh[32], bl[32];
} bilateral_factors;

typedef struct bilateral_job {
    const float *z, *toIndex, *sp, *rt, *gt;
    const uint8_t *g;
    float *out;
    int w, h, r, steps;
    const bilateral_factors *factors;
} bilateral_job;

/// One pixel, in exactly the order of the Swift loop it replaces: rows, then columns of the
/// window clipped to the image; invalid neighbours skipped.
static void bilateral_pixel(const bilateral_job *j, int x, int y) {
    const float *z = j->z, *sp = j->sp, *rt = j->rt, *gt = j->gt;
    const uint8_t *g = j->g;
    const int w = j->w, h = j->h, r = j->r;
    const float c = z[(size_t)y * w + x];
    if (!isfinite(c)) {
        j->out[(size_t)y * w + x] = c;
        return;
    }
    const float scale = j->toIndex[(size_t)y * w + x];
    const int gc = g ? g[(size_t)y * w + x] : 0;
    const int side = 2 * r + 1;
    const float top = (float)(j->steps + 1);
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
    j->out[(size_t)y * w + x] = total > 0 ? sum / total : c;
}

// The window sums KBL pixels at a time (template/bilateral_body.h): portable 8 (the table read
// lane by lane), AVX2 16 (two vectors of 8: two dependency chains; the table read by gathers),
// AVX-512 16 (the range weights from the factors with permutes and fused multiply-adds where
// that gives the table's bits, else gathers: on AMD Zen 4 the gathers took 3/4 of the time).
// The lookups take and return whole vectors; they are inlined, so no vector crosses a call
// (-Wpsabi warns of the calling convention a call would have).
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpsabi"
typedef float f32x8 __attribute__((vector_size(32)));
typedef float f32x8u __attribute__((vector_size(32), aligned(1)));
typedef int32_t i32x8 __attribute__((vector_size(32)));
typedef int32_t i32x8u __attribute__((vector_size(32), aligned(1)));
typedef uint8_t u8x8u __attribute__((vector_size(8), aligned(1)));
typedef float f32x16 __attribute__((vector_size(64)));
typedef float f32x16u __attribute__((vector_size(64), aligned(1)));
typedef int32_t i32x16 __attribute__((vector_size(64)));
typedef int32_t i32x16u __attribute__((vector_size(64), aligned(1)));
typedef uint8_t u8x16u __attribute__((vector_size(16), aligned(1)));
#define BILATERAL_TYPES(N) \
    typedef f32x##N BF; typedef f32x##N##u BFU; typedef i32x##N BI; typedef i32x##N##u BIU; typedef u8x##N##u BBU;

#define KBL 8
#define KATTR
#define KFN(name) name##_portable
#define BF bf_portable
#define BFU bfu_portable
#define BI bi_portable
#define BIU biu_portable
#define BBU bbu_portable
BILATERAL_TYPES(8)
/// rangeTable[(int)q] where inside, 0 elsewhere: lane by lane.
static inline __attribute__((always_inline)) BF KFN(bilateral_range)(const bilateral_job *j, BF q, BI inside, int arithmetic) {
    (void)arithmetic;
    BF out;
    for (int k = 0; k < KBL; k++) out[k] = inside[k] ? j->rt[(int)q[k]] : 0.0f;
    return out;
}
static inline __attribute__((always_inline)) BF KFN(bilateral_guide)(const float *gt, BI index) {
    BF out;
    for (int k = 0; k < KBL; k++) out[k] = gt[index[k]];
    return out;
}
#include "template/bilateral_body.h"

#ifdef PARALLAX_X86
#define KBL 16
#define KATTR __attribute__((target("avx2,popcnt")))
#define KFN(name) name##_avx2
#define BF bf_avx2
#define BFU bfu_avx2
#define BI bi_avx2
#define BIU biu_avx2
#define BBU bbu_avx2
BILATERAL_TYPES(16)
/// rangeTable[(int)q] where inside, 0 elsewhere: two masked gathers.
static inline __attribute__((always_inline)) KATTR BF KFN(bilateral_range)(const bilateral_job *j, BF q, BI inside, int arithmetic) {
    (void)arithmetic;
    const f32x8 q0 = __builtin_shufflevector(q, q, 0, 1, 2, 3, 4, 5, 6, 7), q1 = __builtin_shufflevector(q, q, 8, 9, 10, 11, 12, 13, 14, 15);
    const i32x8 m0 = __builtin_shufflevector(inside, inside, 0, 1, 2, 3, 4, 5, 6, 7);
    const i32x8 m1 = __builtin_shufflevector(inside, inside, 8, 9, 10, 11, 12, 13, 14, 15);
    const f32x8 r0 = (f32x8)_mm256_mask_i32gather_ps(_mm256_setzero_ps(), j->rt, _mm256_cvttps_epi32((__m256)q0), (__m256)m0, 4);
    const f32x8 r1 = (f32x8)_mm256_mask_i32gather_ps(_mm256_setzero_ps(), j->rt, _mm256_cvttps_epi32((__m256)q1), (__m256)m1, 4);
    return __builtin_shufflevector(r0, r1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}
static inline __attribute__((always_inline)) KATTR BF KFN(bilateral_guide)(const float *gt, BI index) {
    const i32x8 i0 = __builtin_shufflevector(index, index, 0, 1, 2, 3, 4, 5, 6, 7);
    const i32x8 i1 = __builtin_shufflevector(index, index, 8, 9, 10, 11, 12, 13, 14, 15);
    const f32x8 r0 = (f32x8)_mm256_i32gather_ps(gt, (__m256i)i0, 4), r1 = (f32x8)_mm256_i32gather_ps(gt, (__m256i)i1, 4);
    return __builtin_shufflevector(r0, r1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}
#include "template/bilateral_body.h"

#define KBL 16
#define KATTR __attribute__((target("avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx2,popcnt"), min_vector_width(512)))
#define KFN(name) name##_avx512
#define BF bf_avx512
#define BFU bfu_avx512
#define BI bi_avx512
#define BIU biu_avx512
#define BBU bbu_avx512
BILATERAL_TYPES(16)
/// rangeTable[(int)q] for 16 lanes where `inside`, 0 elsewhere. Arithmetic: q's integer part
/// i = 32·h + l (i < 1024) picks exp(−32·h·step) and exp(−l·step) by permutes of the factors
/// held in registers, their product rounded once from about 48 bits (fused multiply-adds);
/// bilateral_factors_exact has checked that this gives the table's bits at every i.
static inline __attribute__((always_inline)) KATTR __m512 bilateral_range16_avx512(const bilateral_job *j, __m512 q, __mmask16 inside, int arithmetic) {
    const __m512i i = _mm512_cvttps_epi32(q);
    if (!arithmetic) return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), inside, i, j->rt, 4);
    const bilateral_factors *f = j->factors;
    const __m512i h = _mm512_srli_epi32(i, 5);
    const __m512 ah = _mm512_permutex2var_ps(_mm512_loadu_ps(f->ah), h, _mm512_loadu_ps(f->ah + 16));
    const __m512 al = _mm512_permutex2var_ps(_mm512_loadu_ps(f->al), h, _mm512_loadu_ps(f->al + 16));
    const __m512 bh = _mm512_permutex2var_ps(_mm512_loadu_ps(f->bh), i, _mm512_loadu_ps(f->bh + 16));
    const __m512 bl = _mm512_permutex2var_ps(_mm512_loadu_ps(f->bl), i, _mm512_loadu_ps(f->bl + 16));
    const __m512 t = _mm512_fmadd_ps(al, bh, _mm512_mul_ps(ah, bl));
    return _mm512_maskz_fmadd_ps(inside, ah, bh, t);
}
static inline __attribute__((always_inline)) KATTR BF KFN(bilateral_range)(const bilateral_job *j, BF q, BI inside, int arithmetic) {
    return (BF)bilateral_range16_avx512(j, (__m512)q, _mm512_test_epi32_mask((__m512i)inside, (__m512i)inside), arithmetic);
}
static inline __attribute__((always_inline)) KATTR BF KFN(bilateral_guide)(const float *gt, BI index) { return (BF)_mm512_i32gather_ps((__m512i)index, gt, 4); }
#include "template/bilateral_body.h"
#endif

#pragma clang diagnostic pop

/// The factors of a range table rangeTable[i] = exp(−i·step) (rounded to float), i < 1024.
static void bilateral_make_factors(double step, bilateral_factors *f) {
    for (int k = 0; k < 32; k++) {
        const double a = exp(-(double)(32 * k) * step), b = exp(-(double)k * step);
        f->ah[k] = (float)a;
        f->al[k] = (float)(a - (double)f->ah[k]);
        f->bh[k] = (float)b;
        f->bl[k] = (float)(b - (double)f->bh[k]);
    }
}

void parallax_bilateral_rows(const float *depth, const float *toIndex, int width, int height, int radius, const float *spatial,
                             const float *rangeTable, int steps, double rangeStep, const uint8_t *guide, const float *guideTable,
                             int y0, int y1, float *out, int level) {
    bilateral_factors factors;
    const int known = steps == 1023 && rangeStep > 0 && rangeStep < 1;
    if (known) bilateral_make_factors(rangeStep, &factors);
    const bilateral_job job = {depth, toIndex, spatial, rangeTable, guideTable, guide, out, width, height, radius, steps,
                               known ? &factors : NULL};
    switch (parallax_kernels_level(level)) {
#ifdef PARALLAX_X86
    case 2: bilateral_rows_avx512(&job, y0, y1); return;
    case 1: bilateral_rows_avx2(&job, y0, y1); return;
#endif
    default: bilateral_rows_portable(&job, y0, y1); return;
    }
}

int parallax_bilateral_range_arithmetic(const float *rangeTable, int steps, double rangeStep, int level) {
    bilateral_factors factors;
    if (!(steps == 1023 && rangeStep > 0 && rangeStep < 1)) return 0;
    bilateral_make_factors(rangeStep, &factors);
    const bilateral_job job = {NULL, NULL, NULL, rangeTable, NULL, NULL, NULL, 0, 0, 0, steps, &factors};
    switch (parallax_kernels_level(level)) {
#ifdef PARALLAX_X86
    case 2: return bilateral_factors_exact_avx512(&job);
#endif
    default: return 0;
    }
}
