// Inner loops of Parallax's pyramidal Lucas–Kanade tracker (issue 47). Not API: ParallaxVision's
// `PyramidalLucasKanade` calls these behind its Swift type.
//
// Every function has an AVX2 path chosen at run time (`pxl_kernels_features`, forced off by
// `pxl_kernels_force_portable`) and a portable path; both give bit-identical results to each other
// and to the Swift loops they replaced: the AVX2 path runs the eight lanes of the Swift `SIMD8`
// code in one register, the portable path runs them one by one, each lane's floating-point
// operations in the same order, never fused (contraction is off for the whole file).
//
// Reads are unchecked: the caller (Swift) checks, as preconditions, that every read lies inside
// the bordered image (rows `0 … window`, columns `0 … padded` from the window's integer origin,
// where `padded` is `window` rounded up to a multiple of 8).
#ifndef PARALLAX_KLT_KERNELS_H
#define PARALLAX_KLT_KERNELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The template of one window: bilinear samples (shared fractions `fx`, `fy` ∈ [0, 1) px) of `image`,
/// `dx`, `dy` (three images with the same row stride `stride`, in floats, each pointer at the
/// window's integer origin) over `window` rows (px) of `padded` = ⌈window / 8⌉·8 columns, into `templ`, `gx`, `gy`
/// (`window`·`padded` floats each). Per sample, h(r) = r[0] + (r[1] − r[0])·fx on the image row
/// above and below, v = h_above + (h_below − h_above)·fy; `templ` = v; for the gradients
/// g = v·(1/255), zeroed (·0) in the columns past `window`, summed into the structure tensor
/// `sums` = (Σ gx², Σ gx·gy, Σ gy²) (eight lane sums, rows outer and column blocks inner, then the
/// lanes added in order from −0), and stored as g·(1/255).
void pxl_lk_template(const float *image, const float *dx, const float *dy, ptrdiff_t stride, float fx, float fy,
                     ptrdiff_t window, float *templ, float *gx, float *gy, float sums[3]);

/// The mismatch of one iteration: Σ (v − templ)·gx and Σ (v − templ)·gy over the window, where v is
/// the bilinear sample of `image` (pointer at the window's integer origin, row stride `stride` in
/// floats, fractions `fx`, `fy` in px) formed as in `pxl_lk_template`; eight lane sums, column blocks outer and
/// rows inner, then the lanes added in order from −0, into `out` (x, y).
void pxl_lk_mismatch(const float *image, ptrdiff_t stride, float fx, float fy, ptrdiff_t window,
                     const float *templ, const float *gx, const float *gy, float out[2]);

#ifdef __cplusplus
}
#endif
#endif
