// CZlib: Debian's zlib (zlib1g-dev). Not API: ParallaxDatasets imports it to inflate the
// compressed elements of MATLAB v5 files.
#ifndef PARALLAX_CZLIB_SHIM_H
#define PARALLAX_CZLIB_SHIM_H

#include <zlib.h>

/// inflateInit is a macro in zlib.h (Swift cannot call it): the same call as a function.
static inline int parallax_inflate_init(z_stream *stream) {
    return inflateInit(stream);
}

#endif
