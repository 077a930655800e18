// dlib's HOG frontal face detector and its 68-point shape predictor behind a C interface.
#include <memory>
#include "parallax_dlib_face.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <vector>

#include <dlib/image_processing.h>
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_transforms.h>
#include <dlib/serialize.h>

struct parallax_dlib_face_detector {
    dlib::frontal_face_detector detector;
    dlib::shape_predictor predictor;
};

static void put_error(char *error, size_t size, const char *what) {
    if (error != nullptr && size > 0) std::snprintf(error, size, "%s", what);
}

extern "C" parallax_dlib_face_detector *parallax_dlib_face_detector_create(const char *predictor_path, char *error, size_t error_size) {
    try {
        // Owned until it is complete: a predictor file that fails to deserialize throws, and
        // the half-made detector is freed on the way out.
        auto d = std::make_unique<parallax_dlib_face_detector>();
        d->detector = dlib::get_frontal_face_detector();
        dlib::deserialize(predictor_path) >> d->predictor;
        if (d->predictor.num_parts() != 68) {
            put_error(error, error_size, "the shape predictor does not give 68 landmarks");
            return nullptr;
        }
        return d.release();
    } catch (const std::exception &e) {
        put_error(error, error_size, e.what());
    } catch (...) {
        put_error(error, error_size, "unknown error loading the shape predictor");
    }
    return nullptr;
}

extern "C" void parallax_dlib_face_detector_destroy(parallax_dlib_face_detector *detector) { delete detector; }

extern "C" int parallax_dlib_face_detect(parallax_dlib_face_detector *detector, const unsigned char *gray, int width, int height, int stride,
                                         int upsample, double threshold, parallax_dlib_face *faces, int max_faces,
                                         char *error, size_t error_size) {
    if (detector == nullptr || gray == nullptr || width <= 0 || height <= 0 || stride < width || upsample < 0 || upsample > 3) {
        put_error(error, error_size, "invalid arguments");
        return -1;
    }
    try {
        dlib::array2d<unsigned char> image(height, width);
        for (int y = 0; y < height; ++y) {
            const unsigned char *row = gray + static_cast<size_t>(y) * static_cast<size_t>(stride);
            for (int x = 0; x < width; ++x) image[y][x] = row[x];
        }
        // Upsampled as dlib's examples do; coordinates go back through the same pyramid's
        // point_down / rect_down.
        dlib::pyramid_down<2> pyramid;
        for (int k = 0; k < upsample; ++k) dlib::pyramid_up(image, pyramid);
        std::vector<dlib::rect_detection> detections;
        detector->detector(image, detections, threshold);
        std::sort(detections.begin(), detections.end(), [](const dlib::rect_detection &a, const dlib::rect_detection &b) {
            return a.detection_confidence > b.detection_confidence;
        });
        int written = 0;
        for (const auto &d : detections) {
            if (written >= max_faces || faces == nullptr) break;
            dlib::full_object_detection shape = detector->predictor(image, d.rect);
            parallax_dlib_face &f = faces[written++];
            const dlib::drectangle box = pyramid.rect_down(dlib::drectangle(d.rect), static_cast<unsigned int>(upsample));
            f.x = box.left();
            f.y = box.top();
            f.width = box.width();
            f.height = box.height();
            f.score = d.detection_confidence;
            for (unsigned long i = 0; i < 68; ++i) {
                const dlib::dpoint p = pyramid.point_down(dlib::dpoint(shape.part(i)), static_cast<unsigned int>(upsample));
                f.points[2 * i] = p.x();
                f.points[2 * i + 1] = p.y();
            }
        }
        return static_cast<int>(detections.size());
    } catch (const std::exception &e) {
        put_error(error, error_size, e.what());
    } catch (...) {
        put_error(error, error_size, "unknown error in face detection");
    }
    return -1;
}

extern "C" int parallax_dlib_face_landmarks(parallax_dlib_face_detector *detector, const unsigned char *gray, int width, int height, int stride,
                                            double x, double y, double box_width, double box_height, double *points,
                                            char *error, size_t error_size) {
    if (detector == nullptr || gray == nullptr || points == nullptr || width <= 0 || height <= 0 || stride < width
        || !(box_width > 0) || !(box_height > 0) || !std::isfinite(x) || !std::isfinite(y)
        // lround of a box beyond ±1e7 px would not fit a long's contract on every platform.
        || !(box_width < 1e7) || !(box_height < 1e7) || std::fabs(x) > 1e7 || std::fabs(y) > 1e7) {
        put_error(error, error_size, "invalid arguments");
        return -1;
    }
    try {
        dlib::array2d<unsigned char> image(height, width);
        for (int r = 0; r < height; ++r) {
            const unsigned char *row = gray + static_cast<size_t>(r) * static_cast<size_t>(stride);
            for (int c = 0; c < width; ++c) image[r][c] = row[c];
        }
        const dlib::rectangle box(static_cast<long>(std::lround(x)), static_cast<long>(std::lround(y)),
                                  static_cast<long>(std::lround(x + box_width - 1)), static_cast<long>(std::lround(y + box_height - 1)));
        const dlib::full_object_detection shape = detector->predictor(image, box);
        for (unsigned long i = 0; i < 68; ++i) {
            points[2 * i] = static_cast<double>(shape.part(i).x());
            points[2 * i + 1] = static_cast<double>(shape.part(i).y());
        }
        return 0;
    } catch (const std::exception &e) {
        put_error(error, error_size, e.what());
    } catch (...) {
        put_error(error, error_size, "unknown error fitting landmarks");
    }
    return -1;
}
