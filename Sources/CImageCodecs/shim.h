// CImageCodecs: Debian's libpng (simplified png_image API) and libturbojpeg.
// Not API: only ParallaxDatasets imports it.
#ifndef PARALLAX_CIMAGECODECS_SHIM_H
#define PARALLAX_CIMAGECODECS_SHIM_H
#include <png.h>
#include <turbojpeg.h>
#endif
