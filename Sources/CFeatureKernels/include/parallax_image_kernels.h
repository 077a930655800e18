// Image-pyramid and derivative loops of Parallax's ParallaxImage (issue 47): the Gaussian pyramid
// step (`ImagePyramid.pyrDown`) and the 3×3 Scharr/Sobel derivatives (`Gradients`) that
// pyramidal Lucas–Kanade prepares every frame. Not API.
//
// An AVX2 path chosen at run time (`pxl_kernels_features`, forced off by
// `pxl_kernels_force_portable`) and a portable path; both give bit-identical results to each other
// and to the Swift loops they replaced (vectorized across pixels, one pixel's operations in the
// written order, never fused). Reads are unchecked: the Swift caller checks the margins.
#ifndef PARALLAX_IMAGE_KERNELS_H
#define PARALLAX_IMAGE_KERNELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One pyramid level down: `src` points at pixel (0, 0) of a `w`×`h` image with a margin of at
/// least 2 px (row stride `src_stride`, in floats); writes the ⌈w/2⌉×⌈h/2⌉ result at `dst` (row stride
/// `dst_stride`, in floats). Per output row y, the vertical pass over columns −2 … w + 1 of source rows
/// 2y − 2 … 2y + 2, t = r0 + r4 + 4·(r1 + r3) + 6·r2, into `scratch` (w + 4 floats), then per
/// output x, with c = 2x: (t[c−2] + t[c+2] + 4·(t[c−1] + t[c+1]) + 6·t[c])·(1/256).
void pxl_pyr_down(const float *src, ptrdiff_t src_stride, ptrdiff_t w, ptrdiff_t h, float *dst, ptrdiff_t dst_stride,
                  float *scratch);

/// 3×3 derivatives, central difference across and smoothing (k0, k1, k2) along: `src` points at
/// pixel (0, 0) of a `w`×`h` image with a margin of at least 1 px. Per row, over columns −1 … w,
/// v = k0·up + k1·mid + k2·down and d = down − up (into `v_scratch`, `d_scratch`: w + 2 floats
/// each); then dx = (v[x+1] − v[x−1])·scale and dy = (k0·d[x−1] + k1·d[x] + k2·d[x+1])·scale,
/// written at `dx`, `dy` (pixel (0, 0), row stride `out_stride`); strides in floats.
void pxl_derivative3(const float *src, ptrdiff_t src_stride, ptrdiff_t w, ptrdiff_t h, float k0, float k1, float k2,
                     float scale, float *dx, float *dy, ptrdiff_t out_stride, float *v_scratch, float *d_scratch);

#ifdef __cplusplus
}
#endif
#endif
