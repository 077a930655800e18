// CLAPACK: Debian's LAPACKE (liblapacke-dev) and OpenBLAS's CBLAS (libopenblas-dev).
// Not API: only ParallaxMath imports this module.
#ifndef PARALLAX_CLAPACK_SHIM_H
#define PARALLAX_CLAPACK_SHIM_H

#include <lapacke.h>
#include <cblas.h>

/// OpenBLAS's thread-count control (declared in OpenBLAS's cblas.h; repeated here so the
/// shim does not depend on which cblas.h the alternatives system selected).
void openblas_set_num_threads(int num_threads);

/// LAPACKE's integer type is a macro, which Swift cannot see; this typedef exposes it.
typedef lapack_int parallax_lapack_int;

#endif
