/* wide_perft.c - perft on the wide path (bs_wide_perft): the walk over
 * rows of 16 bits (n <= 16) and of 32 bits, compiled twice (AVX2 and
 * baseline), and which path counts a node: with AVX2, the AVX2 path and the
 * windows of wide_avx2.c and wide_window.c. */
#include "wide_impl.h"

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

/* perft32 with an 8 x 8 window (`small`, every direction) or else a
 * 16 x 16 one first where one fits. Bounding boxes only grow, so below a
 * node without a window none fits either: perft32 recurses into itself. */
uint64_t perft32_entry(const struct walk *w, const plane *mine, const plane *theirs, int depth, bool small)
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
