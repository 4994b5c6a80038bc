/* fuzz_input.h - reading a libFuzzer input as a stream of small choices, and
 * the invariant check every core target uses. Inputs past their end read as
 * zeros, so every byte string is a complete run. */
#ifndef BS_FUZZ_INPUT_H
#define BS_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "board.h"
#include "capture.h"

typedef struct fz_in {
    const uint8_t *p;
    size_t n, i;
} fz_in;

static inline int fz_more(const fz_in *in) { return in->i < in->n; }
static inline unsigned fz_u8(fz_in *in) { return in->i < in->n ? in->p[in->i++] : 0u; }
static inline unsigned fz_u16(fz_in *in) { return fz_u8(in) | fz_u8(in) << 8; }
static inline uint32_t fz_u32(fz_in *in) { return (uint32_t)fz_u16(in) | (uint32_t)fz_u16(in) << 16; }
/* A value in lo..hi (hi - lo < 65536). */
static inline int fz_range(fz_in *in, int lo, int hi)
{
    unsigned span = (unsigned)(hi - lo) + 1u;
    return lo + (int)((span <= 256u ? fz_u8(in) : fz_u16(in)) % span);
}
/* Mostly a value in lo..hi; one time in eight any int (to fuzz argument checks). */
static inline int fz_arg(fz_in *in, int lo, int hi)
{
    unsigned sel = fz_u8(in);
    if ((sel & 7u) == 7u)
        return (int)fz_u32(in);
    return fz_range(in, lo, hi);
}
/* A direction mask: mostly 0..255, sometimes out of range. */
static inline unsigned fz_dirs(fz_in *in)
{
    unsigned sel = fz_u8(in);
    if (sel == 0xffu)
        return fz_u32(in);
    if ((sel & 3u) == 3u)
        return BS_DIRS_ALL;
    return fz_u8(in);
}

#define FZ_CHECK(cond)                                                                  \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
            abort();                                                                    \
        }                                                                               \
    } while (0)

/* A board of side 1..max_n: one byte for the side, then two bits per cell
 * (empty, black, white, block); blocks only when `blocks`. */
static inline void fz_board(fz_in *in, bs_board *b, int max_n, int blocks)
{
    /* a first byte with its top bit set makes a rows x cols board (cols from the next byte) */
    unsigned first = fz_u8(in);
    int rows = 1 + (int)(first % (unsigned)max_n), cols = rows;
    if (first & 0x80u)
        cols = 1 + (int)(fz_u8(in) % (unsigned)max_n);
    FZ_CHECK(bs_board_init_shape(b, rows, cols) == BS_OK);
    unsigned bits = 0, have = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            if (have == 0) {
                bits = fz_u8(in);
                have = 4;
            }
            int cell = (int)(bits & 3u);
            bits >>= 2;
            have--;
            if (cell == BS_BLOCK && !blocks)
                cell = BS_EMPTY;
            FZ_CHECK(bs_board_set(b, r, c, cell) == BS_OK);
        }
}

/* The board mirrored in its main diagonal, and a direction mask mapped to it
 * (N <-> W, NE <-> SW, E <-> S; SE and NW stay). */
static inline void fz_transpose(const bs_board *b, bs_board *t)
{
    bs_board_init_shape(t, b->cols, b->rows);
    for (int p = 0; p < 3; p++)
        for (int r = 0; r < b->n; r++)
            for (int c = 0; c < b->n; c++)
                if (b->plane[p][r] >> c & 1u)
                    t->plane[p][c] |= 1u << r;
}
static inline void fz_transpose_set(const bs_set *s, bs_set *t)
{
    bs_set_init(t, s->n);
    for (int r = 0; r < s->n; r++)
        for (int c = 0; c < s->n; c++)
            if (s->row[r] >> c & 1u)
                t->row[c] |= 1u << r;
}
static inline unsigned fz_transpose_dirs(unsigned d)
{
    static const int to[8] = {6, 5, 4, 3, 2, 1, 0, 7};
    unsigned out = 0;
    for (int i = 0; i < 8; i++)
        if (d >> i & 1u)
            out |= 1u << to[i];
    return out;
}

static inline int fz_set_equal(const bs_set *a, const bs_set *b)
{
    if (a->n != b->n)
        return 0;
    for (int r = 0; r < BS_MAX_N; r++)
        if (a->row[r] != b->row[r])
            return 0;
    return 1;
}

#endif
