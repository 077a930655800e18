// The per-point pass of PnP's Levenberg–Marquardt (ParallaxVision's PerspectivePoints): see
// include/parallax_kernels.h. Four points per vector of four doubles, compiled for the portable
// baseline (two SSE2 halves), AVX2 + FMA and AVX-512VL (still four lanes, more registers): the
// same operations in the same order on each lane, fused multiply-adds only where written (FMA(),
// one rounding: the hardware's where the variant has it, libm's exact fma() in the portable
// build of a processor without), no other contraction, IEEE division and square root, and the
// lanes summed in one fixed order, so every variant gives the same bits.
#pragma clang fp contract(off)
#include "parallax_kernels.h"

#include <math.h>

#if defined(__x86_64__) && defined(__clang__)
#define PARALLAX_X86 1
#endif

typedef double v4d __attribute__((ext_vector_type(4)));
typedef double v4du __attribute__((ext_vector_type(4), aligned(8)));
typedef long v4l __attribute__((ext_vector_type(4)));

#define KSQRT(x) __builtin_elementwise_sqrt(x)
#define FMA(a, b, c) __builtin_elementwise_fma(a, b, c)
#define KATTR
#define KFN(name) name##_portable
#include "template/pnp_body.h"
#undef KATTR
#undef KFN

#ifdef PARALLAX_X86
#define KATTR __attribute__((target("avx2,fma")))
#define KFN(name) name##_avx2
#include "template/pnp_body.h"
#undef KATTR
#undef KFN

#define KATTR __attribute__((target("avx512f,avx512vl,avx2,fma")))
#define KFN(name) name##_avx512
#include "template/pnp_body.h"
#undef KATTR
#undef KFN
#endif

void parallax_pnp_equations(const double *lanes, size_t blocks, const double *pose, double fx, double fy, double huber,
                            parallax_pnp_sums *out, int level) {
    int chosen = parallax_kernels_level(level);
#ifdef PARALLAX_X86
    if (chosen > 0 && !__builtin_cpu_supports("fma")) chosen = 0;
#endif
    switch (chosen) {
#ifdef PARALLAX_X86
    case 2: pnp_equations_avx512(lanes, blocks, pose, fx, fy, huber, out); return;
    case 1: pnp_equations_avx2(lanes, blocks, pose, fx, fy, huber, out); return;
#endif
    default: pnp_equations_portable(lanes, blocks, pose, fx, fy, huber, out); return;
    }
}
