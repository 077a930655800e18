// Inner loops of Parallax's FAST / ORB / bilinear-pyramid / Hamming-matching kernels (issue 47).
// Not API: ParallaxImage and ParallaxVision call these behind their Swift types.
//
// Every function has an AVX2 (or POPCNT) path chosen at run time with __builtin_cpu_supports and
// a portable path; both give bit-identical results to each other and to the Swift code they
// replaced: vectorization runs across pixels (or pattern pairs), never reorders one pixel's
// floating-point operations, and contraction into FMA is off for the whole file.
#ifndef PARALLAX_FEATURE_KERNELS_H
#define PARALLAX_FEATURE_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Which paths run: bit 0 AVX2, bit 1 POPCNT, bit 2 AVX-512 VPOPCNTDQ (+ F, VL), bit 3 AVX-512
/// F + BW (as detected, after any override).
int pxl_kernels_features(void);
/// For tests: 1 forces the portable paths, 2 the AVX2 ones at most (no AVX-512), 0 restores
/// detection.
void pxl_kernels_force_portable(int portable);

/// FAST-9 scores of a `w`×`h` float image into `out` (every pixel written: 0 outside
/// [border, w−border)×[border, h−border) and where the segment test fails; else the sum over the
/// 16 circle pixels, in circle order, of max(v − hi, 0) + max(lo − v, 0)). `offsets` are the 16
/// circle offsets for row stride `w`, clockwise from the top. border ≥ 3.
void pxl_fast_scores(const float *image, ptrdiff_t w, ptrdiff_t h, ptrdiff_t border, float threshold,
                     const ptrdiff_t offsets[16], float *out);

/// pxl_fast_scores (border `fast_border`), then 3×3 non-maximum suppression of those scores
/// inside `nms_border`, raster order: keeps v > 0 that is > the 4 neighbours before it and ≥ the 4
/// after. Writes at most `capacity` (index, score) pairs; returns how many it found (may exceed
/// `capacity`: then only the first were written). Row by row, without the score image: scratch
/// `row_scratch` 3·w floats, `column_scratch` 3·w int32, `byte_scratch` w·h bytes (the 8-bit
/// copy of the SIMD paths).
size_t pxl_fast_nms(const float *image, ptrdiff_t w, ptrdiff_t h, ptrdiff_t fast_border, float threshold, const ptrdiff_t offsets[16],
                    ptrdiff_t nms_border, float *row_scratch, int32_t *column_scratch, int8_t *byte_scratch,
                    int64_t *indices, float *values, size_t capacity);

/// Vertical pass of a separable filter: out[y][x] = Σ_k weights[k]·src[row_starts[y·taps + k] + x]
/// (row_starts: offsets of the source rows, already times w), summed from 0 in tap order.
void pxl_filter_vertical(const float *src, ptrdiff_t w, ptrdiff_t h, const float *weights, ptrdiff_t taps,
                         const ptrdiff_t *row_starts, float *out);
/// Horizontal pass: each row padded into `scratch` (w + taps − 1 floats, pad[i] = row[columns[i]]),
/// then out[y][x] = Σ_k weights[k]·pad[tap_starts[k] + x] (tap_starts = 0, 1, …, taps − 1),
/// summed from 0 in tap order.
void pxl_filter_horizontal(const float *src, ptrdiff_t w, ptrdiff_t h, const float *weights, ptrdiff_t taps,
                           const ptrdiff_t *columns, const ptrdiff_t *tap_starts, float *scratch, float *out);

/// Both passes, row by row: the vertical pass of row y into `row_scratch` (w floats), then its
/// horizontal pass into out (as pxl_filter_vertical followed by pxl_filter_horizontal, without
/// the intermediate image).
void pxl_filter_separable(const float *src, ptrdiff_t w, ptrdiff_t h, const float *weights, ptrdiff_t taps,
                          const ptrdiff_t *row_starts, const ptrdiff_t *columns, const ptrdiff_t *tap_starts,
                          float *row_scratch, float *pad_scratch, float *out);

/// pxl_filter_separable on the marked 8×8 tiles of `out` only: `tiles` holds ceil(h/8) rows of
/// ceil(w/8) marks; the pixels of a marked tile get exactly the value pxl_filter_separable gives
/// them; all other pixels 0 when `clear` != 0, else left as they are (they may then never have
/// been written). Same scratch sizes as pxl_filter_separable.
void pxl_filter_separable_tiles(const float *src, ptrdiff_t w, ptrdiff_t h, const float *weights, ptrdiff_t taps,
                                const ptrdiff_t *row_starts, const ptrdiff_t *columns, const ptrdiff_t *tap_starts, const uint8_t *tiles,
                                int clear, float *row_scratch, float *pad_scratch, float *out);

/// Bilinear resampling with precomputed taps: for destination (x, y),
/// top = s[y0,x0] + (s[y0,x1] − s[y0,x0])·fx, bottom likewise on row y1, out = top + (bottom − top)·fy.
/// `scratch` holds 2·dw floats, `index_scratch` 2·dw int32.
void pxl_resize_bilinear(const float *src, ptrdiff_t sw, const ptrdiff_t *x0, const ptrdiff_t *x1, const float *fx,
                         ptrdiff_t dw, const ptrdiff_t *y0, const ptrdiff_t *y1, const float *fy, ptrdiff_t dh,
                         float *scratch, int32_t *index_scratch, float *out);

/// Steered BRIEF: for k < 256, u = rint(c·x − s·y), v = rint(s·x + c·y) (nearest, ties to even) for
/// both points of pair k (pattern: x1[256], y1[256], x2[256], y2[256]); bit k set when
/// centre[v1·w + u1] < centre[v2·w + u2]. The caller keeps every sample inside the image.
void pxl_brief_describe(const float *centre, ptrdiff_t w, float c, float s, const float *pattern, uint64_t out[4]);

/// Brute-force Hamming distances of `nq` query against `nt` train 256-bit descriptors (4 words
/// each). Per query: best and second-best distance and the lowest index with the best. Per
/// train: best distance over all queries and the lowest query index with it (arrays initialised
/// by the caller: distance INT32_MAX, index −1).
void pxl_hamming_match(const uint64_t *query, ptrdiff_t nq, const uint64_t *train, ptrdiff_t nt,
                       int32_t *best, int32_t *second, int32_t *best_index,
                       int32_t *train_best, int32_t *train_best_query);

/// Intensity-centroid moments of the circular patches around `count` centres (pixel indices of
/// `image`, row stride `w`, `pixel_count` pixels): for each, exactly
/// `for dy in −r…r { s = 0; for dx in −half[|dy|]…half[|dy|] { v = p[c + dy·w + dx]; m10 += dx·v; s += v }; m01 += dy·s }`.
void pxl_patch_moments(const float *image, ptrdiff_t w, ptrdiff_t pixel_count, const int64_t *centres, ptrdiff_t count,
                       ptrdiff_t radius, const ptrdiff_t *half_widths, float *m10, float *m01);

/// Sums of the 7×7 structure tensor of Sobel gradients around each centre (pixel indices, 4 px
/// from the edges): for v, u in −3…3 (rows outer), dx = (ne + 2·e + se) − (nw + 2·w + sw),
/// dy = (sw + 2·s + se) − (nw + 2·n + ne), a += dx², b += dy², c += dx·dy, in that order.
void pxl_harris_sums(const float *image, ptrdiff_t w, ptrdiff_t pixel_count, const int64_t *centres, ptrdiff_t count,
                     float *a, float *b, float *c);

/// Reorders `keys` (distinct) so that its first `k` are the `k` smallest, ascending.
void pxl_sort_smallest(uint64_t *keys, size_t n, size_t k);

#ifdef __cplusplus
}
#endif

// The pyramidal Lucas–Kanade loops and the pyramid/derivative loops, declared beside this header
// (included here too, so that a module cache built before they existed sees them).
#include "parallax_image_kernels.h"
#include "parallax_klt_kernels.h"
#endif
