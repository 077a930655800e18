// CFFTW: Debian's FFTW 3, single precision (libfftw3-dev, libfftw3f). Not API: only
// ParallaxTracking imports this module.
#ifndef PARALLAX_CFFTW_SHIM_H
#define PARALLAX_CFFTW_SHIM_H

#include <fftw3.h>

#endif
