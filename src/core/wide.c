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
 * baseline) and the processor picks one when the program loads. */
#include "wide.h"

#include <string.h>

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

BS_CLONES
void bs_wide_moves(int n, const uint32_t *mine, const uint32_t *theirs, const uint32_t *empty,
                   unsigned legal_dirs, uint32_t *moves)
{
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
    return perft32(&w, &mine, &theirs, depth);
}
