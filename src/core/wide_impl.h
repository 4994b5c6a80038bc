/* wide_impl.h - internals shared by the wide path's files (not a public API).
 *
 * The wide path is the capture core on N x N boards (N <= 26; see wide.h):
 *   wide.c         moves (bs_wide_moves)
 *   wide_perft.c   perft (bs_wide_perft): the walk over rows of 16 and 32
 *                  bits, and which path counts a node
 *   wide_avx2.c    the AVX2 path of boards up to 16 x 16 (and windows)
 *   wide_window.c  8 x 8 windows on the 8 x 8 path, 16 x 16 windows of
 *                  larger boards, and their escapes
 * Here: the every-size move generator (inlined into moves and perft), the
 * types the files share, and the functions one file calls in another.
 *
 * A plane is an array of rows, bit c of row r being cell (r, c). Shifting a
 * plane one cell in direction (dr, dc) reads row r - dr and shifts its lane
 * by dc; rows outside the board are zero (the buffers have PAD zero rows on
 * each side) and bits pushed past column n land where no piece and no empty
 * cell is, so no edge masks are needed. A direction's moves come from an
 * occluded fill of our pieces through theirs by doubling steps (1, 2, 4, 8,
 * 16 cells: enough for runs of n - 2 pieces), then one more step onto an
 * empty cell. Every loop runs over a fixed number of rows (16 or 32), so the
 * compiler vectorises it; the entry points are compiled twice (AVX2 and
 * baseline) and the processor picks one when the program loads. That is the
 * portable path; where the processor has AVX2 and BMI2, boards up to 16 x 16
 * and 16 x 16 windows of larger ones take the intrinsics path (wide_avx2.c,
 * wide_window.c). */
#ifndef BS_WIDE_IMPL_H
#define BS_WIDE_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "simd64.h"
#include "wide.h"

/* The AVX2 path (with BMI2), chosen at run time by bs_avx2_available();
 * builds for the baseline processor alone (-DBS_NO_TARGET_CLONES, as the
 * wide_test_baseline test does) and -DBS_NO_SIMD64 leave it out. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(BS_NO_TARGET_CLONES) && \
    !defined(BS_NO_SIMD64)
#define BS_WIDE_AVX2 1
#include <immintrin.h>
#endif

/* Vectors are passed only between functions compiled for one target (the
 * inlined ones, and the AVX2 code among itself), so the note that 32-byte
 * vector arguments change the ABI without AVX does not apply. */
#pragma GCC diagnostic ignored "-Wpsabi"

#define MAX_ROWS 32

static const int DR[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
static const int DC[8] = {0, 1, 1, 1, 0, -1, -1, -1};

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && !defined(BS_NO_TARGET_CLONES)
#define BS_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define BS_CLONES
#endif
#define BS_INLINE static inline __attribute__((always_inline))

/* A shuffle of two vectors by constant lane indices into their concatenation. */
#if defined(__clang__)
#define SHUFFLE8(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#define SHUFFLE16(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
#define SHUFFLE8(a, b, ...) __builtin_shuffle(a, b, (v8i){__VA_ARGS__})
#define SHUFFLE16(a, b, ...) __builtin_shuffle(a, b, (v16i){__VA_ARGS__})
#endif

/* Functions one of the wide files calls in another: hidden, so that calls
 * stay direct in the shared module (not through the PLT) as they were when
 * the functions were static. */
#define BS_WIDE_HIDDEN __attribute__((visibility("hidden")))

/* Eight rows in one vector (GCC/Clang vector extensions: AVX2 registers
 * where the processor has them). */
typedef uint32_t v8 __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

/* Rows moved k (1, 2 or 4) rows down: lane l of the result is row l - k,
 * taken from the vector before when it is negative. */
BS_INLINE v8 rows_down(v8 before, v8 cur, int k)
{
    if (k == 1)
        return SHUFFLE8(before, cur, 7, 8, 9, 10, 11, 12, 13, 14);
    if (k == 2)
        return SHUFFLE8(before, cur, 6, 7, 8, 9, 10, 11, 12, 13);
    return SHUFFLE8(before, cur, 4, 5, 6, 7, 8, 9, 10, 11);
}

/* Rows moved k rows up: lane l is row l + k, from the vector after past 7. */
BS_INLINE v8 rows_up(v8 cur, v8 after, int k)
{
    if (k == 1)
        return SHUFFLE8(cur, after, 1, 2, 3, 4, 5, 6, 7, 8);
    if (k == 2)
        return SHUFFLE8(cur, after, 2, 3, 4, 5, 6, 7, 8, 9);
    return SHUFFLE8(cur, after, 4, 5, 6, 7, 8, 9, 10, 11);
}

/* out = in moved dr rows (row r takes row r - dr) and dc columns; R vectors
 * of eight rows; rows and columns moved off the planes are lost. */
BS_INLINE void shift_plane(v8 *out, const v8 *in, int R, int dr, int dc)
{
    const v8 zero = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int j = 0; j < R; j++) {
        v8 x;
        if (dr == 0) {
            x = in[j];
        } else if (dr >= 8 || dr <= -8) {
            int from = j - dr / 8;
            x = (from >= 0 && from < R) ? in[from] : zero;
        } else if (dr > 0) {
            x = rows_down(j > 0 ? in[j - 1] : zero, in[j], dr);
        } else {
            x = rows_up(in[j], j + 1 < R ? in[j + 1] : zero, -dr);
        }
        if (dc > 0)
            x <<= dc;
        else if (dc < 0)
            x >>= -dc;
        out[j] = x;
    }
}

/* One doubling step of the occluded fill: g |= p & (g moved step cells);
 * p &= p moved step cells (unless it is the last step). */
BS_INLINE void fill_step(v8 *g, v8 *p, int R, int dr, int dc, int step, int last)
{
    v8 t[4];
    shift_plane(t, g, R, dr * step, dc * step);
    for (int j = 0; j < R; j++)
        g[j] |= p[j] & t[j];
    if (!last) {
        shift_plane(t, p, R, dr * step, dc * step);
        for (int j = 0; j < R; j++)
            p[j] &= t[j];
    }
}

/* The steps of doubling that cover a run of n - 2 pieces. */
static inline int steps_for(int n)
{
    int steps = 1;
    while ((1 << steps) - 1 < n - 2)
        steps++;
    return steps;
}

/* Adds to acc the cells just past runs of theirs that start next to mine in
 * direction (dr, dc). */
BS_INLINE void fill_direction(int R, int steps, int dr, int dc, const v8 *mine, const v8 *theirs, v8 *acc)
{
    v8 g[4], p[4], t[4];
    for (int j = 0; j < R; j++) {
        g[j] = mine[j];
        p[j] = theirs[j];
    }
    fill_step(g, p, R, dr, dc, 1, steps == 1);
    if (steps > 1)
        fill_step(g, p, R, dr, dc, 2, steps == 2);
    if (steps > 2)
        fill_step(g, p, R, dr, dc, 4, steps == 3);
    if (steps > 3)
        fill_step(g, p, R, dr, dc, 8, steps == 4);
    if (steps > 4)
        fill_step(g, p, R, dr, dc, 16, 1);
    for (int j = 0; j < R; j++)
        g[j] &= theirs[j];
    shift_plane(t, g, R, dr, dc);
    for (int j = 0; j < R; j++)
        acc[j] |= t[j];
}

/* The moves of mine against theirs onto empty along dirs (0: any empty). */
BS_INLINE void moves_planes(int R, int n, const v8 *mine, const v8 *theirs, const v8 *empty, unsigned dirs,
                            v8 *moves)
{
    if (dirs == 0) {
        for (int j = 0; j < R; j++)
            moves[j] = empty[j];
        return;
    }
    v8 acc[4];
    for (int j = 0; j < R; j++)
        acc[j] = (v8){0, 0, 0, 0, 0, 0, 0, 0};
    int steps = steps_for(n);
    if (dirs == BS_DIRS_ALL) { /* constant directions: each fill specialised */
        fill_direction(R, steps, -1, 0, mine, theirs, acc);
        fill_direction(R, steps, -1, 1, mine, theirs, acc);
        fill_direction(R, steps, 0, 1, mine, theirs, acc);
        fill_direction(R, steps, 1, 1, mine, theirs, acc);
        fill_direction(R, steps, 1, 0, mine, theirs, acc);
        fill_direction(R, steps, 1, -1, mine, theirs, acc);
        fill_direction(R, steps, 0, -1, mine, theirs, acc);
        fill_direction(R, steps, -1, -1, mine, theirs, acc);
    } else {
        for (int d = 0; d < 8; d++) {
            if (!(dirs >> d & 1u))
                continue;
            switch ((d + 4) & 7) { /* bit d traps from the move in direction d: fill from ours the other way */ /* each case with constants, so the shuffles are fixed */
            case 0: fill_direction(R, steps, -1, 0, mine, theirs, acc); break;
            case 1: fill_direction(R, steps, -1, 1, mine, theirs, acc); break;
            case 2: fill_direction(R, steps, 0, 1, mine, theirs, acc); break;
            case 3: fill_direction(R, steps, 1, 1, mine, theirs, acc); break;
            case 4: fill_direction(R, steps, 1, 0, mine, theirs, acc); break;
            case 5: fill_direction(R, steps, 1, -1, mine, theirs, acc); break;
            case 6: fill_direction(R, steps, 0, -1, mine, theirs, acc); break;
            default: fill_direction(R, steps, -1, -1, mine, theirs, acc); break;
            }
        }
    }
    for (int j = 0; j < R; j++)
        moves[j] = acc[j] & empty[j];
}

/* ---- boards of at most 16 rows: one vector of sixteen 16-bit rows ---- */

typedef uint16_t v16 __attribute__((vector_size(32)));
typedef int16_t v16i __attribute__((vector_size(32)));

/* x moved dr rows (row r takes row r - dr, |dr| in 1, 2, 4, 8) and dc columns. */
BS_INLINE v16 shift16(v16 x, int dr, int dc)
{
    const v16 zero = {0};
    switch (dr) {
    case 1: x = SHUFFLE16(zero, x, 0, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30); break;
    case 2: x = SHUFFLE16(zero, x, 0, 0, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29); break;
    case 4: x = SHUFFLE16(zero, x, 0, 0, 0, 0, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27); break;
    case 8: x = SHUFFLE16(zero, x, 0, 0, 0, 0, 0, 0, 0, 0, 16, 17, 18, 19, 20, 21, 22, 23); break;
    case -1: x = SHUFFLE16(x, zero, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16); break;
    case -2: x = SHUFFLE16(x, zero, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 16); break;
    case -4: x = SHUFFLE16(x, zero, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 16, 16, 16); break;
    case -8: x = SHUFFLE16(x, zero, 8, 9, 10, 11, 12, 13, 14, 15, 16, 16, 16, 16, 16, 16, 16, 16); break;
    default: break;
    }
    if (dc > 0)
        x <<= dc;
    else if (dc < 0)
        x >>= -dc;
    return x;
}

BS_INLINE v16 fill16(int steps, int dr, int dc, v16 mine, v16 theirs)
{
    v16 g = mine, p = theirs;
    g |= p & shift16(g, dr, dc);
    if (steps > 1) {
        p &= shift16(p, dr, dc);
        g |= p & shift16(g, 2 * dr, 2 * dc);
    }
    if (steps > 2) {
        p &= shift16(p, 2 * dr, 2 * dc);
        g |= p & shift16(g, 4 * dr, 4 * dc);
    }
    if (steps > 3) {
        p &= shift16(p, 4 * dr, 4 * dc);
        g |= p & shift16(g, 8 * dr, 8 * dc);
    }
    return shift16(g & theirs, dr, dc);
}

BS_INLINE v16 moves16(int n, v16 mine, v16 theirs, v16 empty, unsigned dirs)
{
    if (dirs == 0)
        return empty;
    int steps = steps_for(n);
    v16 acc = {0};
    if (dirs == BS_DIRS_ALL) {
        acc = fill16(steps, -1, 0, mine, theirs) | fill16(steps, -1, 1, mine, theirs) |
              fill16(steps, 0, 1, mine, theirs) | fill16(steps, 1, 1, mine, theirs) |
              fill16(steps, 1, 0, mine, theirs) | fill16(steps, 1, -1, mine, theirs) |
              fill16(steps, 0, -1, mine, theirs) | fill16(steps, -1, -1, mine, theirs);
    } else {
        for (int d = 0; d < 8; d++) {
            if (!(dirs >> d & 1u))
                continue;
            switch ((d + 4) & 7) { /* bit d traps from the move in direction d: fill from ours the other way */
            case 0: acc |= fill16(steps, -1, 0, mine, theirs); break;
            case 1: acc |= fill16(steps, -1, 1, mine, theirs); break;
            case 2: acc |= fill16(steps, 0, 1, mine, theirs); break;
            case 3: acc |= fill16(steps, 1, 1, mine, theirs); break;
            case 4: acc |= fill16(steps, 1, 0, mine, theirs); break;
            case 5: acc |= fill16(steps, 1, -1, mine, theirs); break;
            case 6: acc |= fill16(steps, 0, -1, mine, theirs); break;
            default: acc |= fill16(steps, -1, -1, mine, theirs); break;
            }
        }
    }
    return acc & empty;
}

/* ---- the perft walk's state ---- */

/* A plane as vectors or as rows. */
typedef union {
    v8 v[4];
    uint32_t row[MAX_ROWS];
    uint64_t word[MAX_ROWS / 2];
} plane;

struct walk {
    int n;
    unsigned legal, flip;
    plane blocks, full;
    v16 small_blocks, small_full; /* the same as 16-bit rows, for n <= 16 */
    bool window; /* try 16 x 16 windows (AVX2 path, n > 16, legal != 0) */
};

/* perft32 with a window first where one fits (wide_perft.c). */
BS_WIDE_HIDDEN uint64_t perft32_entry(const struct walk *w, const plane *mine, const plane *theirs, int depth,
                                      bool small);

#if defined(BS_WIDE_AVX2)

/* The AVX2 code (wide_avx2.c, wide_window.c) lies between these two: it is
 * compiled for AVX2 and BMI2 whatever the build's target. */
#if defined(__clang__)
#define BS_WIDE_AVX2_BEGIN                                                                                   \
    _Pragma("clang attribute push(__attribute__((target(\"avx2,bmi,bmi2,popcnt\"))), apply_to = function)")
#define BS_WIDE_AVX2_END _Pragma("clang attribute pop")
#else
#define BS_WIDE_AVX2_BEGIN _Pragma("GCC push_options") _Pragma("GCC target(\"avx2,bmi,bmi2,popcnt\")")
#define BS_WIDE_AVX2_END _Pragma("GCC pop_options")
#endif

BS_WIDE_AVX2_BEGIN

typedef __m256i ymm;

struct w16 {
    ymm playable; /* board cells that are not blocks */
    ymm ring;     /* window borders that are not board edges (0 on a whole board) */
    unsigned legal;
    uint64_t up, down; /* flip enables per line: row, column, diagonal, anti-diagonal */
    int max_run;
    const struct walk *big; /* the whole board when this is a window */
    int r0, c0;             /* the window's top-left cell */
};

/* The 8 x 8 window of a perft (wide_window.c). */
struct w8 {
    int n;
    unsigned legal, flip;
    uint64_t lanes[16];        /* their masks for the 8 x 8 path */
    const struct w16 *whole;   /* n <= 16: the whole board on the 16 x 16 path */
    const struct walk *big;    /* n > 16 */
    uint64_t playable[(MAX_ROWS - 7) * (MAX_ROWS - 7)]; /* each window's cells that are not blocks */
    uint32_t board[MAX_ROWS];                           /* the board's cells that are not blocks */
};

static inline ymm load16(const uint32_t *rows, int first_row, int count, int first_col)
{
    union {
        ymm v;
        uint16_t row[16];
    } x;
    memset(&x, 0, sizeof x);
    for (int i = 0; i < count; i++)
        x.row[i] = (uint16_t)(rows[first_row + i] >> first_col);
    return x.v;
}

/* wide_avx2.c */
BS_WIDE_HIDDEN uint64_t perft16_avx2(const struct w16 *w, ymm mine, ymm theirs, int depth);
/* Moves on a board of at most 16 rows (rows as in bs_wide_moves). */
BS_WIDE_HIDDEN void moves16_rows(int n, const uint32_t *mine, const uint32_t *theirs, const uint32_t *empty,
                                 unsigned dirs, uint32_t *moves);

/* wide_window.c */
BS_WIDE_HIDDEN uint64_t perft16_whole(const bs_board *b, int player, int depth, unsigned legal, unsigned flip);
BS_WIDE_HIDDEN bool try_window(const struct walk *big, const plane *mine, const plane *theirs, int depth,
                               uint64_t *leaves);
BS_WIDE_HIDDEN uint64_t window_escape(const struct w16 *w, ymm mine, ymm theirs, int depth);
BS_WIDE_HIDDEN void w8_init(struct w8 *w, int n, unsigned legal, unsigned flip, const uint32_t *playable,
                            const struct w16 *whole, const struct walk *big);
BS_WIDE_HIDDEN bool w8_try(const struct w8 *base, const uint32_t *mine, const uint32_t *theirs, int depth,
                           uint64_t *leaves);

BS_WIDE_AVX2_END

#endif /* BS_WIDE_AVX2 */

#endif
