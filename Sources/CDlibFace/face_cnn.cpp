// dlib's CNN face detector (MMOD, mmod_human_face_detector.dat) and the 68-point shape
// predictor on a given box, behind the C interface of parallax_dlib_face.h.
#include <memory>
#include "parallax_dlib_face.h"

#include <cstdio>
#include <exception>
#include <vector>

#include <dlib/dnn.h>
#include <dlib/image_processing.h>
#include <dlib/image_transforms.h>
#include <dlib/serialize.h>

namespace {
// The network of dlib's dnn_mmod_face_detection_ex.cpp, which the model file was trained with.
template <long num_filters, typename SUBNET> using con5d = dlib::con<num_filters, 5, 5, 2, 2, SUBNET>;
template <long num_filters, typename SUBNET> using con5 = dlib::con<num_filters, 5, 5, 1, 1, SUBNET>;
template <typename SUBNET> using downsampler =
    dlib::relu<dlib::affine<con5d<32, dlib::relu<dlib::affine<con5d<32, dlib::relu<dlib::affine<con5d<16, SUBNET>>>>>>>>>;
template <typename SUBNET> using rcon5 = dlib::relu<dlib::affine<con5<45, SUBNET>>>;
using mmod_net = dlib::loss_mmod<dlib::con<1, 9, 9, 1, 1, rcon5<rcon5<rcon5<downsampler<dlib::input_rgb_image_pyramid<dlib::pyramid_down<6>>>>>>>>;

void put_error(char *error, size_t size, const char *what) {
    if (error != nullptr && size > 0) std::snprintf(error, size, "%s", what);
}
}  // namespace

struct parallax_dlib_cnn_detector {
    mmod_net net;
};

extern "C" parallax_dlib_cnn_detector *parallax_dlib_cnn_detector_create(const char *model_path, char *error, size_t error_size) {
    try {
        auto d = std::make_unique<parallax_dlib_cnn_detector>();
        dlib::deserialize(model_path) >> d->net;
        return d.release();
    } catch (const std::exception &e) {
        put_error(error, error_size, e.what());
    } catch (...) {
        put_error(error, error_size, "unknown error loading the CNN face detector");
    }
    return nullptr;
}

extern "C" void parallax_dlib_cnn_detector_destroy(parallax_dlib_cnn_detector *detector) { delete detector; }

extern "C" int parallax_dlib_cnn_detect(parallax_dlib_cnn_detector *detector, const unsigned char *gray, int width, int height, int stride,
                                        int upsample, double threshold, parallax_dlib_box *boxes, int max_boxes,
                                        char *error, size_t error_size) {
    if (detector == nullptr || gray == nullptr || width <= 0 || height <= 0 || stride < width || upsample < 0 || upsample > 2 || max_boxes < 0) {
        put_error(error, error_size, "invalid arguments");
        return -1;
    }
    try {
        // The network was trained on colour: gray goes in as equal channels.
        dlib::matrix<dlib::rgb_pixel> image(height, width);
        for (int y = 0; y < height; ++y) {
            const unsigned char *row = gray + static_cast<size_t>(y) * static_cast<size_t>(stride);
            for (int x = 0; x < width; ++x) image(y, x) = dlib::rgb_pixel(row[x], row[x], row[x]);
        }
        dlib::pyramid_down<2> pyramid;
        for (int k = 0; k < upsample; ++k) dlib::pyramid_up(image, pyramid);
        // `threshold` moves the network's own (0): lower finds more.
        std::vector<dlib::mmod_rect> detections = detector->net.process(image, threshold);
        std::sort(detections.begin(), detections.end(), [](const dlib::mmod_rect &a, const dlib::mmod_rect &b) {
            return a.detection_confidence > b.detection_confidence;
        });
        int written = 0;
        for (const auto &d : detections) {
            if (written >= max_boxes || boxes == nullptr) break;
            const dlib::drectangle box = pyramid.rect_down(dlib::drectangle(d.rect), static_cast<unsigned int>(upsample));
            parallax_dlib_box &b = boxes[written++];
            b.x = box.left();
            b.y = box.top();
            b.width = box.width();
            b.height = box.height();
            b.score = d.detection_confidence;
        }
        return static_cast<int>(detections.size());
    } catch (const std::exception &e) {
        put_error(error, error_size, e.what());
    } catch (...) {
        put_error(error, error_size, "unknown error in CNN face detection");
    }
    return -1;
}
