/* wide.c - the capture core on N x N boards (N <= 26) as rows of 32-bit
 * lanes (see wide.h).
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
 * and 16 x 16 windows of larger ones take the intrinsics path further down
 * (its own comment says how). */
#include "wide.h"

#include <stdbool.h>
#include <string.h>

#include "simd64.h"

/* The AVX2 path (with BMI2), chosen at run time by bs_avx2_available();
 * builds for the baseline processor alone (-DBS_NO_TARGET_CLONES, as the
 * wide_test_baseline test does) and -DBS_NO_SIMD64 leave it out. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(BS_NO_TARGET_CLONES) && \
    !defined(BS_NO_SIMD64)
#define BS_WIDE_AVX2 1
#include <immintrin.h>
#endif

/* Vectors are passed only between inlined static functions, so the note
 * that 32-byte vector arguments change the ABI without AVX does not apply. */
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

#if defined(BS_WIDE_AVX2)
static void moves16_rows(int n, const uint32_t *mine, const uint32_t *theirs, const uint32_t *empty, unsigned dirs,
                         uint32_t *moves);
#endif

BS_CLONES
void bs_wide_moves(int n, const uint32_t *mine, const uint32_t *theirs, const uint32_t *empty,
                   unsigned legal_dirs, uint32_t *moves)
{
#if defined(BS_WIDE_AVX2)
    if (n <= 16 && bs_avx2_available()) {
        moves16_rows(n, mine, theirs, empty, legal_dirs, moves);
        return;
    }
#endif
    if (n <= 16) {
        v16 m = {0}, t = {0}, e = {0};
        for (int i = 0; i < n; i++) {
            m[i] = (uint16_t)mine[i];
            t[i] = (uint16_t)theirs[i];
            e[i] = (uint16_t)empty[i];
        }
        v16 out = moves16(n, m, t, e, legal_dirs);
        for (int i = 0; i < n; i++)
            moves[i] = out[i];
        return;
    }
    v8 m[4], t[4], e[4], out[4];
    memset(m, 0, sizeof m);
    memset(t, 0, sizeof t);
    memset(e, 0, sizeof e);
    memcpy(m, mine, sizeof(uint32_t) * (size_t)n);
    memcpy(t, theirs, sizeof(uint32_t) * (size_t)n);
    memcpy(e, empty, sizeof(uint32_t) * (size_t)n);
    moves_planes(4, n, m, t, e, legal_dirs, out);
    memcpy(moves, out, sizeof(uint32_t) * (size_t)n);
}

/* ---- perft ---- */

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

/* Flips a move at (r, c) makes along the flip directions, into mine/theirs
 * (rows of type T). */
#define DEFINE_PLAY(NAME, T)                                                                       \
    static void NAME(const struct walk *w, T *mine, T *theirs, int r, int c)                       \
    {                                                                                              \
        int n = w->n;                                                                              \
        for (int d = 0; d < 8; d++) {                                                              \
            if (!(w->flip >> d & 1u))                                                              \
                continue;                                                                          \
            int rr = r + DR[d], cc = c + DC[d], len = 0;                                           \
            while ((unsigned)rr < (unsigned)n && (unsigned)cc < (unsigned)n &&                     \
                   (theirs[rr] >> cc & 1u)) {                                                      \
                rr += DR[d];                                                                       \
                cc += DC[d];                                                                       \
                len++;                                                                             \
            }                                                                                      \
            if (len == 0 || (unsigned)rr >= (unsigned)n || (unsigned)cc >= (unsigned)n ||          \
                !(mine[rr] >> cc & 1u))                                                            \
                continue;                                                                          \
            for (int i = 1; i <= len; i++) {                                                       \
                T bit = (T)(1u << (c + i * DC[d]));                                                \
                mine[r + i * DR[d]] |= bit;                                                        \
                theirs[r + i * DR[d]] &= (T)~bit;                                                  \
            }                                                                                      \
        }                                                                                          \
        mine[r] |= (T)(1u << c);                                                                   \
    }
DEFINE_PLAY(play_rows, uint32_t)
DEFINE_PLAY(play_rows16, uint16_t)

typedef uint64_t (*perft_fn)(const struct walk *, const plane *, const plane *, int);

BS_INLINE uint64_t perft_planes(const struct walk *w, int R, const plane *mine, const plane *theirs, int depth,
                                perft_fn self)
{
    plane empty, moves;
    for (int j = 0; j < R; j++)
        empty.v[j] = ~(mine->v[j] | theirs->v[j] | w->blocks.v[j]) & w->full.v[j];
    moves_planes(R, w->n, mine->v, theirs->v, empty.v, w->legal, moves.v);
    uint64_t any = 0;
    for (int k = 0; k < 4 * R; k++)
        any |= moves.word[k];
    if (depth == 1) {
        if (!any)
            return 1;
        uint64_t count = 0;
        for (int k = 0; k < 4 * R; k++)
            count += (uint64_t)__builtin_popcountll(moves.word[k]);
        return count;
    }
    if (!any) {
        moves_planes(R, w->n, theirs->v, mine->v, empty.v, w->legal, moves.v);
        uint64_t reply = 0;
        for (int k = 0; k < 4 * R; k++)
            reply |= moves.word[k];
        return reply ? self(w, theirs, mine, depth - 1) : 1;
    }
    uint64_t leaves = 0;
    plane m2, t2;
    for (int r = 0; r < w->n; r++) {
        for (uint32_t bits = moves.row[r]; bits; bits &= bits - 1) {
            int c = __builtin_ctz(bits);
            for (int j = 0; j < R; j++) {
                m2.v[j] = mine->v[j];
                t2.v[j] = theirs->v[j];
            }
            play_rows(w, m2.row, t2.row, r, c);
            leaves += self(w, &t2, &m2, depth - 1);
        }
    }
    return leaves;
}

typedef union {
    v16 v;
    uint16_t row[16];
    uint64_t word[4];
} plane16;

BS_CLONES
static uint64_t perft16(const struct walk *w, const plane16 *mine, const plane16 *theirs, int depth)
{
    v16 empty = ~(mine->v | theirs->v | w->small_blocks) & w->small_full;
    plane16 moves;
    v16 m = moves16(w->n, mine->v, theirs->v, empty, w->legal);
    memcpy(&moves, &m, sizeof m); /* read as words and rows */
    uint64_t any = moves.word[0] | moves.word[1] | moves.word[2] | moves.word[3];
    if (depth == 1) {
        if (!any)
            return 1;
        return (uint64_t)(__builtin_popcountll(moves.word[0]) + __builtin_popcountll(moves.word[1]) +
                          __builtin_popcountll(moves.word[2]) + __builtin_popcountll(moves.word[3]));
    }
    if (!any) {
        plane16 reply;
        v16 r = moves16(w->n, theirs->v, mine->v, empty, w->legal);
        memcpy(&reply, &r, sizeof r);
        any = reply.word[0] | reply.word[1] | reply.word[2] | reply.word[3];
        return any ? perft16(w, theirs, mine, depth - 1) : 1;
    }
    uint64_t leaves = 0;
    plane16 m2, t2;
    for (int r = 0; r < w->n; r++) {
        for (uint32_t bits = moves.row[r]; bits; bits &= bits - 1) {
            int c = __builtin_ctz(bits);
            memcpy(&m2, mine, sizeof m2);
            memcpy(&t2, theirs, sizeof t2);
            play_rows16(w, m2.row, t2.row, r, c);
            leaves += perft16(w, &t2, &m2, depth - 1);
        }
    }
    return leaves;
}

BS_CLONES
static uint64_t perft32(const struct walk *w, const plane *mine, const plane *theirs, int depth)
{
    return perft_planes(w, 4, mine, theirs, depth, perft32);
}

/* ---- AVX2 path for boards of at most 16 rows (and windows of larger ones) ----
 *
 * One 256-bit register holds sixteen 16-bit rows, row r in lane r. A row
 * shift by 1, 2 or 4 is a lane-crossing permute (zero filled) and an alignr;
 * by 8 it is the permute alone; a column shift is a 16-bit lane shift.
 * Moves: per direction a Kogge-Stone occluded fill with as many doubling
 * steps as the longest possible run needs (shorter than the larger side of
 * the discs' bounding box); the first row shift of the mover's and the opponent's discs is
 * shared by the three directions that go the same way vertically, and the
 * last one-cell shift is made once per vertical way after the column shifts;
 * the eastward direction is an addition (a carry runs through a line of
 * opposing discs and stops on the cell past it).
 * Flips: the four lines through the played square (the row is the lane
 * itself; column and diagonals by masks from sliding tables, compares, byte
 * packs and movemask) go into one 64-bit word per side, all eight
 * directions are resolved there at once (lines_flips), and the flips are
 * spread back into lanes by compares against per-lane bits. No loops, no
 * branches on the board.
 * The children of a node two plies above the leaves are played and counted
 * two at a time, so that two independent chains of work interleave.
 * Boards of 17 to 26: when every disc lies inside a 16 x 16 window, none of
 * them on a window border that is not a board edge, every legal move, run
 * and flip lies in that window (moves are next to opposing discs), so the
 * position is played in the window; a node with a disc on such a border goes
 * back to the 32-bit planes (which choose a new window). Only when any
 * direction must trap (legal_dirs != 0): otherwise every empty cell is a
 * move. */
#if defined(BS_WIDE_AVX2)

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,bmi,bmi2,popcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,popcnt")
#endif

typedef __m256i ymm;

/* Lane r is row r - k (k > 0: rows move down; k < 0: up), zeros shifted in. */
BS_INLINE ymm rows16(ymm x, int k)
{
    switch (k) {
    case 1: return _mm256_alignr_epi8(x, _mm256_permute2x128_si256(x, x, 0x08), 14);
    case 2: return _mm256_alignr_epi8(x, _mm256_permute2x128_si256(x, x, 0x08), 12);
    case 4: return _mm256_alignr_epi8(x, _mm256_permute2x128_si256(x, x, 0x08), 8);
    case 8: return _mm256_permute2x128_si256(x, x, 0x08);
    case -1: return _mm256_alignr_epi8(_mm256_permute2x128_si256(x, x, 0x81), x, 2);
    case -2: return _mm256_alignr_epi8(_mm256_permute2x128_si256(x, x, 0x81), x, 4);
    case -4: return _mm256_alignr_epi8(_mm256_permute2x128_si256(x, x, 0x81), x, 8);
    case -8: return _mm256_permute2x128_si256(x, x, 0x81);
    default: return x;
    }
}

/* Column c moves to c + k (bits past the lane are lost). */
BS_INLINE ymm cols16(ymm x, int k)
{
    switch (k) {
    case 1: return _mm256_add_epi16(x, x); /* an adder, not the shift unit */
    case 2: return _mm256_slli_epi16(x, 2);
    case 4: return _mm256_slli_epi16(x, 4);
    case 8: return _mm256_slli_epi16(x, 8);
    case -1: return _mm256_srli_epi16(x, 1);
    case -2: return _mm256_srli_epi16(x, 2);
    case -4: return _mm256_srli_epi16(x, 4);
    case -8: return _mm256_srli_epi16(x, 8);
    default: return x;
    }
}

BS_INLINE ymm step16(ymm x, int dr, int dc, int k)
{
    return cols16(rows16(x, dr * k), dc * k);
}

/* The mover's discs and the opponent's runs next to them in direction
 * (dr, dc), intersected with the opponent's discs and moved dc columns (the
 * caller moves them dr rows): the cells just past are the moves. */
BS_INLINE ymm flank16(ymm mine, ymm theirs, int dr, int dc, int steps)
{
    ymm g = _mm256_or_si256(mine, _mm256_and_si256(theirs, step16(mine, dr, dc, 1)));
    if (steps > 1) {
        ymm p = _mm256_and_si256(theirs, step16(theirs, dr, dc, 1));
        g = _mm256_or_si256(g, _mm256_and_si256(p, step16(g, dr, dc, 2)));
        if (steps > 2) {
            p = _mm256_and_si256(p, step16(p, dr, dc, 2));
            g = _mm256_or_si256(g, _mm256_and_si256(p, step16(g, dr, dc, 4)));
            if (steps > 3) {
                p = _mm256_and_si256(p, step16(p, dr, dc, 4));
                g = _mm256_or_si256(g, _mm256_and_si256(p, step16(g, dr, dc, 8)));
            }
        }
    }
    return cols16(_mm256_and_si256(g, theirs), dc);
}

/* Eastward flank already moved one column: a carry through each run. */
BS_INLINE ymm east16(ymm mine, ymm theirs)
{
    return _mm256_add_epi16(theirs, _mm256_and_si256(_mm256_add_epi16(mine, mine), theirs));
}

BS_INLINE ymm moves16_all(ymm mine, ymm theirs, ymm empty, int steps)
{
    ymm down = _mm256_or_si256(_mm256_or_si256(flank16(mine, theirs, 1, -1, steps), flank16(mine, theirs, 1, 0, steps)),
                               flank16(mine, theirs, 1, 1, steps));
    ymm up = _mm256_or_si256(_mm256_or_si256(flank16(mine, theirs, -1, -1, steps), flank16(mine, theirs, -1, 0, steps)),
                             flank16(mine, theirs, -1, 1, steps));
    ymm side = _mm256_or_si256(flank16(mine, theirs, 0, -1, steps), east16(mine, theirs));
    ymm all = _mm256_or_si256(_mm256_or_si256(rows16(down, 1), rows16(up, -1)), side);
    return _mm256_and_si256(all, empty);
}

/* Legal direction bit d traps from the move in direction d: the fill runs
 * from the mover's discs the other way. */
BS_INLINE ymm moves16_dirs(ymm mine, ymm theirs, ymm empty, unsigned dirs, int steps)
{
    ymm zero = _mm256_setzero_si256(), down = zero, up = zero, side = zero;
    if (dirs & BS_DIR_N)
        down = _mm256_or_si256(down, flank16(mine, theirs, 1, 0, steps));
    if (dirs & BS_DIR_NE)
        down = _mm256_or_si256(down, flank16(mine, theirs, 1, -1, steps));
    if (dirs & BS_DIR_NW)
        down = _mm256_or_si256(down, flank16(mine, theirs, 1, 1, steps));
    if (dirs & BS_DIR_S)
        up = _mm256_or_si256(up, flank16(mine, theirs, -1, 0, steps));
    if (dirs & BS_DIR_SE)
        up = _mm256_or_si256(up, flank16(mine, theirs, -1, -1, steps));
    if (dirs & BS_DIR_SW)
        up = _mm256_or_si256(up, flank16(mine, theirs, -1, 1, steps));
    if (dirs & BS_DIR_E)
        side = _mm256_or_si256(side, flank16(mine, theirs, 0, -1, steps));
    if (dirs & BS_DIR_W)
        side = _mm256_or_si256(side, east16(mine, theirs));
    ymm all = _mm256_or_si256(_mm256_or_si256(rows16(down, 1), rows16(up, -1)), side);
    return _mm256_and_si256(all, empty);
}

/* The same for two positions at once, operation by operation, so that the
 * two dependency chains interleave in the processor's window. */
typedef struct {
    ymm a, b;
} ymm2;

BS_INLINE ymm2 and2(ymm2 x, ymm2 y)
{
    return (ymm2){_mm256_and_si256(x.a, y.a), _mm256_and_si256(x.b, y.b)};
}

BS_INLINE ymm2 or2(ymm2 x, ymm2 y)
{
    return (ymm2){_mm256_or_si256(x.a, y.a), _mm256_or_si256(x.b, y.b)};
}

BS_INLINE ymm2 rows2(ymm2 x, int k)
{
    return (ymm2){rows16(x.a, k), rows16(x.b, k)};
}

BS_INLINE ymm2 cols2(ymm2 x, int k)
{
    return (ymm2){cols16(x.a, k), cols16(x.b, k)};
}

BS_INLINE ymm2 step2(ymm2 x, int dr, int dc, int k)
{
    return cols2(rows2(x, dr * k), dc * k);
}

BS_INLINE ymm2 flank2(ymm2 mine, ymm2 theirs, int dr, int dc, int steps)
{
    ymm2 g = or2(mine, and2(theirs, step2(mine, dr, dc, 1)));
    if (steps > 1) {
        ymm2 p = and2(theirs, step2(theirs, dr, dc, 1));
        g = or2(g, and2(p, step2(g, dr, dc, 2)));
        if (steps > 2) {
            p = and2(p, step2(p, dr, dc, 2));
            g = or2(g, and2(p, step2(g, dr, dc, 4)));
            if (steps > 3) {
                p = and2(p, step2(p, dr, dc, 4));
                g = or2(g, and2(p, step2(g, dr, dc, 8)));
            }
        }
    }
    return cols2(and2(g, theirs), dc);
}

BS_INLINE ymm2 moves2_all(ymm2 mine, ymm2 theirs, ymm2 empty, int steps)
{
    ymm2 down = or2(or2(flank2(mine, theirs, 1, -1, steps), flank2(mine, theirs, 1, 0, steps)),
                    flank2(mine, theirs, 1, 1, steps));
    ymm2 up = or2(or2(flank2(mine, theirs, -1, -1, steps), flank2(mine, theirs, -1, 0, steps)),
                  flank2(mine, theirs, -1, 1, steps));
    ymm2 east = {east16(mine.a, theirs.a), east16(mine.b, theirs.b)};
    ymm2 side = or2(flank2(mine, theirs, 0, -1, steps), east);
    return and2(or2(or2(rows2(down, 1), rows2(up, -1)), side), empty);
}

/* moves2_all with the steps of each line direction: sh along rows, sv
 * along columns, the smaller along diagonals (not constants: a branch a
 * doubling step). */
BS_INLINE ymm2 moves2_axes(ymm2 mine, ymm2 theirs, ymm2 empty, int sh, int sv)
{
    int sd = sh < sv ? sh : sv;
    ymm2 down = or2(or2(flank2(mine, theirs, 1, -1, sd), flank2(mine, theirs, 1, 0, sv)),
                    flank2(mine, theirs, 1, 1, sd));
    ymm2 up = or2(or2(flank2(mine, theirs, -1, -1, sd), flank2(mine, theirs, -1, 0, sv)),
                  flank2(mine, theirs, -1, 1, sd));
    ymm2 east = {east16(mine.a, theirs.a), east16(mine.b, theirs.b)};
    ymm2 side = or2(flank2(mine, theirs, 0, -1, sh), east);
    return and2(or2(or2(rows2(down, 1), rows2(up, -1)), side), empty);
}

BS_INLINE int popcount256(ymm x)
{
    return __builtin_popcountll((uint64_t)_mm256_extract_epi64(x, 0)) +
           __builtin_popcountll((uint64_t)_mm256_extract_epi64(x, 1)) +
           __builtin_popcountll((uint64_t)_mm256_extract_epi64(x, 2)) +
           __builtin_popcountll((uint64_t)_mm256_extract_epi64(x, 3));
}

/* Doubling steps for runs of at most `run` discs. */
BS_INLINE int steps_for_run(int run)
{
    return run <= 1 ? 1 : run <= 3 ? 2 : run <= 7 ? 3 : 4;
}

/* The moves of mine against theirs onto empty along dirs (0: any empty
 * cell); no run of theirs between a move and a disc of mine is longer than
 * `run`. */
BS_INLINE ymm moves16_avx2(ymm mine, ymm theirs, ymm empty, unsigned dirs, int run)
{
    int steps = steps_for_run(run);
    if (dirs == BS_DIRS_ALL) {
        switch (steps) {
        case 1: return moves16_all(mine, theirs, empty, 1);
        case 2: return moves16_all(mine, theirs, empty, 2);
        case 3: return moves16_all(mine, theirs, empty, 3);
        default: return moves16_all(mine, theirs, empty, 4);
        }
    }
    if (dirs == 0)
        return empty;
    switch (steps) {
    case 1: return moves16_dirs(mine, theirs, empty, dirs, 1);
    case 2: return moves16_dirs(mine, theirs, empty, dirs, 2);
    case 3: return moves16_dirs(mine, theirs, empty, dirs, 3);
    default: return moves16_dirs(mine, theirs, empty, dirs, 4);
    }
}

/* The rows and columns the discs of `occupied` span (top, bottom, left,
 * right; top > bottom when there is none). A run of theirs and the disc of
 * mine closing it lie on one line, so the run is shorter than the larger
 * span: that bounds the fill steps. */
struct box {
    int top, bottom, left, right;
};

BS_INLINE struct box box16(ymm occupied)
{
    struct box b;
    uint32_t rows = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi16(occupied, _mm256_setzero_si256()));
    __m128i x = _mm_or_si128(_mm256_castsi256_si128(occupied), _mm256_extracti128_si256(occupied, 1));
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0x4e));
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0xb1));
    uint32_t cols = (uint32_t)_mm_cvtsi128_si32(x);
    cols = (cols | cols >> 16) & 0xffffu;
    if (!rows) {
        b.top = 16;
        b.bottom = b.left = b.right = -1;
        return b;
    }
    b.top = __builtin_ctz(rows) >> 1;
    b.bottom = (31 - __builtin_clz(rows)) >> 1;
    b.left = __builtin_ctz(cols);
    b.right = 31 - __builtin_clz(cols);
    return b;
}

/* The longest run the box allows once a disc is added at (r, c), at most
 * max_run. */
BS_INLINE int box_run(struct box b, int r, int c, int max_run)
{
    int top = r < b.top ? r : b.top, bottom = r > b.bottom ? r : b.bottom;
    int left = c < b.left ? c : b.left, right = c > b.right ? c : b.right;
    int span = bottom - top > right - left ? bottom - top : right - left; /* larger span - 1 */
    return span < max_run ? span : max_run;
}

/* The doubling steps the box allows along rows (*sh) and columns (*sv)
 * once a disc is added at (r, c): a run of theirs and the disc of mine
 * closing it lie on one line inside the box, so a row's run is shorter than
 * the box's width, a column's than its height and a diagonal's than both. */
BS_INLINE void box_steps(struct box b, int r, int c, int max_run, int *sh, int *sv)
{
    int top = r < b.top ? r : b.top, bottom = r > b.bottom ? r : b.bottom;
    int left = c < b.left ? c : b.left, right = c > b.right ? c : b.right;
    int h = right - left < max_run ? right - left : max_run, v = bottom - top < max_run ? bottom - top : max_run;
    *sh = steps_for_run(h);
    *sv = steps_for_run(v);
}

/* Sliding tables: 16 lanes loaded from DIAG16 + (c - r + 15) have bit
 * c + (i - r) in lane i (the cells of the down-right diagonal through (r, c)),
 * from ANTI16 + (30 - r - c) bit r + c - i (the down-left one), from ROW16 +
 * (15 - r) all ones in lane r alone. Zero where the line leaves the board. */
static const uint16_t DIAG16[46] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0x0001, 0x0002, 0x0004, 0x0008, 0x0010, 0x0020, 0x0040, 0x0080,
    0x0100, 0x0200, 0x0400, 0x0800, 0x1000, 0x2000, 0x4000, 0x8000,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static const uint16_t ANTI16[46] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0x8000, 0x4000, 0x2000, 0x1000, 0x0800, 0x0400, 0x0200, 0x0100,
    0x0080, 0x0040, 0x0020, 0x0010, 0x0008, 0x0004, 0x0002, 0x0001,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static const uint16_t ROW16[31] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xffff,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

/* Flips along four lines at once: bits 16k..16k+15 of m and t hold line k
 * (cell i at bit 16k + i), P has the played cell's bit in every line; `up`
 * and `down` are all ones in the lines where flipping toward higher and
 * lower bits is on. No carry or borrow crosses from one line to the next.
 * Toward higher bits: one added at the cell above p runs through the
 * opponent's discs (bit 15 left out, so the carry stops there) onto the
 * first other cell, which closes the line when it is ours. Toward lower
 * bits: the highest cell under p that is not the opponent's, found by
 * smearing downward (masked to the cells under p) and keeping the top bit. */
#define LINES_ONES 0x0001000100010001ull
#define LINES_LOW15 0x7fff7fff7fff7fffull
#define LINES_TOP 0x8000800080008000ull

BS_INLINE uint64_t lines_flips(uint64_t m, uint64_t t, uint64_t P, uint64_t up, uint64_t down)
{
    uint64_t above = (P << 1) & ~LINES_ONES; /* none when p is 15 */
    uint64_t hi = ((t & LINES_LOW15) + above) & m;
    uint64_t closed = (hi + LINES_LOW15) & LINES_TOP; /* top bit of the lines where hi is set */
    uint64_t f = ((hi | LINES_TOP) - above) & (closed - (closed >> 15)) & LINES_LOW15;
    uint64_t below = P - LINES_ONES;
    uint64_t x = ~t & below;
    x |= (x >> 1) & below & 0x7fff7fff7fff7fffull;
    x |= (x >> 2) & below & 0x3fff3fff3fff3fffull;
    x |= (x >> 4) & below & 0x0fff0fff0fff0fffull;
    x |= (x >> 8) & below & 0x00ff00ff00ff00ffull;
    uint64_t lo = x & ~(x >> 1) & m;
    uint64_t g = (P - (lo << 1)) & ~P;
    return (f & up) | (g & down);
}

/* Two 16-lane masks (all ones or zero per lane) as one 32-bit word: lane i
 * of a at bit i, of b at bit 16 + i. */
BS_INLINE uint32_t two_lines(ymm a, ymm b)
{
    return (uint32_t)_mm256_movemask_epi8(_mm256_permute4x64_epi64(_mm256_packs_epi16(a, b), 0xd8));
}

/* Lanes all ones where bit i of line k of f is set (k = 1, 2, 3). */
BS_INLINE ymm spread_line(ymm f, int k)
{
    const ymm bit = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 0x4000, -32768);
    ymm x = _mm256_shuffle_epi8(f, _mm256_set1_epi16((short)(2 * k | (2 * k + 1) << 8)));
    return _mm256_cmpeq_epi16(_mm256_and_si256(x, bit), bit);
}

struct w16 {
    ymm playable; /* board cells that are not blocks */
    ymm ring;     /* window borders that are not board edges (0 on a whole board) */
    unsigned legal;
    uint64_t up, down; /* flip enables per line: row, column, diagonal, anti-diagonal */
    int max_run;
    const struct walk *big; /* the whole board when this is a window */
    int r0, c0;             /* the window's top-left cell */
};

/* The mover at (r, c) on mine/theirs (rows also in mrow/trow): the new
 * planes of the mover (*m2) and the opponent (*t2). The four lines through
 * the cell go into one 64-bit word per side (row, column, diagonal,
 * anti-diagonal; see lines_flips) and the flips come back into lanes. */
BS_INLINE void play16(const struct w16 *w, ymm mine, ymm theirs, const uint16_t *mrow, const uint16_t *trow,
                      int r, int c, ymm *m2, ymm *t2)
{
    const ymm zero = _mm256_setzero_si256();
    ymm col = _mm256_set1_epi16((short)(1u << c));
    ymm diag = _mm256_loadu_si256((const ymm *)(DIAG16 + (c - r + 15)));
    ymm anti = _mm256_loadu_si256((const ymm *)(ANTI16 + (30 - r - c)));
    ymm row = _mm256_loadu_si256((const ymm *)(ROW16 + (15 - r)));
    /* lanes all ones where the line's cell is not the side's */
    uint32_t mcd = ~two_lines(_mm256_cmpeq_epi16(_mm256_and_si256(mine, col), zero),
                              _mm256_cmpeq_epi16(_mm256_and_si256(mine, diag), zero));
    uint32_t tcd = ~two_lines(_mm256_cmpeq_epi16(_mm256_and_si256(theirs, col), zero),
                              _mm256_cmpeq_epi16(_mm256_and_si256(theirs, diag), zero));
    uint32_t anti2 = ~two_lines(_mm256_cmpeq_epi16(_mm256_and_si256(mine, anti), zero),
                                _mm256_cmpeq_epi16(_mm256_and_si256(theirs, anti), zero));
    uint64_t m = mrow[r] | (uint64_t)mcd << 16 | (uint64_t)(anti2 & 0xffffu) << 48;
    uint64_t t = trow[r] | (uint64_t)tcd << 16 | (uint64_t)(anti2 >> 16) << 48;
    uint64_t P = (uint64_t)(1u << c) | (uint64_t)(1u << r) * 0x0001000100010000ull;
    ymm f = _mm256_set1_epi64x((long long)lines_flips(m, t, P, w->up, w->down));
    ymm flips = _mm256_or_si256(
        _mm256_or_si256(_mm256_and_si256(spread_line(f, 1), col), _mm256_and_si256(spread_line(f, 2), diag)),
        _mm256_or_si256(_mm256_and_si256(spread_line(f, 3), anti),
                        _mm256_and_si256(row, _mm256_shuffle_epi8(f, _mm256_set1_epi16(0x0100)))));
    *m2 = _mm256_or_si256(_mm256_or_si256(mine, flips), _mm256_and_si256(row, col));
    *t2 = _mm256_andnot_si256(flips, theirs);
}

static uint64_t window_escape(const struct w16 *w, ymm mine, ymm theirs, int depth);
static uint64_t perft16_avx2(const struct w16 *w, ymm mine, ymm theirs, int depth);

BS_INLINE uint64_t count_or_pass(ymm moves)
{
    uint64_t count = (uint64_t)popcount256(moves);
    return count + (count == 0);
}

union rows16 {
    ymm v;
    uint16_t row[16];
    uint64_t word[4];
};

/* The leaves below a node two plies above them, every direction legal:
 * children played and counted two at a time (see ymm2). */
static uint64_t leaf_pairs16(const struct w16 *w, ymm mine, ymm theirs, const union rows16 *m,
                             const union rows16 *t, const union rows16 *mv, struct box box)
{
    int list[256], count = 0;
    for (int k = 0; k < 4; k++)
        for (uint64_t bits = mv->word[k]; bits; bits &= bits - 1)
            list[count++] = 64 * k + __builtin_ctzll(bits);
    uint64_t leaves = 0;
    int i = 0;
    for (; i + 1 < count; i += 2) {
        int r1 = list[i] >> 4, c1 = list[i] & 15, r2 = list[i + 1] >> 4, c2 = list[i + 1] & 15;
        ymm2 m2, t2;
        play16(w, mine, theirs, m->row, t->row, r1, c1, &m2.a, &t2.a);
        play16(w, mine, theirs, m->row, t->row, r2, c2, &m2.b, &t2.b);
        ymm2 occupied = or2(m2, t2);
        if (!_mm256_testz_si256(_mm256_or_si256(occupied.a, occupied.b), w->ring)) {
            leaves += perft16_avx2(w, t2.a, m2.a, 1) + perft16_avx2(w, t2.b, m2.b, 1);
            continue;
        }
        ymm2 empty = {_mm256_andnot_si256(occupied.a, w->playable), _mm256_andnot_si256(occupied.b, w->playable)};
        int sh1, sv1, sh2, sv2;
        box_steps(box, r1, c1, w->max_run, &sh1, &sv1);
        box_steps(box, r2, c2, w->max_run, &sh2, &sv2);
        int sh = sh1 > sh2 ? sh1 : sh2, sv = sv1 > sv2 ? sv1 : sv2;
        ymm2 moves;
        if (sh != sv) {
            moves = moves2_axes(t2, m2, empty, sh, sv);
        } else {
            switch (sh) {
            case 1: moves = moves2_all(t2, m2, empty, 1); break;
            case 2: moves = moves2_all(t2, m2, empty, 2); break;
            case 3: moves = moves2_all(t2, m2, empty, 3); break;
            default: moves = moves2_all(t2, m2, empty, 4); break;
            }
        }
        leaves += count_or_pass(moves.a) + count_or_pass(moves.b);
    }
    if (i < count) {
        int r = list[i] >> 4, c = list[i] & 15;
        ymm m2, t2;
        play16(w, mine, theirs, m->row, t->row, r, c, &m2, &t2);
        ymm occupied = _mm256_or_si256(m2, t2);
        if (!_mm256_testz_si256(occupied, w->ring))
            return leaves + perft16_avx2(w, t2, m2, 1);
        ymm empty = _mm256_andnot_si256(occupied, w->playable);
        leaves += count_or_pass(moves16_avx2(t2, m2, empty, BS_DIRS_ALL, box_run(box, r, c, w->max_run)));
    }
    return leaves;
}

static uint64_t perft16_avx2(const struct w16 *w, ymm mine, ymm theirs, int depth)
{
    ymm occupied = _mm256_or_si256(mine, theirs);
    if (!_mm256_testz_si256(occupied, w->ring))
        return window_escape(w, mine, theirs, depth);
    struct box box = box16(occupied);
    int run = box.bottom - box.top > box.right - box.left ? box.bottom - box.top : box.right - box.left;
    run = run < w->max_run ? run : w->max_run;
    ymm empty = _mm256_andnot_si256(occupied, w->playable);
    ymm moves = moves16_avx2(mine, theirs, empty, w->legal, run);
    if (_mm256_testz_si256(moves, moves)) {
        if (depth == 1)
            return 1;
        ymm reply = moves16_avx2(theirs, mine, empty, w->legal, run);
        return _mm256_testz_si256(reply, reply) ? 1 : perft16_avx2(w, theirs, mine, depth - 1);
    }
    if (depth == 1)
        return (uint64_t)popcount256(moves);
    union rows16 m, t, mv;
    m.v = mine;
    t.v = theirs;
    mv.v = moves;
    uint64_t leaves = 0;
    if (depth == 2 && w->legal == BS_DIRS_ALL)
        return leaf_pairs16(w, mine, theirs, &m, &t, &mv, box);
    for (int k = 0; k < 4; k++) {
        for (uint64_t bits = mv.word[k]; bits; bits &= bits - 1) {
            int index = 64 * k + __builtin_ctzll(bits), r = index >> 4, c = index & 15;
            ymm m2, t2;
            play16(w, mine, theirs, m.row, t.row, r, c, &m2, &t2);
            if (depth == 2 && _mm256_testz_si256(_mm256_or_si256(m2, t2), w->ring)) {
                ymm e2 = _mm256_andnot_si256(_mm256_or_si256(m2, t2), w->playable);
                leaves += count_or_pass(moves16_avx2(t2, m2, e2, w->legal, box_run(box, r, c, w->max_run)));
            } else {
                leaves += perft16_avx2(w, t2, m2, depth - 1);
            }
        }
    }
    return leaves;
}

static void w16_init(struct w16 *w, unsigned legal, unsigned flip, int max_run)
{
    memset(w, 0, sizeof *w);
    w->legal = legal;
    w->max_run = max_run;
    /* row: E up, W down; column: S up, N down; diagonal: SE up, NW down;
     * anti-diagonal (column falls as the row rises): SW up, NE down. */
    static const unsigned UP[4] = {BS_DIR_E, BS_DIR_S, BS_DIR_SE, BS_DIR_SW};
    static const unsigned DOWN[4] = {BS_DIR_W, BS_DIR_N, BS_DIR_NW, BS_DIR_NE};
    for (int i = 0; i < 4; i++) {
        w->up |= (flip & UP[i]) ? 0xffffull << 16 * i : 0;
        w->down |= (flip & DOWN[i]) ? 0xffffull << 16 * i : 0;
    }
}

static ymm load16(const uint32_t *rows, int first_row, int count, int first_col)
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

/* ---- an 8 x 8 window: the 8 x 8 path while the discs span about 6 x 6 ----
 * A perft from the start of a big board spends most of its nodes with the
 * discs near the centre: there the 8 x 8 path (bs_perft64_window) counts
 * them at its own speed. A node whose new disc reaches the window's ring is
 * placed again around its discs, or, once they spread too far, goes to the
 * 16 x 16 path (n <= 16) or to the 16 x 16 window and the 32-bit path. */
struct w8 {
    int n;
    unsigned legal, flip;
    uint64_t lanes[16];        /* their masks for the 8 x 8 path */
    const struct w16 *whole;   /* n <= 16: the whole board on the 16 x 16 path */
    const struct walk *big;    /* n > 16 */
    uint64_t playable[(MAX_ROWS - 7) * (MAX_ROWS - 7)]; /* each window's cells that are not blocks */
    uint32_t board[MAX_ROWS];                           /* the board's cells that are not blocks */
};

struct w8_frame {
    const struct w8 *base;
    int r0, c0; /* the window's top-left cell */
};

static uint64_t perft32_entry(const struct walk *w, const plane *mine, const plane *theirs, int depth, bool small);

/* The 8 bits of row r from column c0 as byte i of a window word. */
static inline uint64_t window_bytes(const uint32_t *rows, int r0, int c0)
{
    uint64_t x = 0;
    for (int i = 0; i < 8; i++)
        x |= (uint64_t)((rows[r0 + i] >> c0) & 0xffu) << (8 * i);
    return x;
}

static void w8_init(struct w8 *w, int n, unsigned legal, unsigned flip, const uint32_t *playable,
                    const struct w16 *whole, const struct walk *big)
{
    w->n = n;
    w->legal = legal;
    w->flip = flip;
    bs_window64_lanes(legal, flip, w->lanes);
    w->whole = whole;
    w->big = big;
    for (int r0 = 0; r0 + 8 <= n; r0++)
        for (int c0 = 0; c0 + 8 <= n; c0++)
            w->playable[r0 * (n - 7) + c0] = window_bytes(playable, r0, c0);
    for (int r = 0; r < n; r++)
        w->board[r] = playable[r];
}

/* A window for discs spanning rows top..bottom and columns left..right:
 * centred, inside the board, no disc on its ring (its borders that are not
 * the board's edges). False when none holds them. */
static bool w8_place(int n, int top, int bottom, int left, int right, int *r0_out, int *c0_out, uint64_t *ring)
{
    if (bottom - top > 6 || right - left > 6)
        return false;
    int r0 = top - 1 - (6 - (bottom - top + 1)) / 2, c0 = left - 1 - (6 - (right - left + 1)) / 2;
    r0 = r0 < 0 ? 0 : r0 > n - 8 ? n - 8 : r0;
    c0 = c0 < 0 ? 0 : c0 > n - 8 ? n - 8 : c0;
    bool ring_top = r0 > 0, ring_bottom = r0 + 7 < n - 1, ring_left = c0 > 0, ring_right = c0 + 7 < n - 1;
    if (top < r0 + ring_top || bottom > r0 + 7 - ring_bottom || left < c0 + ring_left || right > c0 + 7 - ring_right)
        return false;
    *r0_out = r0;
    *c0_out = c0;
    *ring = (ring_top ? 0xffULL : 0) | (ring_bottom ? 0xffULL << 56 : 0) | (ring_left ? 0x0101010101010101ULL : 0) |
            (ring_right ? 0x8080808080808080ULL : 0);
    return true;
}

static uint64_t w8_escape(void *ctx, uint64_t mine, uint64_t theirs, int depth);

static uint64_t w8_count(const struct w8 *base, int r0, int c0, uint64_t ring, uint64_t mine, uint64_t theirs,
                         int depth)
{
    struct w8_frame frame = {base, r0, c0};
    struct bs_window64 w = {base->playable[r0 * (base->n - 7) + c0], ring, w8_escape, &frame, base->legal, base->flip,
                            base->lanes};
    return bs_perft64_window(mine, theirs, depth, &w);
}

/* Counts the node in an 8 x 8 window around its discs (a legal direction
 * set, the board at least 9 x 9) when one holds them; false when not. */
static bool w8_try(const struct w8 *base, const uint32_t *mine, const uint32_t *theirs, int depth, uint64_t *leaves)
{
    int n = base->n, top = -1, bottom = -1, r0, c0;
    uint32_t cols = 0;
    uint64_t ring;
    for (int r = 0; r < n; r++) {
        uint32_t x = mine[r] | theirs[r];
        if (x) {
            if (top < 0)
                top = r;
            bottom = r;
            cols |= x;
        }
    }
    if (top < 0 || !w8_place(n, top, bottom, __builtin_ctz(cols), 31 - __builtin_clz(cols), &r0, &c0, &ring))
        return false;
    *leaves = w8_count(base, r0, c0, ring, window_bytes(mine, r0, c0), window_bytes(theirs, r0, c0), depth);
    return true;
}

/* Window bits moved to a window dr rows and dc columns further (the discs
 * fit both windows: nothing wraps). */
static inline uint64_t window_shift(uint64_t x, int dr, int dc)
{
    x = dr >= 0 ? x >> (8 * dr) : x << (-8 * dr);
    return dc >= 0 ? x >> dc : x << -dc;
}

/* Window bits as the 16-bit rows of a board of at most 16 x 16, the
 * window's top-left cell at (r0, c0; r0 <= 8): bytes widened to lanes and
 * moved c0 columns, then r0 rows as a shift of the four words, in registers
 * (through a buffer, a 16-byte store read back by a 32-byte load stalls the
 * store forwarding). */
static inline ymm window_rows16(uint64_t x, int r0, int c0)
{
    __m128i lanes = _mm_slli_epi16(_mm_cvtepu8_epi16(_mm_cvtsi64_si128((long long)x)), c0);
    uint64_t lo = (uint64_t)_mm_cvtsi128_si64(lanes), hi = (uint64_t)_mm_extract_epi64(lanes, 1);
    int b = 16 * (r0 & 3);
    uint64_t a0 = lo << b, a1 = b ? hi << b | lo >> (64 - b) : hi, a2 = b ? hi >> (64 - b) : 0;
    switch (r0 >> 2) {
    case 0: return _mm256_set_epi64x(0, (long long)a2, (long long)a1, (long long)a0);
    case 1: return _mm256_set_epi64x((long long)a2, (long long)a1, (long long)a0, 0);
    default: return _mm256_set_epi64x((long long)a1, (long long)a0, 0, 0); /* r0 = 8: a2 is 0 */
    }
}

/* The leaves of a node one ply above them whose new disc d (theirs) reached
 * the ring: every disc is in the window and d is the only one on the ring
 * (flips lie between d and a disc inside), so the moves are the window's
 * and the cells just outside it behind d, each legal when the line from it
 * through d runs over theirs to a disc of mine inside the window. -1 when
 * d is not alone on the ring (never, by the above). */
static int64_t w8_last_ply(const struct w8_frame *f, uint64_t mine, uint64_t theirs)
{
    const struct w8 *base = f->base;
    int n = base->n, r0 = f->r0, c0 = f->c0;
    uint64_t ring = (r0 > 0 ? 0xffULL : 0) | (r0 + 7 < n - 1 ? 0xffULL << 56 : 0) |
                    (c0 > 0 ? 0x0101010101010101ULL : 0) | (c0 + 7 < n - 1 ? 0x8080808080808080ULL : 0);
    uint64_t d = theirs & ring;
    if (!d || (d & (d - 1)))
        return -1;
    struct bs_window64 w = {base->playable[r0 * (n - 7) + c0], 0, NULL, NULL, base->legal, base->flip, base->lanes};
    int64_t count = __builtin_popcountll(bs_moves64_window(mine, theirs, &w));
    int i = __builtin_ctzll(d) >> 3, j = __builtin_ctzll(d) & 7;
    /* the directions from a cell past the ring towards d: into the window */
    unsigned dirs = (i == 0 && r0 > 0 ? BS_DIR_S | BS_DIR_SE | BS_DIR_SW : 0u) |
                    (i == 7 && r0 + 7 < n - 1 ? BS_DIR_N | BS_DIR_NE | BS_DIR_NW : 0u) |
                    (j == 0 && c0 > 0 ? BS_DIR_E | BS_DIR_NE | BS_DIR_SE : 0u) |
                    (j == 7 && c0 + 7 < n - 1 ? BS_DIR_W | BS_DIR_NW | BS_DIR_SW : 0u);
    for (dirs &= base->legal; dirs; dirs &= dirs - 1) {
        int k = __builtin_ctz(dirs), xi = i - DR[k], xj = j - DC[k], r = r0 + xi, c = c0 + xj;
        if (((unsigned)xi < 8 && (unsigned)xj < 8) || r < 0 || r >= n || c < 0 || c >= n || !(base->board[r] >> c & 1))
            continue;
        int a = i + DR[k], b = j + DC[k];
        while ((unsigned)a < 8 && (unsigned)b < 8 && (theirs >> (8 * a + b) & 1)) {
            a += DR[k];
            b += DC[k];
        }
        count += (unsigned)a < 8 && (unsigned)b < 8 && (mine >> (8 * a + b) & 1);
    }
    return count ? count : 1;
}

/* A node whose new disc reached the ring: one ply above the leaves, its
 * moves counted in place; else a window around its discs, moved on the
 * words, or else the wider paths. */
static uint64_t w8_escape(void *ctx, uint64_t mine, uint64_t theirs, int depth)
{
    const struct w8_frame *f = ctx;
    const struct w8 *base = f->base;
    if (depth == 1) {
        int64_t leaves = w8_last_ply(f, mine, theirs);
        if (leaves >= 0)
            return (uint64_t)leaves;
    }
    uint64_t occupied = mine | theirs, cols = occupied | occupied >> 32;
    cols |= cols >> 16;
    cols |= cols >> 8;
    cols &= 0xff;
    int top = f->r0 + (__builtin_ctzll(occupied) >> 3), bottom = f->r0 + ((63 - __builtin_clzll(occupied)) >> 3);
    int left = f->c0 + __builtin_ctzll(cols), right = f->c0 + 63 - __builtin_clzll(cols), r0, c0;
    uint64_t ring;
    if (w8_place(base->n, top, bottom, left, right, &r0, &c0, &ring))
        return w8_count(base, r0, c0, ring, window_shift(mine, r0 - f->r0, c0 - f->c0),
                        window_shift(theirs, r0 - f->r0, c0 - f->c0), depth);
    if (base->whole)
        return perft16_avx2(base->whole, window_rows16(mine, f->r0, f->c0), window_rows16(theirs, f->r0, f->c0),
                            depth);
    plane m, t;
    memset(&m, 0, sizeof m);
    memset(&t, 0, sizeof t);
    for (int i = 0; i < 8; i++) {
        m.row[f->r0 + i] = (uint32_t)((mine >> (8 * i)) & 0xffu) << f->c0;
        t.row[f->r0 + i] = (uint32_t)((theirs >> (8 * i)) & 0xffu) << f->c0;
    }
    return perft32_entry(base->big, &m, &t, depth, false);
}

static uint64_t perft16_whole(const bs_board *b, int player, int depth, unsigned legal, unsigned flip)
{
    struct w16 w;
    int n = b->n;
    w16_init(&w, legal, flip, n - 2 > 0 ? n - 2 : 0);
    uint32_t playable[BS_MAX_N] = {0};
    for (int r = 0; r < n; r++)
        playable[r] = bs_row_mask(n) & ~b->plane[2][r];
    w.playable = load16(playable, 0, n, 0);
    const uint32_t *mine = b->plane[player - 1], *theirs = b->plane[bs_opponent(player) - 1];
    if (legal != 0 && n <= 8) {
        /* the whole board is an 8 x 8 window without a ring (a smaller
         * board in its corner, the cells past the edge not playable): the
         * 8 x 8 generator and flips with the direction sets as lane masks */
        uint64_t lanes[16];
        bs_window64_lanes(legal, flip, lanes);
        struct bs_window64 whole = {window_bytes(playable, 0, 0), 0, NULL, NULL, legal, flip, lanes};
        return bs_perft64_window(window_bytes(mine, 0, 0), window_bytes(theirs, 0, 0), depth, &whole);
    }
    if (legal != 0 && n >= 9) {
        struct w8 w8;
        uint64_t leaves;
        w8_init(&w8, n, legal, flip, playable, &w, NULL);
        if (w8_try(&w8, mine, theirs, depth, &leaves))
            return leaves;
    }
    return perft16_avx2(&w, load16(mine, 0, n, 0), load16(theirs, 0, n, 0), depth);
}

/* Plays the node in a 16 x 16 window when its discs allow (see above);
 * returns false (nothing done) when they do not. */
static bool try_window(const struct walk *big, const plane *mine, const plane *theirs, int depth, uint64_t *leaves)
{
    int n = big->n, top = -1, bottom = -1;
    uint32_t cols = 0;
    for (int r = 0; r < n; r++) {
        uint32_t x = mine->row[r] | theirs->row[r];
        if (x) {
            if (top < 0)
                top = r;
            bottom = r;
            cols |= x;
        }
    }
    if (top < 0)
        return false;
    int left = __builtin_ctz(cols), right = 31 - __builtin_clz(cols);
    /* centred on the discs, so that play can spread every way before a
     * disc reaches a border */
    int r0 = top - 1 - (14 - (bottom - top + 1)) / 2, c0 = left - 1 - (14 - (right - left + 1)) / 2;
    r0 = r0 > 0 ? r0 : 0;
    c0 = c0 > 0 ? c0 : 0;
    if (r0 > n - 16)
        r0 = n - 16;
    if (c0 > n - 16)
        c0 = n - 16;
    /* the last row/column in the window that may hold a disc */
    int r_last = r0 + 15 == n - 1 ? r0 + 15 : r0 + 14, c_last = c0 + 15 == n - 1 ? c0 + 15 : c0 + 14;
    if (bottom > r_last || right > c_last || top < r0 + (r0 > 0) || left < c0 + (c0 > 0))
        return false;
    struct w16 w;
    w16_init(&w, big->legal, big->flip, 14);
    w.big = big;
    w.r0 = r0;
    w.c0 = c0;
    uint32_t playable[BS_MAX_N], ring[BS_MAX_N];
    uint32_t lane_mask = 0xffffu << c0;
    for (int r = 0; r < n; r++) {
        playable[r] = big->full.row[r] & ~big->blocks.row[r];
        ring[r] = 0;
        if ((r == r0 && r0 > 0) || (r == r0 + 15 && r0 + 15 < n - 1))
            ring[r] = lane_mask;
        if (c0 > 0)
            ring[r] |= 1u << c0;
        if (c0 + 15 < n - 1)
            ring[r] |= 1u << (c0 + 15);
    }
    w.playable = load16(playable, r0, 16, c0);
    w.ring = load16(ring, r0, 16, c0);
    *leaves = perft16_avx2(&w, load16(mine->row, r0, 16, c0), load16(theirs->row, r0, 16, c0), depth);
    return true;
}

static uint64_t window_escape(const struct w16 *w, ymm mine, ymm theirs, int depth)
{
    union {
        ymm v;
        uint16_t row[16];
    } m, t;
    m.v = mine;
    t.v = theirs;
    plane pm, pt;
    memset(&pm, 0, sizeof pm);
    memset(&pt, 0, sizeof pt);
    for (int i = 0; i < 16; i++) {
        pm.row[w->r0 + i] = (uint32_t)m.row[i] << w->c0;
        pt.row[w->r0 + i] = (uint32_t)t.row[i] << w->c0;
    }
    return perft32_entry(w->big, &pm, &pt, depth, false);
}

/* Moves on a board of at most 16 rows (rows as in bs_wide_moves). */
static void moves16_rows(int n, const uint32_t *mine, const uint32_t *theirs, const uint32_t *empty, unsigned dirs,
                         uint32_t *moves)
{
    union {
        ymm v;
        uint16_t row[16];
    } out;
    out.v = moves16_avx2(load16(mine, 0, n, 0), load16(theirs, 0, n, 0), load16(empty, 0, n, 0), dirs, n - 2);
    for (int i = 0; i < n; i++)
        moves[i] = out.row[i];
}

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif /* BS_WIDE_AVX2 */

/* perft32 with an 8 x 8 window (`small`, every direction) or else a
 * 16 x 16 one first where one fits. Bounding boxes only grow, so below a
 * node without a window none fits either: perft32 recurses into itself. */
static uint64_t perft32_entry(const struct walk *w, const plane *mine, const plane *theirs, int depth, bool small)
{
#if defined(BS_WIDE_AVX2)
    uint64_t leaves;
    if (small && w->legal != 0) {
        plane playable;
        for (int r = 0; r < w->n; r++)
            playable.row[r] = w->full.row[r] & ~w->blocks.row[r];
        struct w8 w8;
        w8_init(&w8, w->n, w->legal, w->flip, playable.row, NULL, w);
        if (w8_try(&w8, mine->row, theirs->row, depth, &leaves))
            return leaves;
    }
    if (w->window && try_window(w, mine, theirs, depth, &leaves))
        return leaves;
#else
    (void)small;
#endif
    return perft32(w, mine, theirs, depth);
}

uint64_t bs_wide_perft(const bs_board *b, int player, int depth, unsigned legal_dirs, unsigned flip_dirs)
{
    struct walk w;
    plane mine, theirs;
    memset(&w, 0, sizeof w);
    memset(&mine, 0, sizeof mine);
    memset(&theirs, 0, sizeof theirs);
    w.n = b->n;
    w.legal = legal_dirs;
    w.flip = flip_dirs;
    for (int i = 0; i < b->n; i++) {
        w.blocks.row[i] = b->plane[2][i];
        w.full.row[i] = bs_row_mask(b->n);
        mine.row[i] = b->plane[player - 1][i];
        theirs.row[i] = b->plane[bs_opponent(player) - 1][i];
    }
    if (depth == 0)
        return 1;
#if defined(BS_WIDE_AVX2)
    if (bs_avx2_available()) {
        if (b->n <= 16)
            return perft16_whole(b, player, depth, legal_dirs, flip_dirs);
        w.window = legal_dirs != 0;
    }
#endif
    if (b->n <= 16) {
        plane16 m16, t16, blocks16, full16;
        memset(&m16, 0, sizeof m16);
        memset(&t16, 0, sizeof t16);
        memset(&blocks16, 0, sizeof blocks16);
        memset(&full16, 0, sizeof full16);
        for (int i = 0; i < b->n; i++) {
            m16.row[i] = (uint16_t)mine.row[i];
            t16.row[i] = (uint16_t)theirs.row[i];
            blocks16.row[i] = (uint16_t)w.blocks.row[i];
            full16.row[i] = (uint16_t)w.full.row[i];
        }
        w.small_blocks = blocks16.v;
        w.small_full = full16.v;
        return perft16(&w, &m16, &t16, depth);
    }
    return perft32_entry(&w, &mine, &theirs, depth, w.window);
}
