// CLAPACK: Debian's LAPACKE (liblapacke-dev) and OpenBLAS's CBLAS (libopenblas-dev).
// Not API: only ParallaxMath imports this module.
#ifndef PARALLAX_CLAPACK_SHIM_H
#define PARALLAX_CLAPACK_SHIM_H

#include <lapacke.h>
#include <cblas.h>

/// OpenBLAS's thread-count control (declared in OpenBLAS's cblas.h; repeated here so the
/// shim does not depend on which cblas.h the alternatives system selected).
void openblas_set_num_threads(int num_threads);

/// OpenBLAS's thread pool shutdown (exported by its threaded builds; weak, so a build without a
/// pool, OpenBLAS's serial variant, still loads).
int blas_thread_shutdown_(void) __attribute__((weak));

/// One BLAS thread, and the pool OpenBLAS started when it was loaded stopped: its idle workers
/// otherwise spin (sched_yield) for about 0.1 s after start — per core, in every process. Only
/// while no other thread can be inside BLAS (the pool restarts itself should a caller raise the
/// thread count again).
static inline void parallax_openblas_single_thread(int stop_pool) {
    openblas_set_num_threads(1);
    if (stop_pool && blas_thread_shutdown_) blas_thread_shutdown_();
}

/// LAPACKE's integer type is a macro, which Swift cannot see; this typedef exposes it.
typedef lapack_int parallax_lapack_int;

#endif
