// The FAST-9 segment test one row at a time (fast_rows.c), shared by pxl_fast_scores and
// pxl_fast_nms (fast_kernels.c). Internal to CFeatureKernels.
#ifndef PARALLAX_FAST_ROWS_H
#define PARALLAX_FAST_ROWS_H

#include <stddef.h>
#include <stdint.h>

/// The state of one image's row-by-row segment test.
typedef struct {
    const float *image;      // w×h pixels
    int8_t *q;               // w×h bytes, floor(v) − 128 of the rows quantized so far; NULL: no 8-bit prefilter
    ptrdiff_t w, h;          // image size (px)
    ptrdiff_t x0, x1;        // the columns scored, [x0, x1)
    float threshold;
    int steps;               // floor(threshold) − 1: the 8-bit bounds are c ± steps
    int level;               // 0 portable, 1 AVX2, 2 AVX-512 (F + BW)
    ptrdiff_t off[16];       // circle offsets for row stride w, clockwise from the top
    ptrdiff_t quantized;     // rows below this one are in q
    ptrdiff_t last_invalid;  // the last quantized row with a value outside [0, 256) (NaN aside); −1 if none
} pxl_fast_rows;

/// Prepares the test of rows [border, h − border) over columns [border, w − border) (border ≥ 3,
/// and that interior not empty). `q`, when not NULL, holds w·h bytes of scratch for the 8-bit
/// prefilter (used only for thresholds in [1, 128) on the SIMD paths); the first row tested must
/// be `border`, and rows must then come in increasing order.
void pxl_fast_rows_init(pxl_fast_rows *r, const float *image, ptrdiff_t w, ptrdiff_t h, ptrdiff_t border, float threshold,
                        const ptrdiff_t offsets[16], int8_t *q);

/// The segment test of row y: for each column x in [x0, x1) whose score is not 0 (a positive score,
/// or NaN where a circle pixel is NaN), dst[x] = score and x goes to `xs` (ascending); every other
/// dst[x] in [x0, x1) is left as it is, or written 0. Returns how many went to `xs` (at most
/// x1 − x0).
size_t pxl_fast_row(pxl_fast_rows *r, ptrdiff_t y, float *dst, int32_t *xs);

#endif
