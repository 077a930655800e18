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

// Function-like macros Swift cannot import.
static inline int parallax_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int parallax_averror_eof(void) { return AVERROR_EOF; }
static inline int parallax_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int parallax_av_disposition_attached_pic(void) { return AV_DISPOSITION_ATTACHED_PIC; }
static inline int64_t parallax_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int parallax_avfmt_nofile(void) { return AVFMT_NOFILE; }
static inline int parallax_avfmt_globalheader(void) { return AVFMT_GLOBALHEADER; }
static inline int parallax_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }

#endif
