// The bilateral filter's window sums, written once and compiled once per instruction set by
// kernels.c, which defines before including this file: KFN(name), KATTR, KBL (pixels per
// step), BF/BI (KBL floats / 32-bit integers, BFU/BIU/BBU their unaligned forms, BBU of bytes)
// and the variant's lookups, KFN(bilateral_range) and KFN(bilateral_guide). Every lane makes the
// same operations in the same order as bilateral_pixel (kernels.c) makes for one pixel alone,
// so every variant gives its bits.

/// Pixels x … x + KBL − 1 of row y, whose windows lie inside the image's columns. A neighbour
/// counts where its range-table index q = Δz²·scale is below the table's end: that excludes
/// non-finite neighbours (and centres: their q is NaN or ∞) as the scalar loop's test does, and the
/// neighbours at the table's end, whose weight 0 adds nothing (the sums start at +0 and never
/// become −0, so adding +0 for them or skipping them gives the same bits).
static inline __attribute__((always_inline)) KATTR void KFN(bilateral_step)(const bilateral_job *restrict j, int x, int y,
                                                                             const int guided, const int arithmetic) {
    const size_t at = (size_t)y * j->w + x;
    const BF c = *(const BFU *)(j->z + at);
    // Finite centres: |c| below infinity, compared as integers.
    const BI centres = ((BI)c & 0x7FFFFFFF) < 0x7F800000;
    if (!__builtin_reduce_or(centres)) {
        *(BFU *)(j->out + at) = c;
        return;
    }
    const BF scale = *(const BFU *)(j->toIndex + at);
    const BF top = (BF){0} + (float)(j->steps + 1);
    const BI gc = guided ? __builtin_convertvector(*(const BBU *)(j->g + at), BI) : (BI){0};
    const int r = j->r, side = 2 * r + 1;
    const int y0 = y - r < 0 ? 0 : y - r, y1 = y + r > j->h - 1 ? j->h - 1 : y + r;
    BF sum = (BF){0}, total = (BF){0};
    for (int yy = y0; yy <= y1; yy++) {
        const float *row = j->z + (size_t)yy * j->w + x - r;
        const float *spatial = j->sp + (yy - y + r) * side;
        const uint8_t *grow = guided ? j->g + (size_t)yy * j->w + x - r : NULL;
        for (int i = 0; i < side; i++) {
            const BF v = *(const BFU *)(row + i);
            const BF dz = v - c;
            const BF q = dz * dz * scale;
            const BI inside = q < top;
            // rangeTable[(int)q] where inside, 0 elsewhere.
            BF weight = spatial[i] * KFN(bilateral_range)(j, q, inside, arithmetic);
            if (guided) {
                const BI gi = __builtin_convertvector(*(const BBU *)(grow + i), BI) - gc;
                weight *= KFN(bilateral_guide)(j->gt, __builtin_elementwise_abs(gi));
            }
            sum += weight * (BF)((BI)v & inside);
            total += weight;
        }
    }
    const BI some = total > 0;
    const BF mean = sum / (BF)(((BI)total & some) | ((BI)((BF){0} + 1.0f) & ~some));
    // Non-finite centres (total 0) keep their value.
    *(BFU *)(j->out + at) = (BF)(((BI)mean & some) | ((BI)c & ~some));
}

/// Whether the variant's arithmetic range weights (KFN(bilateral_range) from j->factors) give
/// every entry of the range table's bits: else the filter reads the table.
static KATTR int KFN(bilateral_factors_exact)(const bilateral_job *j) {
    if (j->steps != 1023) return 0;
    BI lanes;
    for (int k = 0; k < KBL; k++) lanes[k] = k;
    for (int i = 0; i < 1024; i += KBL) {
        const BF q = __builtin_convertvector(lanes + i, BF);
        const BF got = KFN(bilateral_range)(j, q, lanes >= 0, 1);
        if (__builtin_reduce_or((BI)got != *(const BIU *)(j->rt + i))) return 0;
    }
    return 1;
}

/// Rows [y0, y1): scalar where the window leaves the image's columns, KBL pixels at a time in
/// between (the last step moved left to end at the border: its pixels again, the same values).
static inline __attribute__((always_inline)) KATTR void KFN(bilateral_rows_as)(const bilateral_job *restrict j, int y0, int y1,
                                                                                const int guided, const int arithmetic) {
    const int w = j->w, r = j->r;
    for (int y = y0; y < y1; y++) {
        int x = 0;
        if (w - 2 * r >= KBL) {
            for (; x < r; x++) bilateral_pixel(j, x, y);
            for (; x + KBL + r <= w; x += KBL) KFN(bilateral_step)(j, x, y, guided, arithmetic);
            if (x < w - r) KFN(bilateral_step)(j, w - r - KBL, y, guided, arithmetic);
            x = w - r;
        }
        for (; x < w; x++) bilateral_pixel(j, x, y);
    }
}

static KATTR void KFN(bilateral_rows)(const bilateral_job *j, int y0, int y1) {
    const int arithmetic = j->factors != NULL && KFN(bilateral_factors_exact)(j);
    if (j->g) {
        if (arithmetic) KFN(bilateral_rows_as)(j, y0, y1, 1, 1);
        else KFN(bilateral_rows_as)(j, y0, y1, 1, 0);
    } else {
        if (arithmetic) KFN(bilateral_rows_as)(j, y0, y1, 0, 1);
        else KFN(bilateral_rows_as)(j, y0, y1, 0, 0);
    }
}

// This variant's parameters end here (the next variant defines its own).
#undef KBL
#undef KATTR
#undef KFN
#undef BF
#undef BFU
#undef BI
#undef BIU
#undef BBU
