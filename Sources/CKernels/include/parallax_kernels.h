// CKernels: the innermost loops of a few image kernels in C, so that one source compiles for
// several instruction sets (AVX-512BW, AVX2, and the baseline x86-64/ARM build as the portable
// fallback) and the fastest the processor has is chosen once at run time
// (__builtin_cpu_supports). Every variant is the same integer (or, for the bilateral filter,
// the same float, in the same order) arithmetic: the results are bit-identical whichever runs.
// Each entry point takes `level` (see parallax_kernels_level; −1 in production code).
// Not API: ParallaxVision (semi-global matching) and ParallaxImage (the bilateral depth
// filter) call it behind their Swift types.
#ifndef PARALLAX_KERNELS_H
#define PARALLAX_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One sweep of semi-global matching over an image, path costs in bytes (exact when the census
/// window's pixel count + P1 + P2 ≤ 255). The caller owns every buffer.
typedef struct parallax_sgm_sweep {
    /// Image size (px), disparities per pixel as stored (a multiple of 16) and searched (≤ depth).
    int width, height, depth, disparities;
    /// Paths in this sweep (2 or 4) and the neighbour each comes from, (x + dx, y + dy); all
    /// from the previous pixel of the row or from the previous row of the sweep.
    int count;
    int dx[4], dy[4];
    /// P1, and P2 for each gray-level change |ΔI| = 0…255 (bytes).
    uint8_t p1;
    const uint8_t *large;
    /// Census costs cost[(y·width + x)·depth + d] and the gray image (width × height).
    const uint8_t *cost;
    const uint8_t *gray;
    /// Scratch: 2 · count · width · (depth + 32) bytes, every byte 255 before the first row.
    uint8_t *rows;
    /// Scratch: 2 · count · width bytes (each pixel's lowest path cost).
    uint8_t *minima;
    /// depth + 32 zero bytes (where a path starts).
    const uint8_t *zeros;
    /// depth bytes: 0 for d < disparities, 255 beyond.
    const uint8_t *beyond;
} parallax_sgm_sweep;

/// Row `y` of a sweep (`step`: its index in sweep order, 0 first; `forward`: x ascending, the
/// sweep from the top left). Each pixel's path costs L(p, d) = C(p, d) + min(L(q, d),
/// L(q, d ± 1) + P1, min L(q) + P2) − min L(q) from its previous pixel q; lanes d ≥ disparities
/// hold 255. Their sum over the sweep's paths, in 16 bits, goes to sums[x·depth + d] (added to
/// base[x·depth + d] when base is not NULL).
void parallax_sgm_sweep_row(const parallax_sgm_sweep *sweep, int y, int step, int forward, int16_t *sums, const int16_t *base, int level);

/// Winner-take-all over one row of summed costs (sums[x·depth + d], each below 2¹⁵) for
/// d < min(disparities, x + 1): the first disparity of lowest cost, kept when unique (no cost
/// more than 1 px away at or below (lowest·100 − 1) / keep; keep = 0: no test), refined by a
/// parabola when `subpixel`, into out[x] (left NaN where none); then made NaN where the right
/// image's own winner differs by more than `leftRight` px (negative: no check). Scratch: rc and
/// rb width + depth entries, integer width.
void parallax_sgm_row_winners(const int16_t *sums, int width, int depth, int disparities, int keep, int leftRight, int subpixel,
                              int16_t *rc, int16_t *rb, int32_t *integer, float *out, int level);

/// Census distances cost[x·depth + d] = popcount(left[x] ^ reversedRight[w − 1 − x + d]) of one
/// row for d < disparities where x ≥ d (else `outside`), 0 for disparities ≤ d < depth.
void parallax_census_cost_row(const uint64_t *left, const uint64_t *reversedRight, int width, int depth, int disparities,
                              uint8_t outside, uint8_t *cost, int level);

/// The bilateral filter of ParallaxImage's DepthFiltering.bilateral for rows [y0, y1): see
/// there. `toIndex[i]` (≥ 0, or NaN) is the centre's scale from Δz² to the range table's index,
/// `spatial` the (2r+1)² spatial weights, `rangeTable` steps + 2 entries (the last 0), `guide`
/// NULL or gray with `guideTable` 256 entries. Every pixel of the rows is written, those whose
/// centre is not finite with their value. When `rangeTable[i]` is exp(−i·rangeStep) rounded to float (steps 1023; 0:
/// unknown), the AVX-512 variant computes those weights (see
/// parallax_bilateral_range_arithmetic) instead of reading the table: the same bits.
void parallax_bilateral_rows(const float *depth, const float *toIndex, int width, int height, int radius, const float *spatial,
                             const float *rangeTable, int steps, double rangeStep, const uint8_t *guide, const float *guideTable,
                             int y0, int y1, float *out, int level);

/// 1 when variant `level` computes the bilateral filter's range weights without reading
/// `rangeTable` (from exp(−32·h·rangeStep) and exp(−l·rangeStep), h, l < 32, with permutes),
/// having checked that this gives every entry's bits; 0 when it reads the table.
int parallax_bilateral_range_arithmetic(const float *rangeTable, int steps, double rangeStep, int level);

/// What one pass of PnP's Levenberg–Marquardt over its points sums (pnp.c): the robust cost,
/// the lower triangle of the 6 × 6 normal matrix by rows (H₀₀, H₁₀, H₁₁, H₂₀, …, H₅₅) and the
/// gradient, for the increment R ← exp(δθ)·R, t ← t + δt of the pose; `squares` the sum of the
/// squared reprojection errors (px²) of the points with weight (for their RMS); `behind` is 1
/// when a point (padding included) has depth ≤ 0, and the sums are then meaningless.
typedef struct parallax_pnp_sums {
    double cost;
    double squares;
    double h[21];
    double g[6];
    int behind;
} parallax_pnp_sums;

/// PerspectivePoints.Packed.equations of ParallaxVision (see there for the terms): `lanes`
/// holds `blocks` blocks of 24 doubles (model x, y, z (m), normalized image x, y, weight; four
/// points each), `pose` the rotation row-major (9) and the translation (3, m) of T_CM, the
/// focal lengths in px, `huber` the Huber threshold in px.
void parallax_pnp_equations(const double *lanes, size_t blocks, const double *pose, double fx, double fy, double huber,
                            parallax_pnp_sums *out, int level);

/// The variant each kernel runs given its `level` argument: 0 portable, 1 AVX2, 2 AVX-512
/// (AVX-512F/BW/VL/VPOPCNTDQ); the processor's best for −1 or any level above it. Tests pass
/// each level and compare the results.
int parallax_kernels_level(int level);

#ifdef __cplusplus
}
#endif

#endif
