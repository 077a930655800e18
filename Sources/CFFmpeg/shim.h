// CFFmpeg: Debian's FFmpeg libraries (libavformat-dev, libavcodec-dev, libswscale-dev,
// libavutil-dev). Not API: only ParallaxVideo imports this module.
#ifndef PARALLAX_CFFMPEG_SHIM_H
#define PARALLAX_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/imgutils.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libavutil/dict.h>
#include <libavutil/display.h>
#include <math.h>

// Function-like macros Swift cannot import.
static inline int parallax_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int parallax_averror_eof(void) { return AVERROR_EOF; }
static inline int parallax_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int parallax_av_disposition_attached_pic(void) { return AV_DISPOSITION_ATTACHED_PIC; }
static inline int64_t parallax_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int parallax_avfmt_nofile(void) { return AVFMT_NOFILE; }
static inline int parallax_avfmt_globalheader(void) { return AVFMT_GLOBALHEADER; }
static inline int parallax_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }

// The rotation (degrees, counterclockwise) a stream's display matrix asks players to show its
// frames with (phones record upright video as landscape frames tagged so); NAN without one.
static inline double parallax_display_rotation(const AVStream *stream) {
    const uint8_t *matrix = NULL;
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 29, 100)
    const AVPacketSideData *data = av_packet_side_data_get(stream->codecpar->coded_side_data, stream->codecpar->nb_coded_side_data,
                                                           AV_PKT_DATA_DISPLAYMATRIX);
    if (data && data->size >= 9 * sizeof(int32_t)) matrix = data->data;
#else
    size_t size = 0;
    matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (size < 9 * sizeof(int32_t)) matrix = NULL;
#endif
    return matrix ? av_display_rotation_get((const int32_t *)matrix) : NAN;
}

#endif
